import { api, type CalendarEvent, type ResponseOf, type User } from '@time-wallet/api';
import { toWalletSnapshot, type WalletSnapshot } from '../lib/wallet-snapshot';

export type ReminderEvent = Pick<CalendarEvent, '_id' | 'title' | 'start' | 'end'>;

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
    updateBudgetHours: build.mutation<User, number>({
      query: (budgetHours) => ({ url: '/users/me', method: 'PATCH', body: { budgetHours } }),
      transformResponse: (response: ResponseOf<'/api/users/me', 'patch'>) => response.user,
      invalidatesTags: ['User', 'Wallet'],
    }),
  }),
});

export const { useGetWalletQuery, useGetReminderEventsQuery, useUpdateBudgetHoursMutation } = walletApi;
