import {
  DEFAULT_CATEGORY_COLOR,
  type BodyOf,
  type Category,
  type FieldErrors,
  type QueryOf,
  type Task,
} from '@time-wallet/api';
import {
  addDays,
  describeRule,
  endsNextDay,
  formatHHMM24,
  ruleForNewStart,
  ruleProblems,
  TITLE_REQUIRED_MESSAGE,
} from '@time-wallet/shared-ui/lib';

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
  /** The Repeat field's RRULE value, '' for a task that does not repeat (see shared-ui's lib/repeat). */
  rrule: string;
}

export type NewTaskBody = BodyOf<'/api/tasks/', 'post'>;
export type TaskEditBody = BodyOf<'/api/tasks/{id}', 'patch'>;
/** Which occurrences of a series an edit applies to: this one, this and the later ones, or all of them. */
export type EditScope = NonNullable<QueryOf<'/api/tasks/{id}', 'patch'>['scope']>;

/** The fields a task form shows, named as the API names them, so the server's field errors land on them. */
export const TASK_FIELDS = [
  'title',
  'categoryId',
  'startHHMM',
  'endHHMM',
  'estimateMinutes',
  'notes',
  'rrule',
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

const isUnscheduledDraft = (draft: Pick<TaskDraft, 'startHHMM' | 'endHHMM'>) =>
  !draft.startHHMM && !draft.endHHMM;

/** Where a series written with this draft starts, as its rule is read: the day at the start time, or the whole day. */
export interface RepeatStart {
  start: Date;
  /** An unscheduled task repeats dates (its UNTIL is a DATE), as an all-day event does. */
  allDay: boolean;
}

export function repeatStartOf(day: string, draft: Pick<TaskDraft, 'startHHMM' | 'endHHMM'>): RepeatStart {
  const allDay = isUnscheduledDraft(draft);
  const clock = !allDay && /^\d{2}:\d{2}$/.test(draft.startHHMM) ? draft.startHHMM : '00:00';
  return { start: new Date(`${day}T${clock}`), allDay };
}

/**
 * The draft's rule once the series' start moves to `next` (shared-ui's ruleForNewStart). A rule reads only the
 * start's date (its weekday, its day of the month) and whether it is all-day (the form of its UNTIL): on the same day
 * a rule without UNTIL is kept as written, so an occurrence given other times is not taken for a change of its rule.
 */
export function ruleForStart(rule: string, previous: RepeatStart, next: RepeatStart): string {
  const sameDate = previous.start.toDateString() === next.start.toDateString();
  const untilMayChange = previous.allDay !== next.allDay && /UNTIL=/i.test(rule);
  if (rule === '' || (sameDate && !untilMayChange)) return rule;
  return ruleForNewStart(rule, previous.start, next.start, next.allDay);
}

/**
 * What is wrong with the draft of a task of `day` before anything is sent: a blank title, one time without the
 * other, no time between them, an estimate that is not 1 to 1440 minutes, neither times nor an estimate, or a repeat
 * rule the Repeat field shows a problem with.
 */
export function taskDraftErrors(draft: TaskDraft, day: string): FieldErrors<TaskField> {
  const errors: FieldErrors<TaskField> = {};
  const estimate = estimateOf(draft);
  const [ruleProblem] = ruleProblems(draft.rrule, repeatStartOf(day, draft).start);
  if (ruleProblem) errors.rrule = ruleProblem.message;
  if (!draft.title.trim()) errors.title = TITLE_REQUIRED_MESSAGE;
  if (Number.isNaN(estimate)) errors.estimateMinutes = ESTIMATE_MESSAGE;
  if (!draft.startHHMM && !draft.endHHMM) {
    if (estimate === null) errors.estimateMinutes = TIMES_OR_ESTIMATE_MESSAGE;
  } else if (!draft.startHHMM || !draft.endHHMM) errors.endHHMM = TIMES_REQUIRED_MESSAGE;
  else if (draft.startHHMM === draft.endHHMM) errors.endHHMM = END_BEFORE_START_MESSAGE;
  return errors;
}

/**
 * POST /tasks for a checked draft: with times, a block of the day; without, an unscheduled task with its estimate.
 * With a rule it is a series, which starts on that day.
 */
export function newTaskBody(draft: TaskDraft, date: string): NewTaskBody {
  const { startHHMM, endHHMM, estimateMinutes: _typed, rrule, ...described } = draft;
  const estimate = estimateOf(draft);
  return {
    ...described,
    ...(isUnscheduledDraft(draft) ? {} : { startHHMM, endHHMM }),
    ...(estimate === null ? {} : { estimateMinutes: estimate }),
    ...(rrule === '' ? {} : { rrule }),
    date,
    isEvent: false,
    isReminder: false,
    carryover: false,
  };
}

/** Whether the draft's rule is not the one the task was read with: only a series edit (all, following) can send it. */
export const ruleChanged = (task: Task, draft: Pick<TaskDraft, 'rrule'>): boolean =>
  draft.rrule !== task.rrule;

/**
 * PATCH /tasks/{id} for a checked draft: SPEC's whole edited task with start and end built from its day when it has
 * times; cleared times (null) unschedule it. The estimate and the rule are sent only when they changed.
 */
export function taskEditBody(task: Task, draft: TaskDraft): TaskEditBody {
  const { startHHMM, endHHMM, estimateMinutes: _typed, rrule, ...described } = draft;
  const estimate = estimateOf(draft);
  const changes = {
    ...(estimate === task.estimateMinutes ? {} : { estimateMinutes: estimate }),
    ...(ruleChanged(task, draft) ? { rrule } : {}),
  };
  if (isUnscheduledDraft(draft)) return { ...described, startHHMM: null, endHHMM: null, ...changes };
  return {
    ...described,
    startHHMM,
    endHHMM,
    date: task.date,
    ...instantsOf(task.date, draft),
    ...changes,
  };
}

/** Whether two drafts hold the same text in every field. */
export const draftsEqual = (a: TaskDraft, b: TaskDraft): boolean =>
  (Object.keys(a) as (keyof TaskDraft)[]).every((field) => a[field] === b[field]);

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
    rrule: task.rrule,
  };
}

/** Whether the task is an occurrence of a series: editing or deleting it asks which occurrences are meant. */
export const repeats = (task: Task): boolean => task.seriesId !== '';

/**
 * The task's repeat rule in words ('Daily', 'Weekly on Monday and Wednesday, 6 times'), read against the occurrence's
 * original start, which has the series' weekday and day of the month even when this occurrence was moved.
 */
export const repeatWords = (task: Task): string =>
  describeRule(task.rrule, new Date(task.recurrenceId || task.start));

/** The ISO instant of a local day at a local clock time. */
export function instantAt(dateKey: string, hhmm: string): string {
  return new Date(`${dateKey}T${hhmm}`).toISOString();
}

/** A draft's start and end instants on its day, the end on the next day when it is earlier than the start. */
export function instantsOf(dateKey: string, draft: Pick<TaskDraft, 'startHHMM' | 'endHHMM'>) {
  return {
    start: instantAt(dateKey, draft.startHHMM),
    end: instantAt(
      endsNextDay(draft.startHHMM, draft.endHHMM) ? addDays(dateKey, 1) : dateKey,
      draft.endHHMM,
    ),
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
