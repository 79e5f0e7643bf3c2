import type { FastifyInstance } from 'fastify';
import type { UserRow } from '../db/schema.js';
import {
  addDays,
  localDateAt,
  localDayBounds,
  localDaysBetween,
  startOfLocalDay,
  weekStartOf,
} from '../lib/time-zone.js';
import type { WeeklyAnalytics } from '../schemas/analytics.js';

// The time ledger: every figure of hours (the wallet's spent and remaining hours, the weekly analytics) is counted
// here, from one read of the user's blocks of time, so the wallet route and the analytics route cannot count time
// each their own way.

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

export interface TimeSpan {
  startAt: number;
  endAt: number;
}

/** The part of a span inside [from, to), in milliseconds: a day's share of a task or event is clamped to that day. */
function overlapMs(span: TimeSpan, from: number, to: number): number {
  return Math.max(0, Math.min(span.endAt, to) - Math.max(span.startAt, from));
}

function totalOverlapMs(spans: TimeSpan[], from: number, to: number): number {
  return spans.reduce((sum, span) => sum + overlapMs(span, from, to), 0);
}

function roundToTenth(value: number): number {
  return Math.round(value * 10) / 10;
}

function hoursOf(ms: number): number {
  return roundToTenth(ms / HOUR_MS);
}

function minutesOf(ms: number): number {
  return Math.round(ms / MINUTE_MS);
}

export interface LedgerTask extends TimeSpan {
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
  tasks: LedgerTask[];
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

export interface TimeBlocks {
  tasks: LedgerTask[];
  events: TimeSpan[];
}

/** The ledger's one read: the user's tasks and events overlapping [from, to). */
export async function blocksOverlapping(
  app: FastifyInstance,
  userId: string,
  from: number,
  to: number,
): Promise<TimeBlocks> {
  const [tasks, events] = await Promise.all([
    app.tasksRepository.listSpansOverlapping(userId, from, to),
    app.eventsRepository.listSpansOverlapping(userId, from, to),
  ]);
  return { tasks: tasks.map((task) => ({ ...task, done: task.done === 1 })), events };
}

export interface DayWallet {
  date: string;
  /** Tasks plus events, each clamped to the day, in hours with one decimal. */
  spentHours: number;
  budgetHours: number;
  /** max(0, budget - spent). */
  remainingHours: number;
}

/** The wallet of one local day of the user's. */
export async function walletOfDay(
  app: FastifyInstance,
  user: UserRow,
  timeZone: string,
  date: string,
): Promise<DayWallet> {
  const day = localDayBounds(timeZone, date);
  const { tasks, events } = await blocksOverlapping(app, user.id, day.start, day.end);
  const spentHours = hoursOf(
    totalOverlapMs(tasks, day.start, day.end) + totalOverlapMs(events, day.start, day.end),
  );
  return {
    date,
    spentHours,
    budgetHours: user.budgetHours,
    remainingHours: Math.max(0, roundToTenth(user.budgetHours - spentHours)),
  };
}

/** The weekly analytics of the user's Sunday..Saturday week containing `date`. */
export async function weeklyAnalytics(
  app: FastifyInstance,
  user: UserRow,
  timeZone: string,
  date: string,
): Promise<WeeklyAnalytics> {
  const { from, to } = weekRange(timeZone, date);
  const [blocks, categories] = await Promise.all([
    blocksOverlapping(app, user.id, from, to),
    app.categoriesRepository.list(user.id),
  ]);
  return computeWeeklyAnalytics({ timeZone, date, now: app.now(), ...blocks, categories });
}
