import { useCallback, useEffect, useRef, useState } from 'react';
import {
  getRuntimeConfig,
  INACTIVITY_TIMEOUT_MS,
  selectIsSignedIn,
  sessionApi,
  signedOutForInactivity,
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

/** The warning comes this long before the sign-out (half the time-out when that is shorter, as in tests). */
export const INACTIVITY_WARNING_MS = 60_000;

export interface InactivityWarningState {
  /** Whole seconds until the sign-out while the warning shows; null when it does not. */
  secondsLeft: number | null;
  /** Keeps the session: the timer starts again and the server hears of the activity at once. */
  staySignedIn: () => void;
}

/**
 * Signs a person out after a stretch without mouse, keyboard, scroll or touch activity; the guard then shows /, which
 * says why. A minute before, the warning state is set: from then on only "Stay signed in" keeps the session, so a
 * mouse passing over the page does not silently dismiss what the person has not read.
 */
export function useInactivityLogout(): InactivityWarningState {
  const signedIn = useAppSelector(selectIsSignedIn);
  const dispatch = useAppDispatch();
  const [secondsLeft, setSecondsLeft] = useState<number | null>(null);
  const stayRef = useRef<() => void>(() => undefined);

  useEffect(() => {
    if (!signedIn) return undefined;
    const timeoutMs = getRuntimeConfig().inactivityTimeoutMs ?? INACTIVITY_TIMEOUT_MS;
    const warningMs = Math.min(INACTIVITY_WARNING_MS, timeoutMs / 2);
    let deadline = 0;
    let warnTimer = 0;
    let signOutTimer = 0;
    let tick = 0;
    let warning = false;
    let reportedAt = Date.now();

    async function signOut() {
      stopWarning();
      // Revoke the token on the server first; a server that cannot be reached must not keep anyone signed in.
      await dispatch(sessionApi.endpoints.logout.initiate()).catch(() => undefined);
      dispatch(signedOutForInactivity());
    }
    function showSecondsLeft() {
      setSecondsLeft(Math.max(0, Math.ceil((deadline - Date.now()) / 1000)));
    }
    function startWarning() {
      warning = true;
      showSecondsLeft();
      tick = window.setInterval(showSecondsLeft, 1000);
    }
    function stopWarning() {
      warning = false;
      window.clearInterval(tick);
      setSecondsLeft(null);
    }
    function report(force: boolean) {
      if (!force && Date.now() - reportedAt < ACTIVITY_REPORT_INTERVAL_MS) return;
      reportedAt = Date.now();
      void dispatch(
        sessionApi.endpoints.validateSession.initiate(undefined, { forceRefetch: true, subscribe: false }),
      );
    }
    function startTimers() {
      window.clearTimeout(warnTimer);
      window.clearTimeout(signOutTimer);
      deadline = Date.now() + timeoutMs;
      warnTimer = window.setTimeout(startWarning, timeoutMs - warningMs);
      signOutTimer = window.setTimeout(signOut, timeoutMs);
    }
    function onActivity() {
      if (warning) return;
      startTimers();
      report(false);
    }
    stayRef.current = () => {
      stopWarning();
      startTimers();
      report(true);
    };

    startTimers();
    for (const event of ACTIVITY_EVENTS)
      window.addEventListener(event, onActivity, { passive: true, capture: true });
    return () => {
      window.clearTimeout(warnTimer);
      window.clearTimeout(signOutTimer);
      window.clearInterval(tick);
      setSecondsLeft(null);
      stayRef.current = () => undefined;
      for (const event of ACTIVITY_EVENTS) window.removeEventListener(event, onActivity, { capture: true });
    };
  }, [signedIn, dispatch]);

  const staySignedIn = useCallback(() => stayRef.current(), []);
  return { secondsLeft, staySignedIn };
}
