import type { WeeklyAnalytics } from '../schemas/analytics.js';
import {
  HOUR_MS,
  minutesOf,
  overlapMs,
  roundToTenth,
  totalOverlapMs,
  type TimeSpan,
} from './time-accounting.js';
import { addDays, localDateAt, localDaysBetween, startOfLocalDay, weekStartOf } from './time-zone.js';

export interface AnalyticsTask extends TimeSpan {
  categoryId: string | null;
  date: string;
  done: boolean;
}

export interface AnalyticsCategory {
  id: string;
  name: string;
  color: string;
}

export interface WeeklyAnalyticsInput {
  timeZone: string;
  /** Any day of the week to report, YYYY-MM-DD. */
  date: string;
  now: number;
  tasks: AnalyticsTask[];
  events: TimeSpan[];
  categories: AnalyticsCategory[];
}

export function weekRange(timeZone: string, date: string) {
  const weekStart = weekStartOf(date);
  return {
    weekStart,
    weekEnd: addDays(weekStart, 6),
    from: startOfLocalDay(timeZone, weekStart),
    to: startOfLocalDay(timeZone, addDays(weekStart, 7)),
  };
}

/** The figures ARCHITECTURE.md defines ("Definitions the server computes"), for the Sunday..Saturday week of `date`. */
export function computeWeeklyAnalytics(input: WeeklyAnalyticsInput): WeeklyAnalytics {
  const { timeZone, now, tasks, events, categories } = input;
  const { weekStart, weekEnd, from, to } = weekRange(timeZone, input.date);
  const today = localDateAt(timeZone, now);
  const endedEvents = events.filter((event) => event.endAt <= now);
  const doneTasks = tasks.filter((task) => task.done);

  const daily = Array.from({ length: 7 }, (_, index) => {
    const date = addDays(weekStart, index);
    const dayStart = startOfLocalDay(timeZone, date);
    const dayEnd = startOfLocalDay(timeZone, addDays(date, 1));
    return {
      date,
      minutes: minutesOf(totalOverlapMs(tasks, dayStart, dayEnd) + totalOverlapMs(events, dayStart, dayEnd)),
      productiveMinutes: minutesOf(
        totalOverlapMs(doneTasks, dayStart, dayEnd) + totalOverlapMs(endedEvents, dayStart, dayEnd),
      ),
    };
  });

  const categoryById = new Map(categories.map((category) => [category.id, category]));
  const msByCategory = new Map<string, number>();
  for (const task of tasks) {
    if (task.categoryId === null || !categoryById.has(task.categoryId)) continue;
    msByCategory.set(task.categoryId, (msByCategory.get(task.categoryId) ?? 0) + overlapMs(task, from, to));
  }
  const categorisedMs = [...msByCategory.values()].reduce((sum, ms) => sum + ms, 0);
  const byCategory = [...msByCategory.entries()]
    .filter(([, ms]) => ms > 0)
    .map(([categoryId, ms]) => {
      const category = categoryById.get(categoryId)!;
      return {
        categoryId,
        name: category.name,
        color: category.color,
        minutes: minutesOf(ms),
        percent: Math.round((ms / categorisedMs) * 100),
        ms,
      };
    })
    .sort((a, b) => b.ms - a.ms || a.name.localeCompare(b.name))
    .map(({ ms: _ms, ...share }) => share);

  const elapsedDays = today < weekStart ? 0 : today > weekEnd ? 7 : localDaysBetween(weekStart, today) + 1;
  const productiveMs = totalOverlapMs(doneTasks, from, to) + totalOverlapMs(endedEvents, from, to);
  const averageProductiveHours = elapsedDays === 0 ? 0 : roundToTenth(productiveMs / HOUR_MS / elapsedDays);

  const daysWithDoneTask = new Set(doneTasks.map((task) => task.date));
  let streak = 0;
  let run = 0;
  for (const { date } of daily) {
    if (date > today) break;
    run = daysWithDoneTask.has(date) ? run + 1 : 0;
    streak = Math.max(streak, run);
  }

  return {
    weekStart,
    weekEnd,
    totalMinutes: minutesOf(totalOverlapMs(tasks, from, to) + totalOverlapMs(events, from, to)),
    byCategory,
    averageProductiveHours,
    streak,
    daily,
  };
}
