import { api, TASK_CHANGES, type BodyOf } from '@time-wallet/api';
import { type EditScope, type NewTaskBody, type Task, type TaskEditBody } from '../lib/task';

/** A day's list: its scheduled tasks (SPEC's read), only the undone ones (Yesterday), or its unscheduled ones. */
export interface DayTasksQuery {
  date: string;
  pendingOnly?: boolean;
  unscheduled?: boolean;
}

/** An edit of a task, or of an occurrence of a series and, by `scope`, of the occurrences after it or all of them. */
export interface TaskEdit {
  id: string;
  edit: TaskEditBody;
  /** Only for an occurrence; without it the server edits a single task, or this occurrence only. */
  scope?: EditScope;
}

/** A day's list as GET /tasks answers it; the spec reads an answer without a list as no tasks. */
const tasksOfList = (response: unknown): Task[] => {
  const tasks = (response as { tasks?: unknown } | null)?.tasks;
  return Array.isArray(tasks) ? (tasks as Task[]) : [];
};

/**
 * Put aside: SPEC's "Pending delete sends done true", which other clients send too, with dismissed: true so the server
 * counts the task nowhere; the lists show such a task as put aside, never as ticked. Brought back (Undo): neither.
 */
type DismissBody = Pick<BodyOf<'/api/tasks/{id}', 'patch'>, 'done' | 'dismissed'>;
type PutBackBody = BodyOf<'/api/tasks/put-back', 'post'>;

export const tasksApi = api.injectEndpoints({
  endpoints: (build) => ({
    getTasksOfDay: build.query<Task[], DayTasksQuery>({
      query: ({ date, pendingOnly, unscheduled }) =>
        `/tasks?date=${date}${pendingOnly ? '&done=false' : ''}${unscheduled ? '&scheduled=false' : ''}`,
      transformResponse: tasksOfList,
      providesTags: (tasks = []) => [
        { type: 'Task', id: 'LIST' },
        ...tasks.map((task) => ({ type: 'Task' as const, id: task._id })),
      ],
    }),
    createTask: build.mutation<Task, NewTaskBody>({
      query: (task) => ({ url: '/tasks', method: 'POST', body: task }),
      invalidatesTags: [...TASK_CHANGES],
    }),
    /** Answers with the task that now stands for the one edited (an occurrence's id changes when its series moves). */
    editTask: build.mutation<Task, TaskEdit>({
      query: ({ id, edit, scope }) => ({
        url: `/tasks/${id}`,
        method: 'PATCH',
        body: edit,
        ...(scope ? { params: { scope } } : {}),
      }),
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
    /**
     * A task; for an occurrence, the occurrences `scope` names ('this' skips it, 'following' ends the series before
     * it, 'all' deletes the series), in one request. Undo restores by the same id.
     */
    deleteTask: build.mutation<void, { id: string; scope?: EditScope }>({
      query: ({ id, scope }) => ({
        url: `/tasks/${id}`,
        method: 'DELETE',
        ...(scope ? { params: { scope } } : {}),
      }),
      invalidatesTags: [...TASK_CHANGES],
    }),
    /** Undoes a delete: the task comes back whole, with its id. */
    restoreTask: build.mutation<Task, string>({
      query: (id) => ({ url: `/tasks/${id}/restore`, method: 'POST' }),
      invalidatesTags: [...TASK_CHANGES],
    }),
    /**
     * Moves yesterday's tasks to the given day at the same clock times, not done (SPEC's Put Back), in one request the
     * server applies in one transaction. An occurrence of a repeating task takes the place of its series' untouched
     * occurrence that day, so a daily task put back is on today's list once. Answers the tasks as they now read.
     */
    putBackTasks: build.mutation<Task[], { tasks: Task[]; today: string }>({
      query: ({ tasks, today }) => ({
        url: '/tasks/put-back',
        method: 'POST',
        body: { ids: tasks.map((task) => task._id), date: today } satisfies PutBackBody,
      }),
      transformResponse: tasksOfList,
      invalidatesTags: [...TASK_CHANGES],
    }),
    /**
     * The pending list's Delete puts the tasks aside ({done: true, dismissed: true}, see DismissBody): they leave the
     * pending list and count in no figure. Its Undo sends {done: false, dismissed: false}. One request per task.
     */
    setTasksDismissed: build.mutation<null, { tasks: readonly Task[]; dismissed: boolean }>({
      async queryFn({ tasks, dismissed }, _api, _extraOptions, baseQuery) {
        const body: DismissBody = { done: dismissed, dismissed };
        const results = await Promise.all(
          tasks.map((task) => baseQuery({ url: `/tasks/${task._id}`, method: 'PATCH', body })),
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
  useSetTasksDismissedMutation,
} = tasksApi;
