import { useEffect } from 'react';
import {
  ANALYTICS_MARKER_KEY,
  readItem,
  selectIsSignedIn,
  sessionApi,
  useAppDispatch,
  useAppSelector,
  writeItem,
} from '@time-wallet/api';
import { toLocalDateKey } from '@time-wallet/shared-ui/lib';

/** After sign-in, asks the server to refresh this week's analytics, at most once per local calendar day. */
export function useDailyAnalyticsRefresh(): void {
  const signedIn = useAppSelector(selectIsSignedIn);
  const dispatch = useAppDispatch();

  useEffect(() => {
    if (!signedIn) return;
    const today = toLocalDateKey(new Date());
    if (readItem(ANALYTICS_MARKER_KEY) === today) return;
    void dispatch(sessionApi.endpoints.refreshWeeklyAnalytics.initiate())
      .unwrap()
      .then(() => writeItem(ANALYTICS_MARKER_KEY, today))
      .catch(() => {
        // Not marked, so the next sign-in today tries again.
      });
  }, [signedIn, dispatch]);
}
