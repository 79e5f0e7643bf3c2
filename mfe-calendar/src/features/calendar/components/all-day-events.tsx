import type { CalendarEvent } from '../api/events-api';
import styles from './all-day-events.module.css';

export interface AllDayEventsProps {
  events: CalendarEvent[];
  onOpenEvent: (eventId: string) => void;
}

function dayLabel(event: CalendarEvent): string {
  return new Date(event.start).toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
  });
}

/** The grid has no all-day row, so the visible range's all-day events are listed above it, each editable. */
export function AllDayEvents({ events, onOpenEvent }: AllDayEventsProps) {
  const allDay = events.filter((event) => event.allDay);
  if (allDay.length === 0) return null;
  return (
    <section className={styles.strip} aria-labelledby="all-day-events-title">
      <h2 id="all-day-events-title" className={styles.title}>
        All day
      </h2>
      <ul className={styles.list}>
        {allDay.map((event) => (
          <li key={event._id}>
            <button
              type="button"
              className={event.source === 'ics' ? `${styles.event} ${styles.imported}` : styles.event}
              onClick={() => onOpenEvent(event._id)}
            >
              <span className={styles.day}>{dayLabel(event)}</span> {event.title}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
