import { roundHours } from '@time-wallet/shared-ui/lib';
import styles from './over-budget.module.css';

const MINUTES_PER_HOUR = 60;

/**
 * How far a day's plan runs past its budget, from the server's overMinutes, said once and without blocking anything;
 * nothing within budget. Under an hour it says minutes, so a plan one minute over reads as over (in hours at one
 * decimal it would read 0); from an hour, hours at one decimal, as every hour figure is shown.
 */
export function OverBudget({ minutes }: { minutes: number }) {
  if (!(minutes > 0)) return null;
  const amount =
    minutes < MINUTES_PER_HOUR
      ? `${Math.max(1, Math.round(minutes))} min`
      : `${roundHours(minutes / MINUTES_PER_HOUR)} h`;
  return <p className={styles.over}>Over budget by {amount}</p>;
}
