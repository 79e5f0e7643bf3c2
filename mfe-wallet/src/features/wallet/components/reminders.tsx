import { useEffect, type ReactNode } from 'react';
import { Skeleton } from '@time-wallet/shared-ui';
import { formatHHMM24 } from '@time-wallet/shared-ui/lib';
import { Mascot } from '../../../components/mascot/mascot';
import { moodForHours } from '../../../lib/mood';
import { useGetReminderEventsQuery, type ReminderEvent } from '../api/wallet-api';
import { showsAsCarousel } from '../lib/reminders';
import { ReminderCarousel } from './reminder-carousel';
import styles from './reminders.module.css';
import { useLocalDate } from '../../../lib/use-local-date';

const PLACEHOLDER_CARDS = 3;

function MascotCard({ spentHours }: { spentHours: number }) {
  const { mood, message } = moodForHours(spentHours);
  return (
    <div className={`${styles.card} ${styles.mascotCard}`}>
      <Mascot mood={mood} size={72} />
      <p className={styles.message}>{message}</p>
    </div>
  );
}

function EventCard({ event }: { event: ReminderEvent }) {
  return (
    <div className={styles.card}>
      <span className={styles.label}>calendar</span>
      <h3 className={styles.eventTitle}>{event.title}</h3>
      <p className={styles.due}>
        Due At: <time dateTime={event.end}>{formatHHMM24(event.end)}</time>
      </p>
    </div>
  );
}

/** The mascot's mood card first, then one card per event of today; a carousel when they do not fit a row. */
export function Reminders({ spentHours }: { spentHours: number }) {
  const { data: events = [], isLoading, error } = useGetReminderEventsQuery(useLocalDate());

  useEffect(() => {
    // The spec keeps this failure out of the person's way: logged only.
    if (error) console.error("Failed to load today's events", error);
  }, [error]);

  const cards: { key: string; content: ReactNode }[] = [
    { key: 'mascot', content: <MascotCard spentHours={spentHours} /> },
    ...events.map((event) => ({ key: event._id, content: <EventCard event={event} /> })),
  ];

  return (
    <section className={styles.reminders} aria-labelledby="reminders-title">
      <h2 id="reminders-title" className={styles.title}>
        Reminders
      </h2>
      {showsAsCarousel(cards.length) ? (
        <ReminderCarousel label="Reminder cards" cards={cards} />
      ) : (
        <ul
          className={styles.row}
          aria-labelledby="reminders-title"
          // How many cards the row lays out, so it never leaves one alone on a second line (styles.row).
          data-cards={cards.length + (events.length === 0 ? PLACEHOLDER_CARDS : 0)}
        >
          {cards.map(({ key, content }) => (
            <li key={key} className={styles.item}>
              {content}
            </li>
          ))}
          {events.length === 0 &&
            Array.from({ length: PLACEHOLDER_CARDS }, (_, index) => (
              // SPEC's skeleton cards: shimmering while today's events load, then still placeholders that say so.
              <li key={`placeholder-${index}`} className={styles.item} aria-hidden="true">
                <div className={`${styles.card} ${styles.placeholder}`}>
                  <Skeleton width="4.5rem" height="1.25rem" radius="var(--radius-full)" still={!isLoading} />
                  {index === 0 && !isLoading ? (
                    <p className={styles.placeholderText}>No events today</p>
                  ) : (
                    <Skeleton width="80%" height="1.25rem" still={!isLoading} />
                  )}
                  <Skeleton width="50%" height="1rem" still={!isLoading} />
                </div>
              </li>
            ))}
        </ul>
      )}
      {/* For assistive technology: the placeholders say the same to the eye. */}
      <p className="visually-hidden" role="status">
        {isLoading ? "Loading today's events" : events.length === 0 ? 'No calendar events today' : ''}
      </p>
    </section>
  );
}
