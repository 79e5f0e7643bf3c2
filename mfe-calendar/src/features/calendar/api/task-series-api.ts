import { api, TASK_CHANGES, type QueryOf, type Task } from '@time-wallet/api';
import { placementBody, type TaskPlacement } from '@time-wallet/api/task-placement';

/** Which occurrences of a repeating task a placement moves; the server's default is 'this' for an occurrence's id. */
export type TaskSeriesScope = NonNullable<QueryOf<'/api/tasks/{id}', 'patch'>['scope']>;

/**
 * Placing an occurrence of a repeating task with the occurrences the person chose (PATCH /tasks/{id}?scope=). The
 * calendar's own call rather than a scope on the shared placeTask: a shell deployed before this change would drop
 * the scope and silently move one occurrence when the person asked for all of them.
 */
export const taskSeriesApi = api.injectEndpoints({
  endpoints: (build) => ({
    placeTaskOccurrences: build.mutation<Task, { placement: TaskPlacement; scope: TaskSeriesScope }>({
      query: ({ placement, scope }) => ({
        url: `/tasks/${placement.id}`,
        method: 'PATCH',
        body: placementBody(placement),
        params: { scope },
      }),
      invalidatesTags: [...TASK_CHANGES],
    }),
  }),
});

export const { usePlaceTaskOccurrencesMutation } = taskSeriesApi;
