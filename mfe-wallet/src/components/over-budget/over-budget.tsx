import { overAmount } from '@time-wallet/shared-ui/lib';
import styles from './over-budget.module.css';

/** How far a day's plan runs past its budget, from the server's overMinutes, said once; nothing within budget. */
export function OverBudget({ minutes }: { minutes: number }) {
  const amount = overAmount(minutes);
  if (!amount) return null;
  return <p className={styles.over}>Over budget by {amount}</p>;
}
