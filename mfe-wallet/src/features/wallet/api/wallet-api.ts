import { api, type BodyOf, type CalendarEvent, type ResponseOf, type User } from '@time-wallet/api';
import { toWalletSnapshot, type WalletSnapshot } from '../lib/wallet-snapshot';

export type ReminderEvent = Pick<CalendarEvent, '_id' | 'title' | 'start' | 'end'>;

/** The one daily budget, or a budget per weekday (Sunday first; null for the same every day). */
export type BudgetChange = Pick<BodyOf<'/api/users/me', 'patch'>, 'budgetHours' | 'budgetHoursByWeekday'>;

export const walletApi = api.injectEndpoints({
  endpoints: (build) => ({
    // Both are keyed by the local date they were asked on, so a page open past midnight fetches the new day.
    getWallet: build.query<WalletSnapshot, string>({
      query: () => '/tasks/today',
      transformResponse: (response: ResponseOf<'/api/tasks/today', 'get'> | null) =>
        toWalletSnapshot(response, new Date().toISOString()),
      providesTags: ['Wallet'],
    }),
    getReminderEvents: build.query<ReminderEvent[], string>({
      query: () => '/events/today',
      // The spec reads a non-array answer as no events.
      transformResponse: (response: CalendarEvent[] | null) => (Array.isArray(response) ? response : []),
      providesTags: [{ type: 'Event', id: 'TODAY' }],
    }),
    updateBudget: build.mutation<User, BudgetChange>({
      query: (budget) => ({ url: '/users/me', method: 'PATCH', body: budget }),
      transformResponse: (response: ResponseOf<'/api/users/me', 'patch'>) => response.user,
      invalidatesTags: ['User', 'Wallet'],
    }),
  }),
});

export const { useGetWalletQuery, useGetReminderEventsQuery, useUpdateBudgetMutation } = walletApi;
