import { api } from '@time-wallet/api';

export interface CalendarEvent {
  _id: string;
  title: string;
  /** ISO UTC date-time. */
  start: string;
  end: string;
  allDay: boolean;
  /** 'ics' marks an event imported from a calendar file. */
  source: 'manual' | 'ics';
}

export interface EventRange {
  /** First local day shown, YYYY-MM-DD. */
  from: string;
  /** The view's end plus one day, YYYY-MM-DD (exclusive). */
  to: string;
}

export interface EventBody {
  title: string;
  start: string;
  end: string;
  allDay: boolean;
}

export interface EventTiming {
  id: string;
  start: string;
  end: string;
  allDay: boolean;
}

export interface ImportSummary {
  created: number;
  updated: number;
  skipped: number;
}

const EVENT_CHANGES = ['Event', 'Wallet', 'Analytics'] as const;

export const eventsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getEvents: build.query<CalendarEvent[], EventRange>({
      query: ({ from, to }) => ({ url: '/events', params: { from, to } }),
      transformResponse: (response: unknown) =>
        Array.isArray(response) ? (response as CalendarEvent[]) : [],
      providesTags: [{ type: 'Event', id: 'LIST' }],
    }),
    createEvent: build.mutation<CalendarEvent, EventBody>({
      query: (body) => ({ url: '/events', method: 'POST', body }),
      invalidatesTags: [...EVENT_CHANGES],
    }),
    updateEvent: build.mutation<CalendarEvent, EventBody & { id: string }>({
      query: ({ id, ...body }) => ({ url: `/events/${id}`, method: 'PATCH', body }),
      invalidatesTags: [...EVENT_CHANGES],
    }),
    moveEvent: build.mutation<CalendarEvent, EventTiming>({
      query: ({ id, ...body }) => ({ url: `/events/${id}`, method: 'PATCH', body }),
      invalidatesTags: [...EVENT_CHANGES],
    }),
    deleteEvent: build.mutation<void, string>({
      query: (id) => ({ url: `/events/${id}`, method: 'DELETE' }),
      invalidatesTags: [...EVENT_CHANGES],
    }),
    /** Undoes a delete: the event comes back whole, with its id (and an imported event's UID). */
    restoreEvent: build.mutation<CalendarEvent, string>({
      query: (id) => ({ url: `/events/${id}/restore`, method: 'POST' }),
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
  useImportEventsMutation,
  useExportEventsMutation,
} = eventsApi;
