import { roundHours } from '@time-wallet/shared-ui/lib';
import styles from './hours-figure.module.css';

/** A number of hours as the wallet shows it: one decimal at most, then the unit. */
export function HoursFigure({ hours }: { hours: number }) {
  return (
    <p className={styles.figure}>
      <span className={styles.value}>{roundHours(hours)}</span> <span className={styles.unit}>hours</span>
    </p>
  );
}
