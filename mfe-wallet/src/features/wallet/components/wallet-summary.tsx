import { useState } from 'react';
import { Button, Card, Skeleton } from '@time-wallet/shared-ui';
import { overBudgetHours } from '../../../lib/mood';
import type { WalletSnapshot } from '../lib/wallet-snapshot';
import { BudgetForm } from './budget-form';
import { HoursFigure } from './hours-figure';
import styles from './wallet-summary.module.css';

function Figure({ hours }: { hours: number | undefined }) {
  return hours === undefined ? <Skeleton width="7rem" height="2.75rem" /> : <HoursFigure hours={hours} />;
}

/** Remaining stops at 0 (SPEC); past the budget the card says by how much, in the warning colour. */
function OverBudget({ wallet }: { wallet: WalletSnapshot | null }) {
  const over = wallet ? overBudgetHours(wallet.budgetHours, wallet.spentHours) : 0;
  if (over === 0) return null;
  return <p className={styles.over}>over by {over} h</p>;
}

/** 'Your Wallet': the daily budget (editable), the hours spent today and what remains. */
export function WalletSummary({
  wallet,
  isLoading,
  onRefresh,
}: {
  wallet: WalletSnapshot | null;
  isLoading: boolean;
  onRefresh: () => void;
}) {
  const [editingBudget, setEditingBudget] = useState(false);

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
            <BudgetForm budgetHours={wallet.budgetHours} onDone={() => setEditingBudget(false)} />
          ) : (
            <>
              <Figure hours={wallet?.budgetHours} />
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
        </Card>
        <Card title="Remaining" headingLevel={3}>
          <Figure hours={wallet?.remainingHours} />
          <OverBudget wallet={wallet} />
        </Card>
      </div>
    </section>
  );
}
