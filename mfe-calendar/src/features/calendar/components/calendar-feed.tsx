import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import toast from 'react-hot-toast';
import { serverMessageOf } from '@time-wallet/api';
import {
  useGetCalendarFeedQuery,
  usePublishCalendarFeedMutation,
  useRevokeCalendarFeedMutation,
} from '../api/calendars-api';
import { Button, Field, Hint, LoadFailure, Modal, Skeleton } from '@time-wallet/shared-ui';
import styles from './calendars-panel.module.css';

export const REFRESH_DELAYS_NOTE =
  'Google Calendar refreshes a subscribed address about every 12-24 hours; Apple Calendar within minutes.';

type Confirming = 'regenerate' | 'revoke' | null;

const CONFIRMATIONS = {
  regenerate: {
    title: 'Regenerate the address?',
    text: 'The old address will stop working: calendar apps subscribed to it stop updating until they are given the new one.',
    action: 'Regenerate',
    busyLabel: 'Regenerating...',
  },
  revoke: {
    title: 'Revoke the address?',
    text: 'The address will stop working: calendar apps subscribed to it stop updating. Publishing again makes a new one.',
    action: 'Revoke',
    busyLabel: 'Revoking...',
  },
} as const;

/** Focus for the element a change brings on screen, once the render that shows it is done. */
function useFocusAfterRender() {
  const [target, setTarget] = useState<{ ref: RefObject<HTMLElement | null> } | null>(null);
  useEffect(() => target?.ref.current?.focus(), [target]);
  return (ref: RefObject<HTMLElement | null>) => setTarget({ ref });
}

/**
 * "Publish my plan": the own calendar and scheduled tasks as a secret address a calendar app subscribes to. Publish,
 * then Copy the address, Regenerate it (the old one stops working) or Revoke it; both ask first.
 */
export function CalendarFeed() {
  const headingId = useId();
  const feedQuery = useGetCalendarFeedQuery();
  const [publishFeed, publishState] = usePublishCalendarFeedMutation();
  const [revokeFeed, revokeState] = useRevokeCalendarFeedMutation();
  const [confirming, setConfirming] = useState<Confirming>(null);
  const addressRef = useRef<HTMLInputElement>(null);
  const publishRef = useRef<HTMLButtonElement>(null);
  const focusAfterRender = useFocusAfterRender();
  const url = feedQuery.data?.url ?? null;

  const publish = async (regenerating: boolean) => {
    const result = await publishFeed();
    setConfirming(null);
    if (result.error) {
      toast.error(serverMessageOf(result.error, 'The address could not be made. Try again in a moment.'));
      return;
    }
    toast.success(regenerating ? 'New address made: the old one no longer works' : 'Your plan is published');
    focusAfterRender(addressRef);
  };

  const revoke = async () => {
    const result = await revokeFeed();
    setConfirming(null);
    if (result.error) {
      toast.error(serverMessageOf(result.error, 'The address could not be revoked. Try again in a moment.'));
      return;
    }
    toast.success('The address no longer works');
    focusAfterRender(publishRef);
  };

  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      toast.success('Address copied');
    } catch {
      // No clipboard here (a page not served over https, or permission refused): the text is selected instead.
      addressRef.current?.focus();
      addressRef.current?.select();
      toast('The address is selected: press Ctrl+C (⌘C on a Mac) to copy it');
    }
  };

  const confirmation = confirming ? CONFIRMATIONS[confirming] : null;
  const busy = publishState.isLoading || revokeState.isLoading;

  let body;
  if (feedQuery.data === undefined) {
    body = feedQuery.isError ? (
      <LoadFailure onRetry={() => void feedQuery.refetch()}>
        Whether your plan is published cannot be read right now.
      </LoadFailure>
    ) : (
      <Skeleton height="2.5rem" radius="var(--radius-md)" />
    );
  } else if (!url) {
    body = (
      <div className={styles.formActions}>
        <Button
          ref={publishRef}
          busy={publishState.isLoading}
          busyLabel="Publishing..."
          onClick={() => void publish(false)}
        >
          Publish
        </Button>
      </div>
    );
  } else {
    body = (
      <>
        <Field
          ref={addressRef}
          label="Address of your plan"
          readOnly
          value={url}
          onFocus={(event: { currentTarget: HTMLInputElement }) => event.currentTarget.select()}
        />
        <div className={styles.feedActions}>
          <Button variant="secondary" onClick={() => void copy()}>
            Copy
          </Button>
          <Button variant="secondary" disabled={busy} onClick={() => setConfirming('regenerate')}>
            Regenerate
          </Button>
          <Button variant="ghost" disabled={busy} onClick={() => setConfirming('revoke')}>
            Revoke
          </Button>
        </div>
      </>
    );
  }

  return (
    <section className={styles.feed} aria-labelledby={headingId}>
      <h3 id={headingId} className={styles.subheading}>
        Publish my plan
      </h3>
      <Hint>
        Your events and scheduled tasks as an address a calendar app can subscribe to. Anyone with the address
        can read it: share it only with your calendar app.
      </Hint>
      {body}
      <Hint>{REFRESH_DELAYS_NOTE}</Hint>
      {confirmation && (
        <Modal
          open
          role="alertdialog"
          title={confirmation.title}
          onClose={() => {
            if (!busy) setConfirming(null);
          }}
          width="24rem"
          footer={
            <div className={styles.feedActions}>
              <Button variant="secondary" disabled={busy} onClick={() => setConfirming(null)}>
                Cancel
              </Button>
              <Button
                variant="danger"
                busy={busy}
                busyLabel={confirmation.busyLabel}
                onClick={() => void (confirming === 'revoke' ? revoke() : publish(true))}
              >
                {confirmation.action}
              </Button>
            </div>
          }
        >
          <p className={styles.confirmText}>{confirmation.text}</p>
        </Modal>
      )}
    </section>
  );
}
