import { formatStopwatch } from '../../../lib/duration';
import type { Task } from './task';

/** The server stops a timer left running at 12 hours, and a task tracks at most a day. */
const TIMER_LIMIT_SECONDS = 12 * 3600;
const MAX_TRACKED_SECONDS = 1440 * 60;

export const isTimerRunning = (task: Pick<Task, 'timerStartedAt'>): boolean => task.timerStartedAt !== null;

/** What the task has tracked at `now`: its recorded minutes plus the time its running timer has run so far. */
export function trackedSecondsAt(task: Pick<Task, 'trackedMinutes' | 'timerStartedAt'>, now: number): number {
  const recorded = task.trackedMinutes * 60;
  if (task.timerStartedAt === null) return recorded;
  // The device's clock may run behind the server's: a timer never counts backwards.
  const running = Math.min(TIMER_LIMIT_SECONDS, Math.max(0, (now - Date.parse(task.timerStartedAt)) / 1000));
  return Math.min(MAX_TRACKED_SECONDS, recorded + running);
}

/** The page title while a task's timer runs: the clock first, so a narrow browser tab still shows it. */
export function runningTimerTitle(task: Task, now: number, pageTitle: string): string {
  return `▶ ${formatStopwatch(trackedSecondsAt(task, now))} ${task.title} – ${pageTitle}`;
}
