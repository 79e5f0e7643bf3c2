import type { Category } from '@time-wallet/api';
import { DEFAULT_CATEGORY_COLOR, formatHHMM24, isEndAfterStart } from '@time-wallet/shared-ui/lib';

export interface Task {
  _id: string;
  title: string;
  /** The category's _id, or '' when uncategorised. */
  categoryId: string;
  startHHMM: string;
  endHHMM: string;
  notes: string;
  /** The local day (YYYY-MM-DD) the task belongs to. */
  date: string;
  start: string;
  end: string;
  done: boolean;
  isEvent: boolean;
  isReminder: boolean;
  carryover: boolean;
}

/** What the New Task form and the Edit Task modal let a person write. */
export interface TaskDraft {
  title: string;
  categoryId: string;
  startHHMM: string;
  endHHMM: string;
  notes: string;
}

export const UNKNOWN_CATEGORY = 'Unknown Category';
export const TIMES_REQUIRED_MESSAGE = 'Start time and end time are required.';
export const END_BEFORE_START_MESSAGE = 'End time must be after start time.';

/** Why the draft's times cannot be sent, or null: checked before any request. */
export function taskTimesError(draft: Pick<TaskDraft, 'startHHMM' | 'endHHMM'>): string | null {
  if (!draft.startHHMM || !draft.endHHMM) return TIMES_REQUIRED_MESSAGE;
  return isEndAfterStart(draft.startHHMM, draft.endHHMM) ? null : END_BEFORE_START_MESSAGE;
}

/** The ISO instant of a local day at a local clock time. */
export function instantAt(dateKey: string, hhmm: string): string {
  return new Date(`${dateKey}T${hhmm}`).toISOString();
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
