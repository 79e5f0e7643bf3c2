import { useState } from 'react';
import toast from 'react-hot-toast';
import { serverMessageOf } from '@time-wallet/api';
import { Banner, Button, Modal } from '@time-wallet/shared-ui';
import { useCopyEventMutation, type CalendarEvent } from '../api/events-api';
import type { CalendarLook } from '../lib/calendars';
import { eventTimesText } from '../lib/event-dates';
import { LockMark } from './lock-mark';
import { repeatsOf } from './task-event';
import styles from './read-only-event-dialog.module.css';

export interface ReadOnlyEventDialogProps {
  event: CalendarEvent;
  /** The subscribed calendar it belongs to, once the calendars are read. */
  calendar: CalendarLook | undefined;
  /** Where a copy goes, for the toast that says it went: the own calendar's name ("My calendar"). */
  ownCalendarName: string;
  onClose: () => void;
}

/**
 * An event of a subscribed calendar, shown as text: it changes only where that calendar is kept, so there is nothing
 * to save or delete here. "Copy to my calendar" makes an editable copy (of this occurrence alone, for a series).
 */
export function ReadOnlyEventDialog({ event, calendar, ownCalendarName, onClose }: ReadOnlyEventDialogProps) {
  const [copyEvent, copyState] = useCopyEventMutation();
  // Why the last copy failed, shown inside the dialog (the page's banner sits behind its backdrop).
  const [error, setError] = useState<string | null>(null);
  const { repeats } = repeatsOf(event);

  const copy = async () => {
    setError(null);
    const result = await copyEvent(event._id);
    if (result.error) {
      setError(serverMessageOf(result.error, 'Failed to copy the event'));
      return;
    }
    toast.success(`Copied to ${ownCalendarName}`);
    onClose();
  };

  const calendarName = calendar?.name ?? 'a subscribed calendar';
  return (
    <Modal
      open
      title="Event details"
      // Closing while the copy runs would hide whether it worked.
      onClose={() => {
        if (!copyState.isLoading) onClose();
      }}
      width="26rem"
      footer={
        <div className={styles.actions}>
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          <Button busy={copyState.isLoading} busyLabel="Copying..." onClick={() => void copy()}>
            Copy to my calendar
          </Button>
        </div>
      }
    >
      <div className={styles.content}>
        {error && <Banner tone="error">{error}</Banner>}
        <dl className={styles.facts}>
          <div>
            <dt>Title</dt>
            <dd className={styles.title}>{event.title}</dd>
          </div>
          <div>
            <dt>When</dt>
            <dd>{eventTimesText(event)}</dd>
          </div>
          {repeats && (
            <div>
              <dt>Repeats</dt>
              <dd>{repeats.replace(/^Repeats: /, '')}</dd>
            </div>
          )}
          <div>
            <dt>Calendar</dt>
            <dd className={styles.calendar}>
              <span
                className={styles.swatch}
                style={calendar ? { background: calendar.color } : undefined}
                aria-hidden="true"
              />
              {calendar?.name ?? 'Subscribed calendar'}
              <LockMark />
            </dd>
          </div>
        </dl>
        <p className={styles.note}>
          This event belongs to {calendarName}, a calendar you subscribe to: it changes only where that
          calendar is kept. Copy it to edit your own.
        </p>
      </div>
    </Modal>
  );
}
