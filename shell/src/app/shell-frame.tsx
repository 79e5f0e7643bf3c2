import { Suspense, lazy } from 'react';
import { Outlet } from '@time-wallet/api/router';
import { useAppliedTheme } from '../features/theme/use-applied-theme';
import { useDailyAnalyticsRefresh } from '../features/session/use-daily-analytics-refresh';
import { useInactivityLogout } from '../features/session/use-inactivity-logout';
import { useSessionStartup } from '../features/session/use-session-startup';
import { AppToaster } from './app-toaster';
import { useToastLimit } from './use-toast-limit';

// The inactivity notice is drawn a minute before a sign-out, never on the first screen: its code loads then.
const InactivityWarning = lazy(() =>
  import('../features/session/inactivity-warning').then((module) => ({ default: module.InactivityWarning })),
);

/** Everything every route shares: session start-up, theme, inactivity sign-out and the one toaster. */
export function ShellFrame() {
  useSessionStartup();
  useAppliedTheme();
  const inactivity = useInactivityLogout();
  useDailyAnalyticsRefresh();
  useToastLimit(20);
  return (
    <>
      <Outlet />
      {inactivity.secondsLeft !== null && (
        <Suspense fallback={null}>
          <InactivityWarning {...inactivity} />
        </Suspense>
      )}
      <AppToaster />
    </>
  );
}
