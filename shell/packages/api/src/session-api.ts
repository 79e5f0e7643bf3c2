import { api } from './api-slice';
import type { ResponseOf } from './contract';

/** The calls the shell makes for every remote: the start-up check, sign-out and the daily analytics refresh. */
export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    validateSession: build.query<ResponseOf<'/api/auth/validate', 'get'>, void>({
      query: () => '/auth/validate',
      keepUnusedDataFor: 0,
    }),
    logout: build.mutation<void, void>({
      query: () => ({ url: '/auth/logout', method: 'POST' }),
    }),
    /**
     * Stores a snapshot of this week's figures (kept for the account export). It invalidates nothing: the weekly GET
     * computes its figures live, so they are the same before and after, and invalidating made the analytics page
     * fetch both weeks a second time whenever this ran while the page's own request was in flight.
     */
    refreshWeeklyAnalytics: build.mutation<void, void>({
      query: () => ({ url: '/aggregation/analytics/weekly/update', method: 'POST' }),
    }),
  }),
});

export const { useLogoutMutation } = sessionApi;
