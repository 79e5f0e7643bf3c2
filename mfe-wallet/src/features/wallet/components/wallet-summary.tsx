import { useState } from 'react';
import { selectCurrentUser, useAppSelector } from '@time-wallet/api';
import { Button, Card, Skeleton } from '@time-wallet/shared-ui';
import { OverBudget } from '../../../components/over-budget/over-budget';
import type { WalletSnapshot } from '../lib/wallet-snapshot';
import { BudgetForm } from './budget-form';
import { HoursFigure } from './hours-figure';
import styles from './wallet-summary.module.css';

function Figure({ hours }: { hours: number | undefined }) {
  return hours === undefined ? <Skeleton width="7rem" height="2.75rem" /> : <HoursFigure hours={hours} />;
}

/** A secondary figure under a card's own, one line tall whether it is known yet or not. */
function Detail({ label, hours }: { label: string; hours: number | undefined }) {
  return (
    <div className={styles.detailRow}>
      <dt>{label}</dt>
      <dd className={styles.detailValue}>{hours === undefined ? '–' : `${hours} h`}</dd>
    </div>
  );
}

/**
 * 'Your Wallet': today's budget (editable), the hours spent today (planned, with what was tracked and the estimates
 * still unscheduled) and what remains.
 */
export function WalletSummary({
  wallet,
  overMinutes,
  isLoading,
  onRefresh,
}: {
  wallet: WalletSnapshot | null;
  /** How far today's plan runs past the budget, as the server counts it. */
  overMinutes: number;
  isLoading: boolean;
  onRefresh: () => void;
}) {
  const [editingBudget, setEditingBudget] = useState(false);
  const user = useAppSelector(selectCurrentUser);
  const byWeekday = user?.budgetHoursByWeekday ?? null;

  return (
    <section className={styles.summary} aria-labelledby="your-wallet-title">
      <div className={styles.heading}>
        <h2 id="your-wallet-title" className={styles.title}>
          Your Wallet
        </h2>
        <Button variant="ghost" onClick={onRefresh}>
          Refresh
        </Button>
      </div>
      <div className={styles.cards} aria-busy={isLoading}>
        <Card title="Budget Hours" headingLevel={3}>
          {editingBudget && wallet ? (
            <BudgetForm
              budgetHours={user?.budgetHours ?? wallet.budgetHours}
              budgetHoursByWeekday={byWeekday}
              onDone={() => setEditingBudget(false)}
            />
          ) : (
            <>
              <Figure hours={wallet?.budgetHours} />
              {byWeekday && <p className={styles.detail}>Today&apos;s budget; it differs by weekday.</p>}
              <Button
                variant="secondary"
                className={styles.edit}
                disabled={!wallet}
                onClick={() => setEditingBudget(true)}
              >
                Edit budget
              </Button>
            </>
          )}
        </Card>
        <Card title="Spent Hours" headingLevel={3}>
          <Figure hours={wallet?.spentHours} />
          <p className={styles.detail}>Planned for today</p>
          <dl className={`${styles.detail} ${styles.details}`}>
            <Detail label="Tracked" hours={wallet?.trackedHours} />
            <Detail label="Unscheduled estimates" hours={wallet?.unscheduledHours} />
          </dl>
        </Card>
        <Card title="Remaining" headingLevel={3}>
          <Figure hours={wallet?.remainingHours} />
          {/* The server's remaining stops at 0 (SPEC); past the budget the card says by how much. */}
          <OverBudget minutes={overMinutes} />
        </Card>
      </div>
    </section>
  );
}
