import { useEffect, useRef, useState } from 'react';
import { clearPersonalData, signedOut, useAppDispatch, useLogoutMutation } from '@time-wallet/api';
import { Spinner } from '@time-wallet/shared-ui';
import { notificationsApi } from '../../../lib/notifications-api';
import { forgetThisDevice, thisDeviceId, unsubscribeThisBrowser } from '../../../lib/push-browser';
import { AuthCard } from './auth-card';

const REDIRECT_DELAY_MS = 1500;
/** The most signing out waits for this browser's reminders to stop (a slow network never holds it longer). */
const STOP_REMINDERS_WAIT_MS = 3000;

/**
 * Signing out on purpose stops this browser's reminders, removed on the server while the token still works and
 * unsubscribed in the browser: a shared device must not go on showing the last person's meetings. (The inactivity
 * sign-out keeps them: reminders are for when the app is not in use.) A subscription the server still lists after
 * a failure here is removed at its next push, which the push service refuses once the browser has unsubscribed.
 */
function stopThisBrowsersReminders(dispatch: ReturnType<typeof useAppDispatch>): Promise<unknown> {
  const id = thisDeviceId();
  forgetThisDevice();
  const removal =
    id === null
      ? Promise.resolve()
      : dispatch(notificationsApi.endpoints.removePushDevice.initiate(id)).unwrap();
  return Promise.race([
    Promise.allSettled([removal, unsubscribeThisBrowser()]),
    new Promise((resolve) => window.setTimeout(resolve, STOP_REMINDERS_WAIT_MS)),
  ]);
}

export function LogoutPage() {
  const [phase, setPhase] = useState<'working' | 'done'>('working');
  const [logout] = useLogoutMutation();
  const dispatch = useAppDispatch();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // The server revokes the token; a failure there must not keep anyone signed in on this device.
    void stopThisBrowsersReminders(dispatch)
      .then(() => logout())
      .catch(() => undefined)
      .finally(() => {
        clearPersonalData();
        setPhase('done');
      });
  }, [logout, dispatch]);

  useEffect(() => {
    if (phase !== 'done') return undefined;
    // The shell's guard takes a person who signed out to /.
    const timer = window.setTimeout(() => dispatch(signedOut()), REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [phase, dispatch]);

  return phase === 'working' ? (
    <AuthCard title="Logging you out...">
      <p role="status">Please wait while we securely log you out</p>
      <Spinner label="Logging you out" />
    </AuthCard>
  ) : (
    <AuthCard title="Logged Out Successfully">
      <p role="status">You have been securely logged out. Redirecting to login page...</p>
    </AuthCard>
  );
}
