import { useEffect } from 'react';
import {
  getRuntimeConfig,
  INACTIVITY_TIMEOUT_MS,
  selectIsSignedIn,
  sessionApi,
  signedOut,
  useAppDispatch,
  useAppSelector,
} from '@time-wallet/api';

const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'scroll', 'touchstart', 'wheel'] as const;

/**
 * The server ends a session after the same idle time plus two minutes without a request (one for its once-a-minute
 * activity write, one of grace: server/src/plugins/app/authentication.ts). Someone reading a page makes no request,
 * so activity is reported at most this often, which keeps the server's clock within those two minutes of this one.
 */
export const ACTIVITY_REPORT_INTERVAL_MS = 60_000;

/** Signs a person out after a stretch without mouse, keyboard, scroll or touch activity; the guard then shows /. */
export function useInactivityLogout(): void {
  const signedIn = useAppSelector(selectIsSignedIn);
  const dispatch = useAppDispatch();

  useEffect(() => {
    if (!signedIn) return undefined;
    const timeoutMs = getRuntimeConfig().inactivityTimeoutMs ?? INACTIVITY_TIMEOUT_MS;
    let timer = window.setTimeout(signOut, timeoutMs);
    let reportedAt = Date.now();

    async function signOut() {
      // Revoke the token on the server first; a server that cannot be reached must not keep anyone signed in.
      await dispatch(sessionApi.endpoints.logout.initiate()).catch(() => undefined);
      dispatch(signedOut());
    }
    function restart() {
      window.clearTimeout(timer);
      timer = window.setTimeout(signOut, timeoutMs);
      if (Date.now() - reportedAt >= ACTIVITY_REPORT_INTERVAL_MS) {
        reportedAt = Date.now();
        void dispatch(
          sessionApi.endpoints.validateSession.initiate(undefined, { forceRefetch: true, subscribe: false }),
        );
      }
    }

    for (const event of ACTIVITY_EVENTS)
      window.addEventListener(event, restart, { passive: true, capture: true });
    return () => {
      window.clearTimeout(timer);
      for (const event of ACTIVITY_EVENTS) window.removeEventListener(event, restart, { capture: true });
    };
  }, [signedIn, dispatch]);
}
