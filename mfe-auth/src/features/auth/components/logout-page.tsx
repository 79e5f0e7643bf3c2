import { useEffect, useRef, useState } from 'react';
import { clearPersonalData, signedOut, useAppDispatch, useLogoutMutation } from '@time-wallet/api';
import { Spinner } from '@time-wallet/shared-ui';
import { AuthCard } from './auth-card';

const REDIRECT_DELAY_MS = 1500;

export function LogoutPage() {
  const [phase, setPhase] = useState<'working' | 'done'>('working');
  const [logout] = useLogoutMutation();
  const dispatch = useAppDispatch();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // The server revokes the token; a failure there must not keep anyone signed in on this device.
    void logout()
      .catch(() => undefined)
      .finally(() => {
        clearPersonalData();
        setPhase('done');
      });
  }, [logout]);

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
