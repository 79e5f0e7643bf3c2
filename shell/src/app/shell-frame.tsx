import { Outlet } from '@time-wallet/api/router';
import { useAppliedTheme } from '../features/theme/use-applied-theme';
import { useDailyAnalyticsRefresh } from '../features/session/use-daily-analytics-refresh';
import { InactivityWarning } from '../features/session/inactivity-warning';
import { useInactivityLogout } from '../features/session/use-inactivity-logout';
import { useSessionStartup } from '../features/session/use-session-startup';
import { AppToaster } from './app-toaster';
import { useToastLimit } from './use-toast-limit';

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
      <InactivityWarning {...inactivity} />
      <AppToaster />
    </>
  );
}
