import { DEFAULT_CATEGORY_COLOR, type Category, type FieldErrors, type Task } from '@time-wallet/api';
import { addDays, formatHHMM24, hhmmToMinutes, TITLE_REQUIRED_MESSAGE } from '@time-wallet/shared-ui/lib';

export type { Task };

/** What the New Task form and the Edit Task modal let a person write. */
export interface TaskDraft {
  title: string;
  categoryId: string;
  startHHMM: string;
  endHHMM: string;
  notes: string;
}

/** The fields a task form shows, named as the API names them, so the server's field errors land on them. */
export const TASK_FIELDS = ['title', 'categoryId', 'startHHMM', 'endHHMM', 'notes'] as const;
export type TaskField = (typeof TASK_FIELDS)[number];

export const UNKNOWN_CATEGORY = 'Unknown Category';
export const NO_CATEGORY = 'No category';
export const TIMES_REQUIRED_MESSAGE = 'Start time and end time are required.';
export const END_BEFORE_START_MESSAGE = 'End time must be after start time.';

/** An end clock time earlier than the start is on the next day (23:00 -> 01:00), as the server reads it. */
export function endsNextDay(draft: Pick<TaskDraft, 'startHHMM' | 'endHHMM'>): boolean {
  return hhmmToMinutes(draft.endHHMM) < hhmmToMinutes(draft.startHHMM);
}

/** What is wrong with the draft before anything is sent: a blank title, a missing time, no time between them. */
export function taskDraftErrors(draft: TaskDraft): FieldErrors<TaskField> {
  const errors: FieldErrors<TaskField> = {};
  if (!draft.title.trim()) errors.title = TITLE_REQUIRED_MESSAGE;
  if (!draft.startHHMM || !draft.endHHMM) errors.endHHMM = TIMES_REQUIRED_MESSAGE;
  else if (draft.startHHMM === draft.endHHMM) errors.endHHMM = END_BEFORE_START_MESSAGE;
  return errors;
}

/** The ISO instant of a local day at a local clock time. */
export function instantAt(dateKey: string, hhmm: string): string {
  return new Date(`${dateKey}T${hhmm}`).toISOString();
}

/** A draft's start and end instants on its day, the end on the next day when it is earlier than the start. */
export function instantsOf(dateKey: string, draft: Pick<TaskDraft, 'startHHMM' | 'endHHMM'>) {
  return {
    start: instantAt(dateKey, draft.startHHMM),
    end: instantAt(endsNextDay(draft) ? addDays(dateKey, 1) : dateKey, draft.endHHMM),
  };
}

/** The task's clock times in the browser's time zone, 24-hour. */
export const clockTimesOf = (task: Task) => ({
  start: formatHHMM24(task.start),
  end: formatHHMM24(task.end),
});

export function categoryOf(
  task: Task,
  categories: readonly Category[],
): { name: string; color: string } | null {
  const category = categories.find((candidate) => candidate._id === task.categoryId);
  return category ? { name: category.name, color: category.color || DEFAULT_CATEGORY_COLOR } : null;
}
