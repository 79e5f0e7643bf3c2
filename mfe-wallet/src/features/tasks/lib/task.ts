import {
  DEFAULT_CATEGORY_COLOR,
  type BodyOf,
  type Category,
  type FieldErrors,
  type Task,
} from '@time-wallet/api';
import { addDays, formatHHMM24, hhmmToMinutes, TITLE_REQUIRED_MESSAGE } from '@time-wallet/shared-ui/lib';

export type { Task };

/** What the New Task form and the Edit Task modal let a person write. */
export interface TaskDraft {
  title: string;
  categoryId: string;
  startHHMM: string;
  endHHMM: string;
  /** Whole minutes as typed; with no times, the task is unscheduled and needs one. */
  estimateMinutes: string;
  notes: string;
}

export type NewTaskBody = BodyOf<'/api/tasks/', 'post'>;
export type TaskEditBody = BodyOf<'/api/tasks/{id}', 'patch'>;

/** The fields a task form shows, named as the API names them, so the server's field errors land on them. */
export const TASK_FIELDS = [
  'title',
  'categoryId',
  'startHHMM',
  'endHHMM',
  'estimateMinutes',
  'notes',
] as const;
export type TaskField = (typeof TASK_FIELDS)[number];

export const UNKNOWN_CATEGORY = 'Unknown Category';
export const NO_CATEGORY = 'No category';
export const TIMES_REQUIRED_MESSAGE = 'Start time and end time are required.';
export const END_BEFORE_START_MESSAGE = 'End time must be after start time.';
export const TIMES_OR_ESTIMATE_MESSAGE = 'Give a start and end time, or an estimate in minutes.';
export const ESTIMATE_MESSAGE = 'Estimate must be a whole number of minutes from 1 to 1440.';
export const TRACKED_MESSAGE = 'Tracked time must be a whole number of minutes from 0 to 1440.';

/** A day has 1440 minutes: the most an estimate or a tracked time can be. */
export const MINUTES_PER_DAY = 1440;

/** Typed whole minutes from `min` to a day as a number; null when blank, NaN when not such a number. */
export function minutesTyped(text: string, min: number): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const minutes = Number(trimmed);
  return Number.isInteger(minutes) && minutes >= min && minutes <= MINUTES_PER_DAY ? minutes : Number.NaN;
}

const estimateOf = (draft: Pick<TaskDraft, 'estimateMinutes'>) => minutesTyped(draft.estimateMinutes, 1);

/** An end clock time earlier than the start is on the next day (23:00 -> 01:00), as the server reads it. */
export function endsNextDay(draft: Pick<TaskDraft, 'startHHMM' | 'endHHMM'>): boolean {
  return hhmmToMinutes(draft.endHHMM) < hhmmToMinutes(draft.startHHMM);
}

/**
 * What is wrong with the draft before anything is sent: a blank title, one time without the other, no time between
 * them, an estimate that is not 1 to 1440 minutes, or neither times nor an estimate.
 */
export function taskDraftErrors(draft: TaskDraft): FieldErrors<TaskField> {
  const errors: FieldErrors<TaskField> = {};
  const estimate = estimateOf(draft);
  if (!draft.title.trim()) errors.title = TITLE_REQUIRED_MESSAGE;
  if (Number.isNaN(estimate)) errors.estimateMinutes = ESTIMATE_MESSAGE;
  if (!draft.startHHMM && !draft.endHHMM) {
    if (estimate === null) errors.estimateMinutes = TIMES_OR_ESTIMATE_MESSAGE;
  } else if (!draft.startHHMM || !draft.endHHMM) errors.endHHMM = TIMES_REQUIRED_MESSAGE;
  else if (draft.startHHMM === draft.endHHMM) errors.endHHMM = END_BEFORE_START_MESSAGE;
  return errors;
}

const isUnscheduledDraft = (draft: TaskDraft) => !draft.startHHMM && !draft.endHHMM;

/** POST /tasks for a checked draft: with times, a block of the day; without, an unscheduled task with its estimate. */
export function newTaskBody(draft: TaskDraft, date: string): NewTaskBody {
  const { startHHMM, endHHMM, estimateMinutes: _typed, ...described } = draft;
  const estimate = estimateOf(draft);
  return {
    ...described,
    ...(isUnscheduledDraft(draft) ? {} : { startHHMM, endHHMM }),
    ...(estimate === null ? {} : { estimateMinutes: estimate }),
    date,
    isEvent: false,
    isReminder: false,
    carryover: false,
  };
}

/**
 * PATCH /tasks/{id} for a checked draft: SPEC's whole edited task with start and end built from its day when it has
 * times; cleared times (null) unschedule it. The estimate is sent only when it changed.
 */
export function taskEditBody(task: Task, draft: TaskDraft): TaskEditBody {
  const { startHHMM, endHHMM, estimateMinutes: _typed, ...described } = draft;
  const estimate = estimateOf(draft);
  const estimateChange = estimate === task.estimateMinutes ? {} : { estimateMinutes: estimate };
  if (isUnscheduledDraft(draft)) return { ...described, startHHMM: null, endHHMM: null, ...estimateChange };
  return {
    ...described,
    startHHMM,
    endHHMM,
    date: task.date,
    ...instantsOf(task.date, draft),
    ...estimateChange,
  };
}

/** What the Edit Task modal starts from: an unscheduled task has no times to show. */
export function draftOf(task: Task): TaskDraft {
  const clock = task.scheduled ? clockTimesOf(task) : { start: '', end: '' };
  return {
    title: task.title,
    categoryId: task.categoryId,
    startHHMM: clock.start,
    endHHMM: clock.end,
    estimateMinutes: task.estimateMinutes === null ? '' : String(task.estimateMinutes),
    notes: task.notes,
  };
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
