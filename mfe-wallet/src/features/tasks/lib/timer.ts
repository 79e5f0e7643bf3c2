import type { TimeEntry } from '@time-wallet/api';
import { formatStopwatch } from '../../../lib/duration';
import type { Task } from './task';

/**
 * When the server stops a timer left running (12 hours): the client only uses it to know when to ask the server
 * again (every request settles such a timer), never to cut a figure itself.
 */
export const TIMER_LIMIT_MS = 12 * 3_600_000;

export const isTimerRunning = (task: Pick<Task, 'timerStartedAt'>): boolean => task.timerStartedAt !== null;

/** The length of an entry that has ended, in seconds (instants are kept to the second). */
const secondsOf = (entry: TimeEntry & { end: string }) =>
  (Date.parse(entry.end) - Date.parse(entry.start)) / 1000;

/**
 * What the task has tracked at `now`, to the second: the sum of the ended entries of it among `entries` (the day's,
 * GET /time-entries), plus the time its running timer has run so far. Until the entries are known (undefined), its
 * trackedMinutes (the server's sum of its ended entries, in whole minutes) stands in.
 */
export function trackedSecondsAt(
  task: Pick<Task, '_id' | 'trackedMinutes' | 'timerStartedAt'>,
  entries: readonly TimeEntry[] | undefined,
  now: number,
): number {
  const recorded =
    entries === undefined
      ? task.trackedMinutes * 60
      : entries
          .filter(
            (entry): entry is TimeEntry & { end: string } => entry.taskId === task._id && entry.end !== null,
          )
          .reduce((sum, entry) => sum + secondsOf(entry), 0);
  if (task.timerStartedAt === null) return recorded;
  // The device's clock may run behind the server's: a timer never counts backwards.
  return recorded + Math.max(0, (now - Date.parse(task.timerStartedAt)) / 1000);
}

/** The page title while a task's timer runs: the clock first, so a narrow browser tab still shows it. */
export function runningTimerTitle(
  task: Task,
  entries: readonly TimeEntry[] | undefined,
  now: number,
  pageTitle: string,
): string {
  return `▶ ${formatStopwatch(trackedSecondsAt(task, entries, now))} ${task.title} – ${pageTitle}`;
}
