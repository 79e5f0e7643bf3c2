import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
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

/** Signs a person out after a stretch without mouse, keyboard, scroll or touch activity, then goes to /. */
export function useInactivityLogout(): void {
  const signedIn = useAppSelector(selectIsSignedIn);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  useEffect(() => {
    if (!signedIn) return undefined;
    const timeoutMs = getRuntimeConfig().inactivityTimeoutMs ?? INACTIVITY_TIMEOUT_MS;
    let timer = window.setTimeout(signOut, timeoutMs);

    function signOut() {
      void dispatch(sessionApi.endpoints.logout.initiate());
      navigate('/', { replace: true });
      dispatch(signedOut());
    }
    function restart() {
      window.clearTimeout(timer);
      timer = window.setTimeout(signOut, timeoutMs);
    }

    for (const event of ACTIVITY_EVENTS)
      window.addEventListener(event, restart, { passive: true, capture: true });
    return () => {
      window.clearTimeout(timer);
      for (const event of ACTIVITY_EVENTS) window.removeEventListener(event, restart, { capture: true });
    };
  }, [signedIn, dispatch, navigate]);
}
