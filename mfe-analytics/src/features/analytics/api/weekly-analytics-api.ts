import { api, readStoredToken, type FetchBaseQueryError, type WeeklyAnalytics } from '@time-wallet/api';

export type { WeeklyAnalytics };

export interface WeeklyComparison {
  thisWeek: WeeklyAnalytics;
  lastWeek: WeeklyAnalytics;
}

export interface WeeklyComparisonRequest {
  /** The user's today, YYYY-MM-DD. */
  today: string;
  /** Seven days before today, YYYY-MM-DD. */
  sameDayLastWeek: string;
}

export const ANALYTICS_FETCH_FAILED = 'Failed to fetch analytics data';
export const NO_TOKEN_MESSAGE = 'No authentication token found';
export const UNKNOWN_ERROR_MESSAGE = 'Unknown error occurred';

/** The message a failure carries: the spec's text for a non-ok answer, else what went wrong without its type name. */
function analyticsFailureMessage(error: FetchBaseQueryError): string {
  if (typeof error.status === 'number') return ANALYTICS_FETCH_FAILED;
  if (error.status === 'PARSING_ERROR') return ANALYTICS_FETCH_FAILED;
  const described = 'error' in error ? error.error.replace(/^\w*Error:\s*/, '') : '';
  return described || UNKNOWN_ERROR_MESSAGE;
}

export const weeklyAnalyticsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getWeeklyComparison: build.query<WeeklyComparison, WeeklyComparisonRequest>({
      async queryFn({ today, sameDayLastWeek }, _api, _extraOptions, baseQuery) {
        if (!readStoredToken()) return { error: { status: 'CUSTOM_ERROR', error: NO_TOKEN_MESSAGE } };
        const weekOf = (date: string) =>
          baseQuery(`/aggregation/analytics/weekly?date=${encodeURIComponent(date)}`);
        const [thisWeek, lastWeek] = await Promise.all([weekOf(today), weekOf(sameDayLastWeek)]);
        const failure = thisWeek.error ?? lastWeek.error;
        if (failure) return { error: { status: 'CUSTOM_ERROR', error: analyticsFailureMessage(failure) } };
        return {
          data: { thisWeek: thisWeek.data as WeeklyAnalytics, lastWeek: lastWeek.data as WeeklyAnalytics },
        };
      },
      providesTags: ['Analytics'],
    }),
  }),
});

export const { useGetWeeklyComparisonQuery } = weeklyAnalyticsApi;
