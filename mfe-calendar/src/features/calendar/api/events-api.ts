import { api, type BodyOf, type CalendarEvent, type QueryOf, type ResponseOf } from '@time-wallet/api';

export type { CalendarEvent };
/** The local days shown: `from` the first, `to` the view's end plus one day (exclusive), YYYY-MM-DD. */
export type EventRange = QueryOf<'/api/events/', 'get'>;
/** What the event modal writes: every field, as POST /events takes them. */
type CreateEventBody = BodyOf<'/api/events/', 'post'>;
/** What the event form sends: every field, and a rule only when the event repeats. */
export type EventBody = Required<Omit<CreateEventBody, 'rrule'>> & Pick<CreateEventBody, 'rrule'>;
/** Which occurrences of a series an edit is for; the server's default is 'this' for an occurrence's id. */
export type SeriesScope = NonNullable<QueryOf<'/api/events/{id}', 'patch'>['scope']>;
/** An edit from the event form: its fields, the rule when it changes, and for an occurrence the scope chosen. */
export type EventChange = { id: string; scope?: SeriesScope } & BodyOf<'/api/events/{id}', 'patch'>;
/** A drag or resize on the grid: the new times only (for an occurrence, with the occurrences chosen). */
export type EventTiming = { id: string; scope?: SeriesScope } & Required<
  Pick<BodyOf<'/api/events/{id}', 'patch'>, 'start' | 'end' | 'allDay'>
>;
export type ImportSummary = ResponseOf<'/api/events/import', 'post'>;

/** Every change to events moves the figures, and the event counts the calendars list shows. */
const EVENT_CHANGES = ['Event', 'Wallet', 'Analytics', { type: 'Calendar', id: 'LIST' }] as const;

export const eventsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getEvents: build.query<CalendarEvent[], EventRange>({
      query: ({ from, to }) => ({ url: '/events', params: { from, to } }),
      // The spec reads a non-array answer as no events.
      transformResponse: (response: CalendarEvent[] | null) => (Array.isArray(response) ? response : []),
      providesTags: [{ type: 'Event', id: 'LIST' }],
    }),
    createEvent: build.mutation<CalendarEvent, EventBody>({
      query: (body) => ({ url: '/events', method: 'POST', body }),
      invalidatesTags: [...EVENT_CHANGES],
    }),
    updateEvent: build.mutation<CalendarEvent, EventChange>({
      query: ({ id, scope, ...body }) => ({
        url: `/events/${id}`,
        method: 'PATCH',
        body,
        ...(scope ? { params: { scope } } : {}),
      }),
      invalidatesTags: [...EVENT_CHANGES],
    }),
    moveEvent: build.mutation<CalendarEvent, EventTiming>({
      query: ({ id, scope, ...body }) => ({
        url: `/events/${id}`,
        method: 'PATCH',
        body,
        ...(scope ? { params: { scope } } : {}),
      }),
      invalidatesTags: [...EVENT_CHANGES],
    }),
    /** An event; for an occurrence, the occurrences `scope` names (one request). Undo restores by the same id. */
    deleteEvent: build.mutation<void, { id: string; scope?: SeriesScope }>({
      query: ({ id, scope }) => ({
        url: `/events/${id}`,
        method: 'DELETE',
        ...(scope ? { params: { scope } } : {}),
      }),
      invalidatesTags: [...EVENT_CHANGES],
    }),
    /** Undoes a delete: the event comes back whole, with its id (and an imported event's UID). */
    restoreEvent: build.mutation<CalendarEvent, string>({
      query: (id) => ({ url: `/events/${id}/restore`, method: 'POST' }),
      invalidatesTags: [...EVENT_CHANGES],
    }),
    /** A subscribed (read-only) event copied into the own calendar, where it can be edited; an occurrence alone. */
    copyEvent: build.mutation<CalendarEvent, string>({
      query: (id) => ({ url: `/events/${id}/copy`, method: 'POST' }),
      invalidatesTags: [...EVENT_CHANGES],
    }),
    importEvents: build.mutation<ImportSummary, FormData>({
      query: (body) => ({ url: '/events/import', method: 'POST', body }),
      invalidatesTags: [...EVENT_CHANGES],
    }),
    // A mutation, not a query: every export is a fresh download and nothing of it belongs in the cache.
    exportEvents: build.mutation<string, void>({
      query: () => ({ url: '/events/export.ics', responseHandler: 'text' }),
    }),
  }),
});

export const {
  useGetEventsQuery,
  useCreateEventMutation,
  useUpdateEventMutation,
  useMoveEventMutation,
  useDeleteEventMutation,
  useRestoreEventMutation,
  useCopyEventMutation,
  useImportEventsMutation,
  useExportEventsMutation,
} = eventsApi;
