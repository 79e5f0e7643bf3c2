import { api, type BodyOf, type Calendar, type ResponseOf } from '@time-wallet/api';

/** What subscribing takes: the address, and optionally a name, a colour and whether its events count. */
export type CalendarSubscription = BodyOf<'/api/calendars/', 'post'>;
/** A rename, a recolour or the switch of whether a subscription's events count in the budget. */
export type CalendarChange = { id: string } & BodyOf<'/api/calendars/{id}', 'patch'>;
/** What a refresh changed: events created, updated and deleted, or `unchanged` when the source had not changed. */
export type CalendarRefresh = ResponseOf<'/api/calendars/{id}/refresh', 'post'>;
/** The private feed's secret address, or null while none is published. */
export type CalendarFeed = ResponseOf<'/api/calendars/feed', 'get'>;

/**
 * Adding, restoring and refreshing wait for the server to fetch the calendar from its own server (15 s at most,
 * redirects and body included) and read it: longer than the slice's usual timeout.
 */
export const SUBSCRIPTION_FETCH_TIMEOUT_MS = 30_000;

const CALENDAR_LIST = { type: 'Calendar', id: 'LIST' } as const;
const CALENDAR_FEED = { type: 'Calendar', id: 'FEED' } as const;

/**
 * A subscription coming, going or refreshed changes the events shown and every figure they count in (the wallet,
 * the ledger behind the calendar's day headers, the analytics), as an event change does.
 */
const SUBSCRIPTION_CHANGES = [CALENDAR_LIST, 'Event', 'Wallet', 'Analytics'] as const;

const calendarsOf = (response: { calendars?: unknown } | null) =>
  Array.isArray(response?.calendars) ? (response.calendars as Calendar[]) : [];

/**
 * The calendars: the person's own and their subscriptions to an address (GET /calendars), and the private feed that
 * publishes the own calendar. The calendar page draws each event in its calendar's colour from this list.
 */
export const calendarsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCalendars: build.query<Calendar[], void>({
      query: () => '/calendars',
      transformResponse: calendarsOf,
      providesTags: [CALENDAR_LIST],
    }),
    /** Fetched and read by the server before it is saved: a refused address answers 400 on the field `url`. */
    addCalendar: build.mutation<Calendar, CalendarSubscription>({
      query: (body) => ({ url: '/calendars', method: 'POST', body, timeout: SUBSCRIPTION_FETCH_TIMEOUT_MS }),
      invalidatesTags: [...SUBSCRIPTION_CHANGES],
    }),
    /** Shown at once in the list (the switch answers as it is pressed), put back if the server refuses. */
    updateCalendar: build.mutation<Calendar, CalendarChange>({
      query: ({ id, ...body }) => ({ url: `/calendars/${id}`, method: 'PATCH', body }),
      async onQueryStarted({ id, ...change }, { dispatch, queryFulfilled }): Promise<void> {
        const shown = dispatch(
          calendarsApi.util.updateQueryData('getCalendars', undefined, (calendars) => {
            const calendar = calendars.find((candidate) => candidate.id === id);
            if (calendar) Object.assign(calendar, change);
          }),
        );
        try {
          await queryFulfilled;
        } catch {
          shown.undo();
        }
      },
      // Whether a subscription counts moves every figure; a new name or colour moves none.
      invalidatesTags: (_calendar, _error, { countsInBudget }) =>
        countsInBudget === undefined ? [CALENDAR_LIST] : [CALENDAR_LIST, 'Wallet', 'Analytics'],
    }),
    /** Removes a subscription and its events; Undo (restoreCalendar) brings it back, fetched again from its source. */
    removeCalendar: build.mutation<void, string>({
      query: (id) => ({ url: `/calendars/${id}`, method: 'DELETE' }),
      invalidatesTags: [...SUBSCRIPTION_CHANGES],
    }),
    restoreCalendar: build.mutation<Calendar, string>({
      query: (id) => ({
        url: `/calendars/${id}/restore`,
        method: 'POST',
        timeout: SUBSCRIPTION_FETCH_TIMEOUT_MS,
      }),
      invalidatesTags: [...SUBSCRIPTION_CHANGES],
    }),
    /** A failed fetch answers 422 and is kept as the calendar's lastError: the list is read again either way. */
    refreshCalendar: build.mutation<CalendarRefresh, string>({
      query: (id) => ({
        url: `/calendars/${id}/refresh`,
        method: 'POST',
        timeout: SUBSCRIPTION_FETCH_TIMEOUT_MS,
      }),
      invalidatesTags: [...SUBSCRIPTION_CHANGES],
    }),
    getCalendarFeed: build.query<CalendarFeed, void>({
      query: () => '/calendars/feed',
      providesTags: [CALENDAR_FEED],
    }),
    /** Publishes the feed, or gives it a new address: the old one stops working at once. */
    publishCalendarFeed: build.mutation<CalendarFeed, void>({
      query: () => ({ url: '/calendars/feed', method: 'POST' }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }): Promise<void> {
        try {
          const { data } = await queryFulfilled;
          dispatch(calendarsApi.util.updateQueryData('getCalendarFeed', undefined, () => data));
        } catch {
          // The address shown stays what the server last said; the caller reports the failure.
        }
      },
    }),
    revokeCalendarFeed: build.mutation<void, void>({
      query: () => ({ url: '/calendars/feed', method: 'DELETE' }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }): Promise<void> {
        try {
          await queryFulfilled;
          dispatch(calendarsApi.util.updateQueryData('getCalendarFeed', undefined, () => ({ url: null })));
        } catch {
          // As above: nothing changed.
        }
      },
    }),
  }),
});

export const {
  useGetCalendarsQuery,
  useAddCalendarMutation,
  useUpdateCalendarMutation,
  useRemoveCalendarMutation,
  useRestoreCalendarMutation,
  useRefreshCalendarMutation,
  useGetCalendarFeedQuery,
  usePublishCalendarFeedMutation,
  useRevokeCalendarFeedMutation,
} = calendarsApi;
