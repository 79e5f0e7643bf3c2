import type { BodyOf } from './contract';

/**
 * Where a task goes on the timeline: instants (a drop or resize on the grid; an unscheduled task given only a start
 * lasts its estimate), a day and clock times (the keyboard's Schedule), or back to the unscheduled list.
 */
export type TaskPlacement =
  | { id: string; start: string; end?: string }
  | { id: string; date: string; startHHMM: string; endHHMM?: string }
  | { id: string; unschedule: true; date?: string };

/**
 * The PATCH /tasks/{id} body that places a task. Bundled into each app (not a shared module): a remote that places
 * the occurrences of a series with its own request builds the same body without needing the running shell to
 * export this.
 */
export function placementBody(placement: TaskPlacement): BodyOf<'/api/tasks/{id}', 'patch'> {
  if ('unschedule' in placement) {
    return { startHHMM: null, endHHMM: null, ...(placement.date ? { date: placement.date } : {}) };
  }
  if ('start' in placement)
    return { start: placement.start, ...(placement.end ? { end: placement.end } : {}) };
  return {
    date: placement.date,
    startHHMM: placement.startHHMM,
    ...(placement.endHHMM ? { endHHMM: placement.endHHMM } : {}),
  };
}
