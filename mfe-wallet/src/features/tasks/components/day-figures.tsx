import { memo } from 'react';
import { useGetLedgerQuery } from '@time-wallet/api';
import { Card, LoadFailure, Skeleton } from '@time-wallet/shared-ui';
import { addDays } from '@time-wallet/shared-ui/lib';
import { OverBudget } from '../../../components/over-budget/over-budget';
import { hoursOf } from '../../../lib/duration';
import styles from './day-figures.module.css';

function Figure({ label, minutes }: { label: string; minutes: number | undefined }) {
  return (
    <div className={styles.figure}>
      <dt className={styles.label}>{label}</dt>
      <dd className={styles.value}>
        {minutes === undefined ? <Skeleton width="3.5rem" height="1.5rem" /> : `${hoursOf(minutes)} h`}
      </dd>
    </div>
  );
}

/**
 * The day's figures as the server's ledger counts them (the wallet and the calendar read the same): planned, tracked,
 * the estimates still unscheduled and the budget, and once, without blocking anything, how far the plan runs over.
 */
export const DayFigures = memo(function DayFigures({ day }: { day: string }) {
  const { data: days, isError, refetch } = useGetLedgerQuery({ from: day, to: addDays(day, 1) });
  const ledger = days?.find((entry) => entry.date === day);

  if (isError && !ledger) {
    return (
      <Card as="section" title="Time Budget" headingLevel={2}>
        <LoadFailure onRetry={() => void refetch()}>
          The day&apos;s figures are not available right now.
        </LoadFailure>
      </Card>
    );
  }
  return (
    <Card as="section" title="Time Budget" headingLevel={2} aria-busy={!ledger}>
      <dl className={styles.figures}>
        <Figure label="Planned" minutes={ledger?.plannedMinutes} />
        <Figure label="Tracked" minutes={ledger?.trackedMinutes} />
        <Figure label="Unscheduled estimates" minutes={ledger?.unscheduledMinutes} />
        <Figure label="Budget" minutes={ledger?.budgetMinutes} />
      </dl>
      <OverBudget minutes={ledger?.overMinutes ?? 0} />
    </Card>
  );
});
