import { formatDate } from '@time-wallet/shared-ui/lib';
import styles from './ends-next-day-hint.module.css';

function dayAfterText(dateKey: string): string {
  const [year, month, day] = dateKey.split('-').map(Number);
  const next = new Date(year, month - 1, day + 1);
  if (Number.isNaN(next.getTime())) return '';
  return formatDate(next, 'en-US', { weekday: 'short', month: 'short', day: 'numeric' });
}

/**
 * An end time field's hint: "Ends the next day" while the end typed is earlier than the start (the server's rule,
 * `endsNextDay`). A polite live region, kept in place while empty, so the change is read out as it is typed.
 */
export function EndsNextDayHint({ nextDay, day }: { nextDay: boolean; day?: string }) {
  const when = nextDay && day ? dayAfterText(day) : '';
  return (
    <span aria-live="polite" className={styles.hint}>
      {nextDay ? `Ends the next day${when ? ` (${when})` : ''}` : ''}
    </span>
  );
}
