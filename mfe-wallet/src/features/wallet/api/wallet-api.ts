import { api, type User } from '@time-wallet/api';
import { toWalletSnapshot, type WalletSnapshot } from '../lib/wallet-snapshot';

export interface ReminderEvent {
  _id: string;
  title: string;
  start: string;
  end: string;
}

export const walletApi = api.injectEndpoints({
  endpoints: (build) => ({
    // Both are keyed by the local date they were asked on, so a page open past midnight fetches the new day.
    getWallet: build.query<WalletSnapshot, string>({
      query: () => '/tasks/today',
      transformResponse: (response: unknown) => toWalletSnapshot(response, new Date().toISOString()),
      providesTags: ['Wallet'],
    }),
    getReminderEvents: build.query<ReminderEvent[], string>({
      query: () => '/events/today',
      // The spec reads a non-array answer as no events.
      transformResponse: (response: unknown) =>
        Array.isArray(response) ? (response as ReminderEvent[]) : [],
      providesTags: [{ type: 'Event', id: 'TODAY' }],
    }),
    updateBudgetHours: build.mutation<User, number>({
      query: (budgetHours) => ({ url: '/users/me', method: 'PATCH', body: { budgetHours } }),
      transformResponse: (response: { user: User }) => response.user,
      invalidatesTags: ['User', 'Wallet'],
    }),
  }),
});

export const { useGetWalletQuery, useGetReminderEventsQuery, useUpdateBudgetHoursMutation } = walletApi;
