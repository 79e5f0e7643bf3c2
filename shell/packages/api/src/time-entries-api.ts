// Through the package's own name, not relative paths: this subpath is not a shared module, so each remote that reads
// entries bundles this file, and these imports must reach the one shared slice, not a copy of it.
import {
  api,
  TASK_CHANGES,
  type BodyOf,
  type DayRange,
  type ResponseOf,
  type TimeEntry,
} from '@time-wallet/api';

/**
 * Tracked time as intervals (GET/POST/PATCH/DELETE /time-entries) and what it teaches about estimates: Today's task
 * rows and the calendar's tracked lane both read and write them, so they live here once. Kept out of the package's
 * index so that no first visit downloads them; both remotes inject the same definitions, which RTK keeps once.
 */

/** Every change to an entry moves its task's trackedMinutes, the ledger's tracked and productive figures, analytics. */
const ENTRY_CHANGES = TASK_CHANGES;

export type NewTimeEntry = BodyOf<'/api/time-entries/', 'post'>;
export type TimeEntryChange = BodyOf<'/api/time-entries/{id}', 'patch'> & { id: string };
export type EstimateInsights = ResponseOf<'/api/insights/estimates', 'get'>;
export type EstimateInsight = EstimateInsights['categories'][number];

export const timeEntriesApi = api.injectEndpoints({
  // The wallet and the calendar each bundle this file and inject the same definitions into the one slice: the second
  // injection replaces the first with its equal instead of logging a conflict.
  overrideExisting: true,
  endpoints: (build) => ({
    /** The entries overlapping the local days [from, to), by start. */
    getTimeEntries: build.query<TimeEntry[], DayRange>({
      query: ({ from, to }) => ({ url: '/time-entries', params: { from, to } }),
      transformResponse: (response: { entries?: unknown } | null) =>
        Array.isArray(response?.entries) ? (response.entries as TimeEntry[]) : [],
      providesTags: ['TimeEntry'],
    }),
    addTimeEntry: build.mutation<TimeEntry, NewTimeEntry>({
      query: (body) => ({ url: '/time-entries', method: 'POST', body }),
      invalidatesTags: [...ENTRY_CHANGES],
    }),
    /** Moves, trims or reassigns an entry. */
    updateTimeEntry: build.mutation<TimeEntry, TimeEntryChange>({
      query: ({ id, ...body }) => ({ url: `/time-entries/${id}`, method: 'PATCH', body }),
      invalidatesTags: [...ENTRY_CHANGES],
    }),
    deleteTimeEntry: build.mutation<void, string>({
      query: (id) => ({ url: `/time-entries/${id}`, method: 'DELETE' }),
      invalidatesTags: [...ENTRY_CHANGES],
    }),
    /** Undo of a delete, within the hour. */
    restoreTimeEntry: build.mutation<TimeEntry, string>({
      query: (id) => ({ url: `/time-entries/${id}/restore`, method: 'POST' }),
      invalidatesTags: [...ENTRY_CHANGES],
    }),
    /** Tracked against estimated per category over the last weeks (GET /insights/estimates). */
    getEstimateInsights: build.query<EstimateInsights, { weeks?: number } | void>({
      query: (args) => ({ url: '/insights/estimates', params: { weeks: args?.weeks ?? 8 } }),
      providesTags: ['TimeEntry'],
    }),
  }),
});

export const {
  useGetTimeEntriesQuery,
  useAddTimeEntryMutation,
  useUpdateTimeEntryMutation,
  useDeleteTimeEntryMutation,
  useRestoreTimeEntryMutation,
  useGetEstimateInsightsQuery,
} = timeEntriesApi;
