import { api } from './api-slice';
import type { LedgerDay, Task } from './contract';
import { placementBody, type TaskPlacement } from './task-placement';

/**
 * The time ledger and the task calls that Today and the calendar both make (placing a task on the timeline, its
 * timer): the wallet and calendar remotes never import each other, so these live here once.
 */

/** Local days from (inclusive) to (exclusive), YYYY-MM-DD: the range reads of tasks, events and the ledger. */
export interface DayRange {
  from: string;
  to: string;
}

/**
 * Every change to a task moves the ledger (wallet, day headers) and the analytics too, and may move its time entries
 * (a timer's start or stop, a correction of its tracked minutes, a delete or put aside that stops its timer).
 */
export const TASK_CHANGES = ['Task', 'Wallet', 'Analytics', 'TimeEntry'] as const;

export type { TaskPlacement };

const tasksOf = (response: { tasks?: unknown } | null) =>
  Array.isArray(response?.tasks) ? (response.tasks as Task[]) : [];

export const ledgerApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The ledger's figures per day (GET /ledger): the calendar's day headers, Today's and the wallet's figures. */
    getLedger: build.query<LedgerDay[], DayRange>({
      query: ({ from, to }) => ({ url: '/ledger', params: { from, to } }),
      transformResponse: (response: { days?: unknown } | null) =>
        Array.isArray(response?.days) ? (response.days as LedgerDay[]) : [],
      providesTags: ['Wallet'],
    }),
    /** Scheduled tasks overlapping the days and unscheduled ones dated in them (GET /tasks/range). */
    getTasksInRange: build.query<Task[], DayRange>({
      query: ({ from, to }) => ({ url: '/tasks/range', params: { from, to } }),
      transformResponse: tasksOf,
      providesTags: (tasks = []) => [
        { type: 'Task', id: 'LIST' },
        ...tasks.map((task) => ({ type: 'Task' as const, id: task._id })),
      ],
    }),
    placeTask: build.mutation<Task, TaskPlacement>({
      query: (placement) => ({
        url: `/tasks/${placement.id}`,
        method: 'PATCH',
        body: placementBody(placement),
      }),
      invalidatesTags: [...TASK_CHANGES],
    }),
    startTimer: build.mutation<Task, string>({
      query: (id) => ({ url: `/tasks/${id}/timer/start`, method: 'POST' }),
      invalidatesTags: [...TASK_CHANGES],
    }),
    stopTimer: build.mutation<Task, string>({
      query: (id) => ({ url: `/tasks/${id}/timer/stop`, method: 'POST' }),
      invalidatesTags: [...TASK_CHANGES],
    }),
    /** Corrects a task's tracked minutes by hand (0 to 1440); a running timer on it stops first. */
    setTrackedMinutes: build.mutation<Task, { id: string; trackedMinutes: number }>({
      query: ({ id, trackedMinutes }) => ({ url: `/tasks/${id}`, method: 'PATCH', body: { trackedMinutes } }),
      invalidatesTags: [...TASK_CHANGES],
    }),
  }),
});

export const {
  useGetLedgerQuery,
  useGetTasksInRangeQuery,
  usePlaceTaskMutation,
  useStartTimerMutation,
  useStopTimerMutation,
  useSetTrackedMinutesMutation,
} = ledgerApi;
