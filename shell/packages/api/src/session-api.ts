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
    refreshWeeklyAnalytics: build.mutation<void, void>({
      query: () => ({ url: '/aggregation/analytics/weekly/update', method: 'POST' }),
      invalidatesTags: ['Analytics'],
    }),
  }),
});

export const { useLogoutMutation } = sessionApi;
