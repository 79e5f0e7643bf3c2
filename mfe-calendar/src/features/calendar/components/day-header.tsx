import type { ReactNode } from 'react';
import { formatDate } from '@time-wallet/shared-ui/lib';
import styles from './week-grid.module.css';

/**
 * A week column's header: the day's short name and number over its line of figures. One markup for the grid's frame
 * (drawn before FullCalendar loads, with an empty line) and FullCalendar's own header, so nothing moves between them.
 */
export function DayHeaderFace({ date, figureLine }: { date: Date; figureLine: ReactNode }) {
  return (
    <span className={styles.dayHeader}>
      <span className={styles.dayName}>{formatDate(date, 'en-US', { weekday: 'short' }).toUpperCase()}</span>
      <span className={styles.dayNumber}>{date.getDate()}</span>
      {figureLine}
    </span>
  );
}
