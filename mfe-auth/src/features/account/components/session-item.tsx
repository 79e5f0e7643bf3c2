import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import { isNetworkError } from '@time-wallet/api';
import { Button } from '@time-wallet/shared-ui';
import { useSignOutSessionMutation, type AccountSession } from '../api/sessions-api';
import { deviceFrom } from '../lib/device-name';
import { lastActiveText, localDateTimeText } from '../lib/session-times';
import { DeviceIcon } from './device-icon';
import styles from './sessions-card.module.css';

interface SessionItemProps {
  session: AccountSession;
  /** When the list was read: 'last active' is counted from then. */
  now: number;
  /** Called once this session has been signed out, so focus has somewhere to go when the row leaves. */
  onSignedOut: () => void;
}

export function SessionItem({ session, now, onSignedOut }: SessionItemProps) {
  const nameId = useId();
  const detailsId = useId();
  const device = deviceFrom(session.userAgent);
  const [signOutSession, { isLoading }] = useSignOutSessionMutation();
  // The row stays until the list is read again; its button must not offer a second sign-out meanwhile.
  const [signedOut, setSignedOut] = useState(false);

  async function signOut() {
    const result = await signOutSession(session._id);
    if ('error' in result) {
      const status = result.error && 'status' in result.error ? result.error.status : undefined;
      if (status === 404) {
        toast.success('That device was already signed out.');
        setSignedOut(true);
        onSignedOut();
      } else {
        toast.error(
          isNetworkError(result.error)
            ? 'Network error. Please check your connection and try again.'
            : 'That device could not be signed out. Please try again.',
        );
      }
      return;
    }
    toast.success(`${device.name} has been signed out.`);
    setSignedOut(true);
    onSignedOut();
  }

  return (
    <li className={styles.session}>
      <DeviceIcon kind={device.kind} className={styles.icon} />
      <p className={styles.deviceLine}>
        <span id={nameId} className={styles.deviceName} title={session.userAgent || undefined}>
          {device.name}
        </span>
        {session.current && <span className={styles.badge}>This device</span>}
      </p>
      <p id={detailsId} className={styles.details}>
        <span>
          Last active{' '}
          <time dateTime={session.lastSeenAt} title={localDateTimeText(session.lastSeenAt)}>
            {lastActiveText(session.lastSeenAt, now)}
          </time>
        </span>
        <span>
          Signed in <time dateTime={session.createdAt}>{localDateTimeText(session.createdAt)}</time>
        </span>
      </p>
      {!session.current && (
        <Button
          variant="secondary"
          className={styles.signOut}
          aria-describedby={`${nameId} ${detailsId}`}
          busy={isLoading || signedOut}
          onClick={() => void signOut()}
        >
          Sign out
        </Button>
      )}
    </li>
  );
}
