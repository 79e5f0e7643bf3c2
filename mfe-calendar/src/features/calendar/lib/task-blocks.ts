import {
  DEFAULT_CATEGORY_COLOR,
  type Category,
  type DayRange,
  type Task,
  type TaskPlacement,
} from '@time-wallet/api';
import { addDays, formatHHMM24, hhmmToMinutes, toLocalDateKey } from '@time-wallet/shared-ui/lib';
import type { CalendarEvent } from '../api/events-api';
import type { TimeBlock } from './day-plan';

const MINUTE_MS = 60_000;
/** The minutes of a day as the grid's hours read them. */
export const DAY_MINUTES = 1440;
const TASK_BLOCK_PREFIX = 'task:';

/** A task's id on the grid, where events keep their own ids. */
export const taskBlockId = (taskId: string) => `${TASK_BLOCK_PREFIX}${taskId}`;

/** A task the grid shows: scheduled and not dismissed (done ones too, muted). */
export const isOnGrid = (task: Task) => task.scheduled && !task.dismissed;

/** The local days a view shows: a range reads one day past its last (SPEC), so the last day of `to - 1` is left out. */
export function visibleDaysOf({ from, to }: DayRange): string[] {
  const days: string[] = [];
  for (let day = from; day < addDays(to, -1); day = addDays(day, 1)) days.push(day);
  return days;
}

/** The visible days' unscheduled tasks still to plan (not done, not dismissed), per day in the days' order. */
export function unscheduledByDay(
  tasks: readonly Task[],
  days: readonly string[],
): { date: string; tasks: Task[] }[] {
  return days
    .map((date) => ({
      date,
      tasks: tasks.filter((task) => !task.scheduled && !task.done && !task.dismissed && task.date === date),
    }))
    .filter((day) => day.tasks.length > 0);
}

/** A category's colour by its id; the product's default colour for an unknown one or none. */
export function categoryColorsOf(categories: readonly Category[]): ReadonlyMap<string, string> {
  return new Map(categories.map((category) => [category._id, category.color || DEFAULT_CATEGORY_COLOR]));
}

/** The timeline the day headers preview against: timed events and the scheduled tasks on the grid. */
export function timeBlocksOf(events: readonly CalendarEvent[], tasks: readonly Task[]): TimeBlock[] {
  const blocks: TimeBlock[] = [];
  for (const event of events) {
    if (!event.allDay)
      blocks.push({ id: event._id, start: Date.parse(event.start), end: Date.parse(event.end) });
  }
  for (const task of tasks) {
    if (isOnGrid(task))
      blocks.push({ id: taskBlockId(task._id), start: Date.parse(task.start), end: Date.parse(task.end) });
  }
  return blocks;
}

/** A task's length on the grid in minutes (its estimate while unscheduled). */
export function taskMinutes(task: Task): number | null {
  if (!task.scheduled) return task.estimateMinutes;
  return Math.round((Date.parse(task.end) - Date.parse(task.start)) / MINUTE_MS);
}

/** The clock time a length of minutes after an 'HH:MM' start ends at, past midnight on the next day; '' unreadable. */
export function endHHMMAfter(startHHMM: string, minutes: number): string {
  const start = hhmmToMinutes(startHHMM);
  if (Number.isNaN(start)) return '';
  const endOfDay = (((start + minutes) % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
  return `${String(Math.floor(endOfDay / 60)).padStart(2, '0')}:${String(endOfDay % 60).padStart(2, '0')}`;
}

/**
 * The keyboard's placement of a task at a day and a start time. An unscheduled task lasts its estimate (the server
 * makes the block); a scheduled one keeps its length, ending the next day past midnight.
 */
export function placementAt(task: Task, date: string, startHHMM: string): TaskPlacement {
  const minutes = taskMinutes(task);
  if (!task.scheduled || minutes === null || minutes <= 0 || minutes >= DAY_MINUTES) {
    return { id: task._id, date, startHHMM };
  }
  return { id: task._id, date, startHHMM, endHHMM: endHHMMAfter(startHHMM, minutes) };
}

/** Where the keyboard dialog starts: a scheduled task's own local day and start, else the given day at 09:00. */
export function initialPlacementOf(
  task: Task,
  defaultDay: string,
): { date: string; startHHMM: string; endHHMM: string } {
  // No end typed yet: the dialog shows the end of the kept length until one is.
  if (!task.scheduled) return { date: defaultDay, startHHMM: '09:00', endHHMM: '' };
  return { date: toLocalDateKey(new Date(task.start)), startHHMM: formatHHMM24(task.start), endHHMM: '' };
}
