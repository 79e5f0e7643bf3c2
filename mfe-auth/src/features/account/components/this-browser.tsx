import { useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { isNetworkError, serverMessageOf, type ApiError } from '@time-wallet/api';
import { Button, Hint } from '@time-wallet/shared-ui';
import {
  useAddPushDeviceMutation,
  useLazyGetPushKeyQuery,
  type PushDevice,
} from '../../../lib/notifications-api';
import { deviceFrom } from '../lib/device-name';
import {
  askPermission,
  pushPermission,
  PushSetupError,
  subscribeThisBrowser,
  type PushPermission,
} from '../../../lib/push-browser';
import styles from './notifications-card.module.css';

const PERMISSION_TEXT: Record<PushPermission, string> = {
  unsupported: 'Not available in this browser',
  granted: 'Allowed',
  denied: 'Blocked in the browser’s settings',
  default: 'Not asked yet',
};

/** Why turning notifications on failed, in words: the browser's refusal, the push service, or the server's answer. */
function failureText(failure: unknown): string {
  if (failure instanceof PushSetupError) return failure.message;
  if (failure instanceof DOMException && failure.name === 'NotAllowedError')
    return 'The browser did not allow notifications for Time Wallet.';
  // The browser's own words, e.g. Chromium's 'Registration failed - push service error'.
  if (failure instanceof Error)
    return `This browser could not set up notifications: ${failure.message || failure.name}. Please try again.`;
  const error = failure as ApiError;
  return isNetworkError(error)
    ? 'Network error. Please check your connection and try again.'
    : serverMessageOf(error, 'This device could not be added. Please try again.');
}

/** The permission as it is now: it can change in the browser's settings while the page is open. */
function usePermission(): [PushPermission, (permission: PushPermission) => void] {
  const [permission, setPermission] = useState(pushPermission);
  useEffect(() => {
    const reread = () => setPermission(pushPermission());
    window.addEventListener('focus', reread);
    document.addEventListener('visibilitychange', reread);
    return () => {
      window.removeEventListener('focus', reread);
      document.removeEventListener('visibilitychange', reread);
    };
  }, []);
  return [permission, setPermission];
}

interface ThisBrowserProps {
  /** This browser's entry in the device list, once it has one. */
  thisDevice: PushDevice | undefined;
  /** The device list is still being read, so whether this browser is in it is not known yet. */
  checking: boolean;
  /** Called with the id the server gave this browser. */
  onSubscribed: (id: string) => void;
}

/** Whether this browser may show notifications, and the one button that asks (never on load) and subscribes it. */
export function ThisBrowser({ thisDevice, checking, onSubscribed }: ThisBrowserProps) {
  const [permission, setPermission] = usePermission();
  const [getKey] = useLazyGetPushKeyQuery();
  const [addDevice] = useAddPushDeviceMutation();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function turnOn() {
    setBusy(true);
    setProblem(null);
    try {
      const asked = permission === 'granted' ? permission : await askPermission();
      setPermission(asked);
      if (asked !== 'granted') return;
      const subscription = await subscribeThisBrowser(await getKey().unwrap());
      const { endpoint, expirationTime, keys } = subscription;
      if (!endpoint || !keys?.p256dh || !keys.auth)
        throw new PushSetupError('This browser gave no usable subscription.');
      const device = await addDevice({
        subscription: {
          endpoint,
          expirationTime: expirationTime ?? null,
          keys: { p256dh: keys.p256dh, auth: keys.auth },
        },
        device: deviceFrom(navigator.userAgent).name,
      }).unwrap();
      onSubscribed(device.id);
      toast.success('This device will get your reminders.');
    } catch (failure) {
      setProblem(failureText(failure));
    } finally {
      setBusy(false);
    }
  }

  if (permission === 'unsupported')
    return (
      <p className={styles.unsupported}>
        Install Time Wallet to your home screen to get reminders on this device: this browser cannot receive
        notifications from a web page. On an iPhone or iPad, tap Share, then Add to Home Screen, and open Time
        Wallet from there.
      </p>
    );

  return (
    <div className={styles.thisBrowser}>
      <p className={styles.permission}>
        Notifications in this browser: <strong>{PERMISSION_TEXT[permission]}</strong>
      </p>
      {permission === 'denied' ? (
        <Hint>
          To get reminders here, allow notifications for this site in the browser’s site settings (the icon
          beside the address), then come back to this page.
        </Hint>
      ) : thisDevice ? (
        <p className={styles.subscribed}>This device gets your reminders.</p>
      ) : checking ? null : (
        <div>
          <Button busy={busy} busyLabel="Turning on…" onClick={() => void turnOn()}>
            {permission === 'granted' ? 'Get reminders on this device' : 'Turn on notifications'}
          </Button>
        </div>
      )}
      {problem && (
        <p role="alert" className={styles.problem}>
          {problem}
        </p>
      )}
    </div>
  );
}
