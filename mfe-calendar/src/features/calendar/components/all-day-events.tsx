import type { CSSProperties } from 'react';
import { formatDate } from '@time-wallet/shared-ui/lib';
import type { CalendarEvent } from '../api/events-api';
import type { CalendarLooks } from '../lib/calendars';
import { LockMark } from './lock-mark';
import { UNKNOWN_CALENDAR_COLOR } from './task-event';
import styles from './all-day-events.module.css';

export interface AllDayEventsProps {
  events: CalendarEvent[];
  /** Each calendar's colour: a subscribed event is drawn in it, with a lock. */
  calendarLooks: CalendarLooks;
  onOpenEvent: (eventId: string) => void;
}

function dayLabel(event: CalendarEvent): string {
  return formatDate(new Date(event.start), 'en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
  });
}

function classOf(event: CalendarEvent): string {
  if (event.readOnly) return `${styles.event} ${styles.subscribed}`;
  return event.source === 'ics' ? `${styles.event} ${styles.imported}` : styles.event;
}

/** A subscribed event's calendar colour, for its stripe and tint (see the module's .subscribed). */
function colorOf(event: CalendarEvent, calendarLooks: CalendarLooks): CSSProperties | undefined {
  if (!event.readOnly) return undefined;
  const color = calendarLooks.get(event.calendarId)?.color ?? UNKNOWN_CALENDAR_COLOR;
  return { '--calendar-color': color } as CSSProperties;
}

/**
 * The grid has no all-day row, so the visible range's all-day events are listed above it, each opened with a click:
 * the person's own to edit, a subscribed one (a holiday, say) to read or copy.
 */
export function AllDayEvents({ events, calendarLooks, onOpenEvent }: AllDayEventsProps) {
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
              className={classOf(event)}
              style={colorOf(event, calendarLooks)}
              onClick={() => onOpenEvent(event._id)}
            >
              <span className={styles.day}>{dayLabel(event)}</span> {event.title}
              {event.readOnly && <LockMark />}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
