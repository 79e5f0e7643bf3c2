import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { renderHook, waitFor } from '@testing-library/react';
import { api, createAppStore, type AppStore } from '@time-wallet/api';
import { deferred, mockApi, resetTestEnvironment, signedInStore } from '@time-wallet/api/testing';
import { useDailyAnalyticsRefresh } from './use-daily-analytics-refresh';

const UPDATE = '/aggregation/analytics/weekly/update';
const WEEKLY = '/aggregation/analytics/weekly';

/** A query tagged like mfe-analytics' weekly figures, which this package cannot import. */
const weeklyApi = api.injectEndpoints({
  endpoints: (build) => ({
    weekly: build.query<unknown, void>({ query: () => WEEKLY, providesTags: ['Analytics'] }),
  }),
});

function todayKey() {
  const now = new Date();
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function renderRefresh(store: AppStore) {
  const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
  return renderHook(() => useDailyAnalyticsRefresh(), { wrapper });
}

const settledMutations = (store: AppStore) =>
  Object.values(store.getState().api.mutations).filter(
    (mutation) => mutation?.status === 'fulfilled' || mutation?.status === 'rejected',
  );

describe('useDailyAnalyticsRefresh', () => {
  beforeEach(() => resetTestEnvironment());
  afterEach(() => jest.restoreAllMocks());

  it("asks the server once to refresh this week's analytics and marks today", async () => {
    const server = mockApi({ [`POST ${UPDATE}`]: { body: { updated: true } } });
    const store = signedInStore();

    const { rerender } = renderRefresh(store);
    rerender();

    await waitFor(() => expect(window.localStorage.getItem('lastAnalyticsUpdate')).toBe(todayKey()));
    expect(server.requestsTo('POST', UPDATE)).toHaveLength(1);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].headers.get('Authorization')).toBe('Bearer token-abc');
  });

  it('sends nothing when today is already marked', async () => {
    const server = mockApi({ [`POST ${UPDATE}`]: { body: { updated: true } } });
    const store = signedInStore();
    window.localStorage.setItem('lastAnalyticsUpdate', todayKey());

    renderRefresh(store);
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(server.requests).toHaveLength(0);
  });

  it('refreshes again when the marker is from an earlier day', async () => {
    const server = mockApi({ [`POST ${UPDATE}`]: { body: { updated: true } } });
    const store = signedInStore();
    window.localStorage.setItem('lastAnalyticsUpdate', '2001-01-01');

    renderRefresh(store);

    await waitFor(() => expect(window.localStorage.getItem('lastAnalyticsUpdate')).toBe(todayKey()));
    expect(server.requestsTo('POST', UPDATE)).toHaveLength(1);
  });

  it('sends nothing for a guest', async () => {
    const server = mockApi({ [`POST ${UPDATE}`]: { body: { updated: true } } });

    renderRefresh(createAppStore());
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(server.requests).toHaveLength(0);
  });

  it('stores no marker when the refresh fails', async () => {
    const server = mockApi({
      [`POST ${UPDATE}`]: { status: 500, body: { message: 'Internal server error' } },
    });
    const store = signedInStore();

    renderRefresh(store);

    await waitFor(() => expect(settledMutations(store)).toHaveLength(1));
    expect(server.requestsTo('POST', UPDATE)).toHaveLength(1);
    expect(window.localStorage.getItem('lastAnalyticsUpdate')).toBeNull();
  });

  it('leaves the weekly figures alone, even when their request is in flight during the refresh', async () => {
    const week = deferred<{ body: unknown }>();
    const server = mockApi({
      [`POST ${UPDATE}`]: { body: { updated: true } },
      [`GET ${WEEKLY}`]: () => week.promise,
    });
    const store = signedInStore();
    const subscription = store.dispatch(weeklyApi.endpoints.weekly.initiate());

    renderRefresh(store);
    await waitFor(() => expect(settledMutations(store)).toHaveLength(1));
    week.resolve({ body: { totalMinutes: 0 } });
    await subscription;
    // Had the refresh invalidated the figures, RTK Query would start their refetch as the first answer settles.
    expect(weeklyApi.endpoints.weekly.select()(store.getState()).status).toBe('fulfilled');
    expect(server.requestsTo('GET', WEEKLY)).toHaveLength(1);
    subscription.unsubscribe();
  });
});
