import { api, TASK_CHANGES, type BodyOf } from '@time-wallet/api';
import { instantAt, clockTimesOf, type NewTaskBody, type Task, type TaskEditBody } from '../lib/task';

/** A day's list: its scheduled tasks (SPEC's read), only the undone ones (Yesterday), or its unscheduled ones. */
export interface DayTasksQuery {
  date: string;
  pendingOnly?: boolean;
  unscheduled?: boolean;
}

const DISMISS: BodyOf<'/api/tasks/{id}', 'patch'> = { done: true, dismissed: true };

export const tasksApi = api.injectEndpoints({
  endpoints: (build) => ({
    getTasksOfDay: build.query<Task[], DayTasksQuery>({
      query: ({ date, pendingOnly, unscheduled }) =>
        `/tasks?date=${date}${pendingOnly ? '&done=false' : ''}${unscheduled ? '&scheduled=false' : ''}`,
      transformResponse: (response: { tasks?: unknown }) =>
        Array.isArray(response?.tasks) ? (response.tasks as Task[]) : [],
      providesTags: (tasks = []) => [
        { type: 'Task', id: 'LIST' },
        ...tasks.map((task) => ({ type: 'Task' as const, id: task._id })),
      ],
    }),
    createTask: build.mutation<Task, NewTaskBody>({
      query: (task) => ({ url: '/tasks', method: 'POST', body: task }),
      invalidatesTags: [...TASK_CHANGES],
    }),
    editTask: build.mutation<Task, { id: string; edit: TaskEditBody }>({
      query: ({ id, edit }) => ({ url: `/tasks/${id}`, method: 'PATCH', body: edit }),
      invalidatesTags: [...TASK_CHANGES],
    }),
    setTaskDone: build.mutation<Task, { task: Task; done: boolean }>({
      query: ({ task, done }) => ({ url: `/tasks/${task._id}`, method: 'PATCH', body: { done } }),
      // The checkbox answers at once in every list that shows the task (a block crossing midnight is on two days);
      // a failure puts it back.
      async onQueryStarted({ task, done }, { dispatch, getState, queryFulfilled }) {
        const patches = tasksApi.util
          .selectInvalidatedBy(getState(), [{ type: 'Task', id: task._id }])
          .filter((entry) => entry.endpointName === 'getTasksOfDay')
          .map((entry) =>
            dispatch(
              tasksApi.util.updateQueryData('getTasksOfDay', entry.originalArgs as DayTasksQuery, (tasks) => {
                const shown = tasks.find((candidate) => candidate._id === task._id);
                if (shown) shown.done = done;
              }),
            ),
          );
        queryFulfilled.catch(() => patches.forEach((patch) => patch.undo()));
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
