import { useEffect, useId, useState } from 'react';
import { Card } from '@time-wallet/shared-ui';
import { useGetPushDevicesQuery } from '../../../lib/notifications-api';
import { forgetThisDevice, rememberThisDevice, thisDeviceId } from '../../../lib/push-browser';
import { PushDevices } from './push-devices';
import { ReminderSettings } from './reminder-settings';
import { ThisBrowser } from './this-browser';
import styles from './notifications-card.module.css';

/** This browser's device id, kept in localStorage (the device list has no endpoints to compare) and in step with other tabs. */
function useThisDeviceId(): [string | null, (id: string | null) => void] {
  const [id, setId] = useState(thisDeviceId);
  useEffect(() => {
    const reread = () => setId(thisDeviceId());
    window.addEventListener('storage', reread);
    return () => window.removeEventListener('storage', reread);
  }, []);
  const change = (next: string | null) => {
    if (next) rememberThisDevice(next);
    else forgetThisDevice();
    setId(next);
  };
  return [id, change];
}

/**
 * "Notifications": reminders that reach a closed app (Web Push). This browser's permission and the button that
 * subscribes it, which reminders to send, a test notification, and the devices that get them.
 */
export function NotificationsCard() {
  const titleId = useId();
  const settingsId = useId();
  const devicesId = useId();
  const devices = useGetPushDevicesQuery();
  const list = devices.data ?? [];
  const [storedId, setStoredId] = useThisDeviceId();
  const thisDevice = list.find((device) => device.id === storedId);

  return (
    <Card
      as="section"
      headingLevel={2}
      title={<span id={titleId}>Notifications</span>}
      aria-labelledby={titleId}
    >
      <p className={styles.intro}>
        Reminders for your events, tasks and timers, on the devices you choose, even while Time Wallet is
        closed.
      </p>
      <ThisBrowser
        thisDevice={thisDevice}
        checking={devices.isLoading && storedId !== null}
        onSubscribed={setStoredId}
      />

      <section className={styles.part} aria-labelledby={settingsId}>
        <h3 id={settingsId} className={styles.partTitle}>
          Remind me
        </h3>
        <ReminderSettings />
      </section>

      <section className={styles.part} aria-labelledby={devicesId}>
        <h3 id={devicesId} className={styles.partTitle}>
          Devices that get reminders
        </h3>
        <PushDevices
          devices={list}
          isLoading={devices.isLoading}
          failed={devices.isError}
          onRetry={() => void devices.refetch()}
          thisDeviceId={thisDevice?.id ?? null}
          onThisDeviceRemoved={() => setStoredId(null)}
          titleId={devicesId}
        />
      </section>
    </Card>
  );
}
