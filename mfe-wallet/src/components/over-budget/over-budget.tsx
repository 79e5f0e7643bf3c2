import styles from './over-budget.module.css';

/** How far a day's plan runs past its budget, said once and without blocking anything; nothing within budget. */
export function OverBudget({ hours }: { hours: number }) {
  if (!(hours > 0)) return null;
  return <p className={styles.over}>Over budget by {hours} h</p>;
}
