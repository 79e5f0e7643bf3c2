import { api, type BodyOf } from '@time-wallet/api';
import { instantAt, clockTimesOf, type Task, type TaskDraft } from '../lib/task';

/** Every task change moves the wallet's hours and the analytics too. */
const TASK_CHANGES = ['Task', 'Wallet', 'Analytics'] as const;

export type NewTask = TaskDraft & { date: string; isEvent: false; isReminder: false; carryover: false };

export type TaskEdit = TaskDraft & { date: string; start: string; end: string };

const DISMISS: BodyOf<'/api/tasks/{id}', 'patch'> = { done: true, dismissed: true };

export const tasksApi = api.injectEndpoints({
  endpoints: (build) => ({
    getTasksOfDay: build.query<Task[], { date: string; pendingOnly?: boolean }>({
      query: ({ date, pendingOnly }) => `/tasks?date=${date}${pendingOnly ? '&done=false' : ''}`,
      transformResponse: (response: { tasks?: unknown }) =>
        Array.isArray(response?.tasks) ? (response.tasks as Task[]) : [],
      providesTags: (tasks = []) => [
        { type: 'Task', id: 'LIST' },
        ...tasks.map((task) => ({ type: 'Task' as const, id: task._id })),
      ],
    }),
    createTask: build.mutation<Task, NewTask>({
      query: (task) => ({ url: '/tasks', method: 'POST', body: task }),
      invalidatesTags: [...TASK_CHANGES],
    }),
    editTask: build.mutation<Task, { id: string; edit: TaskEdit }>({
      query: ({ id, edit }) => ({ url: `/tasks/${id}`, method: 'PATCH', body: edit }),
      invalidatesTags: [...TASK_CHANGES],
    }),
    setTaskDone: build.mutation<Task, { task: Task; done: boolean }>({
      query: ({ task, done }) => ({ url: `/tasks/${task._id}`, method: 'PATCH', body: { done } }),
      // The checkbox answers at once; a failure puts it back.
      async onQueryStarted({ task, done }, { dispatch, queryFulfilled }) {
        const patch = dispatch(
          tasksApi.util.updateQueryData('getTasksOfDay', { date: task.date }, (tasks) => {
            const shown = tasks.find((candidate) => candidate._id === task._id);
            if (shown) shown.done = done;
          }),
        );
        queryFulfilled.catch(patch.undo);
      },
      invalidatesTags: [...TASK_CHANGES],
    }),
    deleteTask: build.mutation<void, string>({
      query: (id) => ({ url: `/tasks/${id}`, method: 'DELETE' }),
      invalidatesTags: [...TASK_CHANGES],
    }),
    /** Undoes a delete: the task comes back whole, with its id. */
    restoreTask: build.mutation<Task, string>({
      query: (id) => ({ url: `/tasks/${id}/restore`, method: 'POST' }),
      invalidatesTags: [...TASK_CHANGES],
    }),
    /** Moves yesterday's tasks to the given day at the same clock times, not done. */
    putBackTasks: build.mutation<null, { tasks: Task[]; today: string }>({
      async queryFn({ tasks, today }, _api, _extraOptions, baseQuery) {
        const results = await Promise.all(
          tasks.map((task) => {
            const clock = clockTimesOf(task);
            return baseQuery({
              url: `/tasks/${task._id}`,
              method: 'PATCH',
              body: { start: instantAt(today, clock.start), end: instantAt(today, clock.end), done: false },
            });
          }),
        );
        const failed = results.find((result) => result.error);
        return failed?.error ? { error: failed.error } : { data: null };
      },
      invalidatesTags: [...TASK_CHANGES],
    }),
    /**
     * The pending list's Delete: SPEC's done: true, which other clients send too, and dismissed: true, so the server
     * counts the tasks nowhere (a dismissed task is neither productive time nor spent).
     */
    dismissPendingTasks: build.mutation<null, Task[]>({
      async queryFn(tasks, _api, _extraOptions, baseQuery) {
        const results = await Promise.all(
          tasks.map((task) => baseQuery({ url: `/tasks/${task._id}`, method: 'PATCH', body: DISMISS })),
        );
        const failed = results.find((result) => result.error);
        return failed?.error ? { error: failed.error } : { data: null };
      },
      invalidatesTags: [...TASK_CHANGES],
    }),
  }),
});

export const {
  useGetTasksOfDayQuery,
  useCreateTaskMutation,
  useEditTaskMutation,
  useSetTaskDoneMutation,
  useDeleteTaskMutation,
  useRestoreTaskMutation,
  usePutBackTasksMutation,
  useDismissPendingTasksMutation,
} = tasksApi;
