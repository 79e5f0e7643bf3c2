import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import { isNetworkError, serverMessageOf } from '@time-wallet/api';
import { Button, EmptyState, LoadFailure, Skeleton } from '@time-wallet/shared-ui';
import {
  useRemovePushDeviceMutation,
  useSendTestPushMutation,
  type PushDevice,
} from '../../../lib/notifications-api';
import { unsubscribeThisBrowser } from '../../../lib/push-browser';
import { localDateTimeText } from '../lib/session-times';
import styles from './notifications-card.module.css';
import sessionStyles from './sessions-card.module.css';

interface DeviceItemProps {
  device: PushDevice;
  isThisDevice: boolean;
  onThisDeviceRemoved: () => void;
}

function DeviceItem({ device, isThisDevice, onThisDeviceRemoved }: DeviceItemProps) {
  const nameId = useId();
  const [remove, { isLoading }] = useRemovePushDeviceMutation();

  async function removeDevice() {
    const result = await remove(device.id);
    const status =
      'error' in result && result.error && 'status' in result.error ? result.error.status : undefined;
    if ('error' in result && status !== 404) {
      toast.error(
        isNetworkError(result.error)
          ? 'Network error. Please check your connection and try again.'
          : serverMessageOf(result.error, 'That device could not be removed. Please try again.'),
      );
      return;
    }
    if (isThisDevice) {
      onThisDeviceRemoved();
      // The server sends nothing here any more; the browser's own subscription goes too.
      await unsubscribeThisBrowser().catch(() => undefined);
    }
    toast.success(`${device.device} will no longer get reminders.`);
  }

  return (
    <li className={styles.device}>
      <p className={sessionStyles.deviceLine}>
        <span id={nameId} className={sessionStyles.deviceName}>
          {device.device}
        </span>
        {isThisDevice && <span className={sessionStyles.badge}>This device</span>}
      </p>
      <p className={sessionStyles.details}>
        Added <time dateTime={device.createdAt}>{localDateTimeText(device.createdAt)}</time>
      </p>
      <Button
        variant="secondary"
        className={styles.remove}
        aria-describedby={nameId}
        busy={isLoading}
        onClick={() => void removeDevice()}
      >
        Remove
      </Button>
    </li>
  );
}

/** The test notification: its outcome stays on screen (and is announced) until it is sent again. */
function TestNotification() {
  const [send, { isLoading }] = useSendTestPushMutation();
  const [outcome, setOutcome] = useState('');

  async function sendTest() {
    setOutcome('');
    const result = await send();
    if ('data' in result && result.data) {
      const { devices } = result.data;
      setOutcome(`Sent to ${devices} device${devices === 1 ? '' : 's'}.`);
    } else {
      setOutcome(
        isNetworkError(result.error)
          ? 'Network error: nothing was sent. Please check your connection and try again.'
          : serverMessageOf(result.error, 'The test notification could not be sent. Please try again.'),
      );
    }
  }

  return (
    <div className={styles.test}>
      <Button variant="secondary" busy={isLoading} busyLabel="Sending…" onClick={() => void sendTest()}>
        Send a test notification
      </Button>
      <p role="status" className={styles.testOutcome}>
        {outcome}
      </p>
    </div>
  );
}

interface PushDevicesProps {
  devices: PushDevice[];
  isLoading: boolean;
  failed: boolean;
  onRetry: () => void;
  thisDeviceId: string | null;
  onThisDeviceRemoved: () => void;
  titleId: string;
}

/** Every browser that gets the person's reminders, this one marked, each with a way to remove it. */
export function PushDevices({
  devices,
  isLoading,
  failed,
  onRetry,
  thisDeviceId,
  onThisDeviceRemoved,
  titleId,
}: PushDevicesProps) {
  return (
    <>
      {isLoading ? (
        <div className={styles.loading} aria-busy="true">
          <span className="visually-hidden">Loading your devices</span>
          <Skeleton height="3.75rem" radius="var(--radius-md)" />
        </div>
      ) : failed && devices.length === 0 ? (
        <LoadFailure onRetry={onRetry}>The devices that get your reminders could not be loaded.</LoadFailure>
      ) : devices.length === 0 ? (
        <EmptyState>No device gets your reminders yet.</EmptyState>
      ) : (
        <ul className={styles.devices} aria-labelledby={titleId}>
          {devices.map((device) => (
            <DeviceItem
              key={device.id}
              device={device}
              isThisDevice={device.id === thisDeviceId}
              onThisDeviceRemoved={onThisDeviceRemoved}
            />
          ))}
        </ul>
      )}
      <TestNotification />
    </>
  );
}
