import { useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { serverMessageOf, toastUndoableDelete, type Calendar } from '@time-wallet/api';
import {
  useGetCalendarsQuery,
  useRefreshCalendarMutation,
  useRemoveCalendarMutation,
  useRestoreCalendarMutation,
  useUpdateCalendarMutation,
} from '../api/calendars-api';
import { Button, LoadFailure, Skeleton, VisuallyHidden } from '@time-wallet/shared-ui';
import { Switch } from './switch/switch';
import { eventCountText, refreshSummaryText, timeAgoText } from '../lib/calendars';
import styles from './calendars-panel.module.css';

const MINUTE_MS = 60_000;

/** The clock the "Last refreshed 5 minutes ago" lines read, moved on each minute while they are shown. */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), MINUTE_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function Swatch({ color }: { color: string }) {
  return <span className={styles.swatch} style={{ background: color }} aria-hidden="true" />;
}

function OwnCalendarRow({ calendar }: { calendar: Calendar }) {
  return (
    <li className={styles.row}>
      <div className={styles.rowTitle}>
        <Swatch color={calendar.color} />
        <span className={styles.name}>{calendar.name}</span>
        <span className={styles.count}>{eventCountText(calendar.eventCount)}</span>
      </div>
      <p className={styles.status}>Your own events: they always count in the budget.</p>
    </li>
  );
}

function SubscriptionRow({
  calendar,
  now,
  onRemoved,
}: {
  calendar: Calendar;
  now: number;
  onRemoved: () => void;
}) {
  const [updateCalendar] = useUpdateCalendarMutation();
  const [refreshCalendar, refreshState] = useRefreshCalendarMutation();
  const [removeCalendar, removeState] = useRemoveCalendarMutation();
  const [restoreCalendar] = useRestoreCalendarMutation();
  const { id, name } = calendar;

  const switchCounting = async (countsInBudget: boolean) => {
    const result = await updateCalendar({ id, countsInBudget });
    if (result.error) toast.error(serverMessageOf(result.error, `"${name}" could not be switched`));
  };
  const refresh = async () => {
    const result = await refreshCalendar(id);
    if (result.data) toast.success(refreshSummaryText(result.data));
    else toast.error(serverMessageOf(result.error, `"${name}" could not be refreshed`));
  };
  const remove = async () => {
    const result = await removeCalendar(id);
    if (result.error) {
      toast.error(serverMessageOf(result.error, `"${name}" could not be removed`));
      return;
    }
    onRemoved();
    toastUndoableDelete({
      message: `Calendar "${name}" removed`,
      undo: () => restoreCalendar(id),
      restoredMessage: `Calendar "${name}" restored`,
    });
  };

  return (
    <li className={styles.row}>
      <div className={styles.rowTitle}>
        <Swatch color={calendar.color} />
        <span className={styles.name}>{name}</span>
        <span className={styles.count}>{eventCountText(calendar.eventCount)}</span>
      </div>
      {calendar.lastError ? (
        <p role="alert" className={`${styles.status} ${styles.failed}`}>
          {calendar.lastError}
        </p>
      ) : (
        <p className={styles.status}>
          {calendar.lastRefreshedAt ? (
            <>
              Last refreshed{' '}
              <time
                dateTime={calendar.lastRefreshedAt}
                title={new Date(calendar.lastRefreshedAt).toLocaleString()}
              >
                {timeAgoText(calendar.lastRefreshedAt, now)}
              </time>
            </>
          ) : (
            'Not refreshed yet'
          )}
        </p>
      )}
      <div className={styles.rowActions}>
        <Switch
          checked={calendar.countsInBudget}
          onChange={(next) => void switchCounting(next)}
          label={
            <>
              Counts in budget<VisuallyHidden> for {name}</VisuallyHidden>
            </>
          }
        />
        <span className={styles.rowButtons}>
          <Button
            variant="secondary"
            busy={refreshState.isLoading}
            busyLabel={
              <>
                Refreshing<VisuallyHidden> {name}</VisuallyHidden>...
              </>
            }
            onClick={() => void refresh()}
          >
            Refresh<VisuallyHidden> {name}</VisuallyHidden>
          </Button>
          <Button variant="ghost" busy={removeState.isLoading} onClick={() => void remove()}>
            Remove<VisuallyHidden> {name}</VisuallyHidden>
          </Button>
        </span>
      </div>
    </li>
  );
}

const LOADING_ROWS = 2;

/**
 * The own calendar, then each subscription: its colour, name and event count, when it was last refreshed (or why
 * the last refresh failed), whether its events count in the budget, Refresh and Remove (with Undo).
 */
export function CalendarList({ onRemoved }: { onRemoved: () => void }) {
  const calendarsQuery = useGetCalendarsQuery();
  const now = useMinuteClock();
  const calendars = calendarsQuery.data;

  if (!calendars) {
    if (calendarsQuery.isError) {
      return (
        <LoadFailure onRetry={() => void calendarsQuery.refetch()}>
          Your calendars are not available right now.
        </LoadFailure>
      );
    }
    return (
      <ul className={styles.list} aria-busy="true" aria-label="Your calendars">
        {Array.from({ length: LOADING_ROWS }, (_, index) => (
          <li key={index} className={`${styles.row} ${styles.loadingRow}`}>
            <Skeleton width="60%" height="1.25rem" />
            <Skeleton width="40%" height="1rem" />
          </li>
        ))}
      </ul>
    );
  }

  const subscriptions = calendars.filter((calendar) => calendar.kind === 'subscription');
  return (
    <>
      <ul className={styles.list} aria-label="Your calendars">
        {calendars
          .filter((calendar) => calendar.kind === 'own')
          .map((calendar) => (
            <OwnCalendarRow key={calendar.id} calendar={calendar} />
          ))}
        {subscriptions.map((calendar) => (
          <SubscriptionRow key={calendar.id} calendar={calendar} now={now} onRemoved={onRemoved} />
        ))}
      </ul>
      {subscriptions.length === 0 && (
        <p className={styles.empty}>
          No subscriptions yet. Add a calendar by its address (a team calendar, holidays) below.
        </p>
      )}
    </>
  );
}
