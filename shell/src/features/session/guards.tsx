import { useDeferredValue, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from '@time-wallet/api/router';
import { selectIsSignedIn, selectSession, signInDestination, useAppSelector } from '@time-wallet/api';
import { Button, Spinner } from '@time-wallet/shared-ui';
import styles from './guards.module.css';

function FullPageSpinner() {
  return (
    <div className={styles.centered}>
      <Spinner label="Checking your session" />
    </div>
  );
}

/**
 * True while the start-up session check runs. Its answer comes as a store update, which React renders synchronously,
 * in one task however large the page behind the guard is; deferred, that update only keeps the spinner for one more
 * pass, and the page is then drawn as a transition, which React renders in short slices. Only the end of the check is
 * deferred: the session never goes back to loading, so a sign-out still takes effect at once.
 */
function useCheckingSession(): boolean {
  const { status } = useAppSelector(selectSession);
  return useDeferredValue(status === 'loading');
}

/**
 * /app/*: a spinner while the session check runs; without a signed-in user, login, remembering where they were.
 * Someone who just signed out (logout page, inactivity) goes to / instead. `frameWhileChecking` draws the spinner
 * inside the page's own frame where it has one (the frame the first HTML already showed), so nothing flickers.
 */
export function RequireAuth({
  children,
  frameWhileChecking,
}: {
  children?: ReactNode;
  frameWhileChecking?: (pathname: string) => ReactNode;
}) {
  const checking = useCheckingSession();
  const { endedBy } = useAppSelector(selectSession);
  const signedIn = useAppSelector(selectIsSignedIn);
  const location = useLocation();
  if (checking) return frameWhileChecking?.(location.pathname) ?? <FullPageSpinner />;
  if (!signedIn && (endedBy === 'signOut' || endedBy === 'inactivity')) return <Navigate to="/" replace />;
  if (!signedIn) return <Navigate to="/auth/login" replace state={{ from: location }} />;
  return children ?? <Outlet />;
}

/** Login and registration are for guests: a signed-in person goes to the wallet (or where they were headed). */
export function GuestOnly({ children }: { children?: ReactNode }) {
  const checking = useCheckingSession();
  const signedIn = useAppSelector(selectIsSignedIn);
  const location = useLocation();
  if (checking) return <FullPageSpinner />;
  if (signedIn) return <Navigate to={signInDestination(location.state)} replace />;
  return children ?? <Outlet />;
}

/**
 * Analytics reads a week of server-computed figures, so it needs a session the server has confirmed in this
 * visit; a person running on the device's stored user (server unreachable at start-up) is asked to reconnect.
 */
export function RequireConfirmedSession({ children }: { children?: ReactNode }) {
  const { confirmedByServer } = useAppSelector(selectSession);
  if (confirmedByServer) return children ?? <Outlet />;
  return (
    <section className={styles.notice} aria-labelledby="analytics-offline-heading">
      <h1 id="analytics-offline-heading">Analytics needs a connection</h1>
      <p>We could not confirm your session with the server, so your weekly figures cannot be shown yet.</p>
      <Button onClick={() => window.location.reload()}>Try again</Button>
    </section>
  );
}
