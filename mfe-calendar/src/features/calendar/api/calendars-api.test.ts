import { waitFor } from '@testing-library/react';
import { createAppStore, ledgerApi } from '@time-wallet/api';
import {
  aLedgerDay,
  aSubscription,
  anOwnCalendar,
  deferred,
  mockApi,
  resetTestEnvironment,
  type MockReply,
} from '@time-wallet/api/testing';
import { calendarsApi } from './calendars-api';

const WEEK = { from: '2026-03-08', to: '2026-03-16' };

function storeReadingCalendarsAndLedger() {
  const store = createAppStore();
  const calendars = store.dispatch(calendarsApi.endpoints.getCalendars.initiate());
  const ledger = store.dispatch(ledgerApi.endpoints.getLedger.initiate(WEEK));
  return { store, subscriptions: [calendars, ledger] };
}

const shownCalendars = (store: ReturnType<typeof createAppStore>) =>
  calendarsApi.endpoints.getCalendars.select()(store.getState()).data;

describe('the calendars api', () => {
  beforeEach(() => resetTestEnvironment());
  afterEach(() => jest.restoreAllMocks());

  it('reads the calendars from their envelope', async () => {
    mockApi({ 'GET /calendars': { body: { calendars: [anOwnCalendar(), aSubscription()] } } });
    const store = createAppStore();
    const { data } = await store.dispatch(calendarsApi.endpoints.getCalendars.initiate());
    expect(data?.map((calendar) => calendar.name)).toEqual(['My calendar', 'Holidays']);
  });

  it('shows a switched countsInBudget at once and reads the ledger again once the server took it', async () => {
    const answer = deferred<MockReply>();
    const network = mockApi({
      'GET /calendars': { body: { calendars: [anOwnCalendar(), aSubscription()] } },
      'GET /ledger': { body: { days: [aLedgerDay()] } },
      'PATCH /calendars/calendar-sub-1': () => answer.promise,
    });
    const { store, subscriptions } = storeReadingCalendarsAndLedger();
    await Promise.all(subscriptions);

    const change = store.dispatch(
      calendarsApi.endpoints.updateCalendar.initiate({ id: 'calendar-sub-1', countsInBudget: false }),
    );
    expect(shownCalendars(store)?.[1].countsInBudget).toBe(false);
    answer.resolve({ body: aSubscription({ countsInBudget: false }) });
    await change;

    expect(network.requestsTo('PATCH', '/calendars/calendar-sub-1')[0].body).toEqual({
      countsInBudget: false,
    });
    await waitFor(() => expect(network.requestsTo('GET', '/ledger')).toHaveLength(2));
    expect(network.requestsTo('GET', '/calendars')).toHaveLength(2);
    subscriptions.forEach((subscription) => subscription.unsubscribe());
  });

  it('puts the switch back when the server refuses the change', async () => {
    mockApi({
      'GET /calendars': { body: { calendars: [anOwnCalendar(), aSubscription()] } },
      'GET /ledger': { body: { days: [] } },
      'PATCH /calendars/calendar-sub-1': { status: 404, body: { message: 'Calendar not found' } },
    });
    const { store, subscriptions } = storeReadingCalendarsAndLedger();
    await Promise.all(subscriptions);

    await store.dispatch(
      calendarsApi.endpoints.updateCalendar.initiate({ id: 'calendar-sub-1', countsInBudget: false }),
    );

    expect(shownCalendars(store)?.[1].countsInBudget).toBe(true);
    subscriptions.forEach((subscription) => subscription.unsubscribe());
  });

  it('does not read the ledger again for a new name', async () => {
    const network = mockApi({
      'GET /calendars': { body: { calendars: [anOwnCalendar(), aSubscription()] } },
      'GET /ledger': { body: { days: [] } },
      'PATCH /calendars/calendar-sub-1': { body: aSubscription({ name: 'Bank holidays' }) },
    });
    const { store, subscriptions } = storeReadingCalendarsAndLedger();
    await Promise.all(subscriptions);

    await store.dispatch(
      calendarsApi.endpoints.updateCalendar.initiate({ id: 'calendar-sub-1', name: 'Bank holidays' }),
    );
    await waitFor(() => expect(network.requestsTo('GET', '/calendars')).toHaveLength(2));
    expect(network.requestsTo('GET', '/ledger')).toHaveLength(1);
    subscriptions.forEach((subscription) => subscription.unsubscribe());
  });

  it.each([
    ['a new subscription', 'POST', '/calendars'],
    ['a removal', 'DELETE', '/calendars/calendar-sub-1'],
    ['an Undo of a removal', 'POST', '/calendars/calendar-sub-1/restore'],
    ['a refresh', 'POST', '/calendars/calendar-sub-1/refresh'],
  ])('reads the ledger and the calendars again after %s', async (_name, method, path) => {
    const network = mockApi({
      'GET /calendars': { body: { calendars: [anOwnCalendar()] } },
      'GET /ledger': { body: { days: [] } },
      [`${method} ${path}`]: { status: method === 'DELETE' ? 204 : 200, body: aSubscription() },
    });
    const { store, subscriptions } = storeReadingCalendarsAndLedger();
    await Promise.all(subscriptions);
    const endpoints = calendarsApi.endpoints;

    if (path === '/calendars') {
      await store.dispatch(endpoints.addCalendar.initiate({ url: 'https://calendars.example.com/a.ics' }));
    } else if (method === 'DELETE') {
      await store.dispatch(endpoints.removeCalendar.initiate('calendar-sub-1'));
    } else if (path.endsWith('/restore')) {
      await store.dispatch(endpoints.restoreCalendar.initiate('calendar-sub-1'));
    } else {
      await store.dispatch(endpoints.refreshCalendar.initiate('calendar-sub-1'));
    }
    await waitFor(() => expect(network.requestsTo('GET', '/ledger')).toHaveLength(2));
    expect(network.requestsTo('GET', '/calendars')).toHaveLength(2);
    subscriptions.forEach((subscription) => subscription.unsubscribe());
  });

  it('keeps the feed address the server gives on publishing, and none after revoking', async () => {
    const network = mockApi({
      'GET /calendars/feed': { body: { url: null } },
      'POST /calendars/feed': { body: { url: 'http://api.test/api/feed/secret.ics' } },
      'DELETE /calendars/feed': { status: 204 },
    });
    const store = createAppStore();
    const feed = store.dispatch(calendarsApi.endpoints.getCalendarFeed.initiate());
    await feed;
    const shownFeed = () => calendarsApi.endpoints.getCalendarFeed.select()(store.getState()).data;

    await store.dispatch(calendarsApi.endpoints.publishCalendarFeed.initiate());
    expect(shownFeed()).toEqual({ url: 'http://api.test/api/feed/secret.ics' });
    await store.dispatch(calendarsApi.endpoints.revokeCalendarFeed.initiate());
    expect(shownFeed()).toEqual({ url: null });
    expect(network.requestsTo('GET', '/calendars/feed')).toHaveLength(1);
    feed.unsubscribe();
  });
});
