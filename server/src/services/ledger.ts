import type { FastifyInstance } from 'fastify';
import type { TaskRow, UserRow } from '../db/schema.js';
import type { EventSpan } from '../plugins/app/events-repository.js';
import { byStart, type LedgerTaskRow, type TaskSpan } from '../plugins/app/tasks-repository.js';
import { expandEvents, expandTasks } from './series.js';
import { blockOverlaps, isOnDay } from './tasks.js';
import { effectiveEndOf, type Db } from './time-entries.js';
import { LruCache } from '../lib/lru-cache.js';
import {
  TIME_ZONES_KEPT,
  addDays,
  dayOfWeek,
  localDayBounds,
  localDateAt,
  localDaysBetween,
  startOfLocalDay,
  weekStartOf,
} from '../lib/time-zone.js';
import type { WeeklyAnalytics } from '../schemas/analytics.js';
import type { Static } from '@sinclair/typebox';
import type { LedgerDay } from '../schemas/ledger.js';
import type { TodayTasks } from '../schemas/task.js';
import { budgetsByWeekdayOf } from '../schemas/user.js';

// The time ledger: every figure of time in the product (the wallet, Today, the calendar's day headers, analytics) is
// computed here, from one read of the user's timeline. The definitions are written once, in schemas/ledger.ts
// (DEFINITIONS), and published in the OpenAPI descriptions; this file is their only implementation.

const MINUTE_MS = 60_000;
export const NO_CATEGORY = { id: '', name: 'No category', color: '#8A94A6' } as const;
/** The most days one ledger read reports (six weeks: a month view). */
export const LEDGER_MAX_DAYS = 42;

export interface Block {
  startAt: number;
  endAt: number;
  categoryId: string | null;
  /** Counts as productive time: a done task that was not tracked, or a timed event that has ended. */
  productive: boolean;
}

/** A task of one of the reported days, for what is counted by day rather than by block. */
export interface DatedTask {
  id: string;
  date: string;
  done: boolean;
  scheduled: boolean;
  estimateMinutes: number | null;
}

/** Tracked time: an entry with its end (a running one ends now, or at its 12-hour stop). */
export interface Span {
  startAt: number;
  endAt: number;
}

export interface Timeline {
  blocks: Block[];
  tasks: DatedTask[];
  entries: Span[];
}

/** A piece of the timeline covered by one block: pieces never overlap. */
interface Piece {
  startAt: number;
  endAt: number;
  block: Block;
}

/**
 * The union of the blocks as non-overlapping pieces, each instant given to the covering block that started last (the
 * one the person switched to), so minutes per category add up to the planned total. O(n log n): a sweep over the
 * sorted boundaries with a heap of the open blocks, latest start on top, ended ones dropped lazily.
 */
export function piecesOf(blocks: Block[]): Piece[] {
  const sorted = blocks.filter((block) => block.endAt > block.startAt).sort((a, b) => a.startAt - b.startAt);
  const boundaries = [...new Set(sorted.flatMap((block) => [block.startAt, block.endAt]))].sort(
    (a, b) => a - b,
  );
  const heap: Block[] = [];
  const later = (a: Block, b: Block) => a.startAt > b.startAt;
  const push = (block: Block) => {
    heap.push(block);
    for (let index = heap.length - 1; index > 0;) {
      const parent = (index - 1) >> 1;
      if (!later(heap[index]!, heap[parent]!)) break;
      [heap[index], heap[parent]] = [heap[parent]!, heap[index]!];
      index = parent;
    }
  };
  const pop = () => {
    const last = heap.pop()!;
    if (heap.length === 0) return;
    heap[0] = last;
    for (let index = 0; ;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let top = index;
      if (left < heap.length && later(heap[left]!, heap[top]!)) top = left;
      if (right < heap.length && later(heap[right]!, heap[top]!)) top = right;
      if (top === index) return;
      [heap[index], heap[top]] = [heap[top]!, heap[index]!];
      index = top;
    }
  };

  const pieces: Piece[] = [];
  let next = 0;
  for (let index = 0; index < boundaries.length - 1; index += 1) {
    const from = boundaries[index]!;
    const to = boundaries[index + 1]!;
    while (next < sorted.length && sorted[next]!.startAt <= from) push(sorted[next++]!);
    while (heap.length > 0 && heap[0]!.endAt <= from) pop();
    const owner = heap[0];
    if (!owner) continue;
    const previous = pieces.at(-1);
    if (previous && previous.block === owner && previous.endAt === from) previous.endAt = to;
    else pieces.push({ startAt: from, endAt: to, block: owner });
  }
  return pieces;
}

function overlapMs(span: { startAt: number; endAt: number }, from: number, to: number): number {
  return Math.max(0, Math.min(span.endAt, to) - Math.max(span.startAt, from));
}

function coveredMs(pieces: Piece[], from: number, to: number): number {
  return pieces.reduce((sum, piece) => sum + overlapMs(piece, from, to), 0);
}

const minutesOf = (ms: number) => Math.round(ms / MINUTE_MS);
const roundToTenth = (value: number) => Math.round(value * 10) / 10;
const hoursOfMinutes = (minutes: number) => roundToTenth(minutes / 60);

/** A day's budget in hours: its weekday's entry when the user set budgets by weekday, else the one budget. */
export function budgetHoursOf(
  user: Pick<UserRow, 'budgetHours' | 'budgetHoursByWeekday'>,
  date: string,
): number {
  return budgetsByWeekdayOf(user)?.[dayOfWeek(date)] ?? user.budgetHours;
}

export interface LedgerInput extends Timeline {
  timeZone: string;
  user: Pick<UserRow, 'budgetHours' | 'budgetHoursByWeekday'>;
  /** The budget in hours in force on a day (the budget periods); the user's current one when not given. */
  budgetOf?: (date: string) => number;
  now: number;
}

/** The union of spans as disjoint spans in order: sorted once, then each day only sums its overlaps. */
function unionOf(spans: readonly Span[]): Span[] {
  const sorted = spans.filter((span) => span.endAt > span.startAt).sort((a, b) => a.startAt - b.startAt);
  const union: Span[] = [];
  for (const span of sorted) {
    const last = union.at(-1);
    if (last && span.startAt <= last.endAt) last.endAt = Math.max(last.endAt, span.endAt);
    else union.push({ startAt: span.startAt, endAt: span.endAt });
  }
  return union;
}

/** How much of [from, to) disjoint spans cover. */
const coveredByUnion = (union: readonly Span[], from: number, to: number): number =>
  union.reduce((sum, span) => sum + overlapMs(span, from, to), 0);

/** Each day's figures, from the timeline read for those days (see DEFINITIONS). */
export function ledgerDays(input: LedgerInput, dates: string[]): LedgerDay[] {
  const { timeZone } = input;
  const pieces = piecesOf(input.blocks);
  const tracked = unionOf(input.entries);
  const productive = unionOf([...input.blocks.filter((block) => block.productive), ...input.entries]);
  const budgetOf = input.budgetOf ?? ((date: string) => budgetHoursOf(input.user, date));
  return dates.map((date) => {
    const from = startOfLocalDay(timeZone, date);
    const to = startOfLocalDay(timeZone, addDays(date, 1));
    const plannedMinutes = minutesOf(coveredMs(pieces, from, to));
    const budgetMinutes = Math.round(budgetOf(date) * 60);
    return {
      date,
      plannedMinutes,
      trackedMinutes: minutesOf(coveredByUnion(tracked, from, to)),
      unscheduledMinutes: input.tasks
        .filter((task) => task.date === date && !task.scheduled && !task.done)
        .reduce((sum, task) => sum + (task.estimateMinutes ?? 0), 0),
      productiveMinutes: minutesOf(coveredByUnion(productive, from, to)),
      budgetMinutes,
      overMinutes: Math.max(0, plannedMinutes - budgetMinutes),
      remainingMinutes: Math.max(0, budgetMinutes - plannedMinutes),
    };
  });
}

export interface AnalyticsCategory {
  id: string;
  name: string;
  color: string;
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

export interface WeeklyAnalyticsInput extends LedgerInput {
  /** Any day of the week to report, YYYY-MM-DD. */
  date: string;
  categories: AnalyticsCategory[];
}

/** The weekly figures, every one from the ledger's definitions (DEFINITIONS, docs/product.md). */
export function computeWeeklyAnalytics(input: WeeklyAnalyticsInput): WeeklyAnalytics {
  const { timeZone, now, categories } = input;
  const { weekStart, weekEnd } = weekRange(timeZone, input.date);
  const today = localDateAt(timeZone, now);
  const dates = Array.from({ length: 7 }, (_, index) => addDays(weekStart, index));
  const days = ledgerDays(input, dates);

  const categoryById = new Map(categories.map((category) => [category.id, category]));
  const categoryOf = (block: Block) =>
    block.categoryId !== null && categoryById.has(block.categoryId) ? block.categoryId : '';
  // Minutes per category are counted day by day and rounded so that each day's add up to its planned minutes
  // (largest remainders), so the week's categories add up to the sum of its days, as every week figure does.
  const pieces = piecesOf(input.blocks);
  const msByCategory = new Map<string, number>();
  const minutesByCategory = new Map<string, number>();
  for (const day of days) {
    const dayFrom = startOfLocalDay(timeZone, day.date);
    const dayTo = startOfLocalDay(timeZone, addDays(day.date, 1));
    const dayMs = new Map<string, number>();
    for (const piece of pieces) {
      const ms = overlapMs(piece, dayFrom, dayTo);
      if (ms > 0) dayMs.set(categoryOf(piece.block), (dayMs.get(categoryOf(piece.block)) ?? 0) + ms);
    }
    const shares = [...dayMs.entries()].map(([id, ms]) => ({
      id,
      ms,
      minutes: Math.floor(ms / MINUTE_MS),
      rest: ms / MINUTE_MS - Math.floor(ms / MINUTE_MS),
    }));
    let left = day.plannedMinutes - shares.reduce((sum, share) => sum + share.minutes, 0);
    for (const share of [...shares].sort((a, b) => b.rest - a.rest || a.id.localeCompare(b.id))) {
      if (left <= 0) break;
      share.minutes += 1;
      left -= 1;
    }
    for (const share of shares) {
      msByCategory.set(share.id, (msByCategory.get(share.id) ?? 0) + share.ms);
      minutesByCategory.set(share.id, (minutesByCategory.get(share.id) ?? 0) + share.minutes);
    }
  }
  const plannedMs = [...msByCategory.values()].reduce((sum, ms) => sum + ms, 0);
  const byCategory = [...msByCategory.entries()]
    .filter(([, ms]) => ms > 0)
    .map(([categoryId, ms]) => {
      const category = categoryById.get(categoryId) ?? NO_CATEGORY;
      return {
        categoryId,
        name: category.name,
        color: category.color,
        minutes: minutesByCategory.get(categoryId) ?? 0,
        percent: Math.round((ms / plannedMs) * 100),
        ms,
      };
    })
    .sort((a, b) => b.ms - a.ms || a.name.localeCompare(b.name))
    .map(({ ms: _ms, ...share }) => share);

  // The days elapsed up to today, in numerator and divisor alike: a future day's done task counts in neither.
  const elapsed = days.filter(({ date }) => date <= today);
  const productiveMinutes = elapsed.reduce((sum, day) => sum + day.productiveMinutes, 0);
  const averageProductiveHours =
    elapsed.length === 0 ? 0 : roundToTenth(productiveMinutes / 60 / elapsed.length);

  const daysWithDoneTask = new Set(input.tasks.filter((task) => task.done).map((task) => task.date));
  let streak = 0;
  let run = 0;
  for (const { date } of elapsed) {
    run = daysWithDoneTask.has(date) ? run + 1 : 0;
    streak = Math.max(streak, run);
  }

  return {
    weekStart,
    weekEnd,
    totalMinutes: days.reduce((sum, day) => sum + day.plannedMinutes, 0),
    byCategory,
    averageProductiveHours,
    streak,
    daily: days.map((day) => ({
      date: day.date,
      minutes: day.plannedMinutes,
      productiveMinutes: day.productiveMinutes,
      plannedMinutes: day.plannedMinutes,
      trackedMinutes: day.trackedMinutes,
      budgetMinutes: day.budgetMinutes,
      overMinutes: day.overMinutes,
      remainingMinutes: day.remainingMinutes,
    })),
  };
}

/**
 * The timeline from what was read: scheduled, non-dismissed tasks overlapping the range and timed events are blocks
 * (all-day events cost nothing); the non-dismissed tasks dated in the range are counted by day.
 */
function timelineFrom(
  user: UserRow,
  now: number,
  taskSpans: readonly TaskSpan[],
  eventSpans: readonly EventSpan[],
  datedTasks: readonly LedgerTaskRow[],
  entries: Span[],
): Timeline {
  const running =
    user.timerTaskId !== null && user.timerStartedAt !== null
      ? {
          taskId: user.timerTaskId,
          ms: effectiveEndOf({ startAt: user.timerStartedAt, endAt: null }, now) - user.timerStartedAt,
        }
      : null;
  // A done task's block is productive until its entries hold as much time: timing a done task never lowers it.
  const trackedMsOf = (task: TaskSpan) =>
    task.trackedMinutes * MINUTE_MS + (running?.taskId === task.id ? running.ms : 0);
  const blocks: Block[] = [
    ...taskSpans.map((task) => ({
      startAt: task.startAt,
      endAt: task.endAt,
      categoryId: task.categoryId,
      productive: task.done === 1 && trackedMsOf(task) < task.endAt - task.startAt,
    })),
    ...eventSpans
      .filter((event) => event.allDay === 0)
      .map((event) => ({
        startAt: event.startAt,
        endAt: event.endAt,
        categoryId: event.categoryId,
        productive: event.endAt <= now,
      })),
  ];
  return {
    blocks,
    tasks: datedTasks.map((task) => ({
      id: task.id,
      date: task.date,
      done: task.done === 1,
      scheduled: task.scheduled === 1,
      estimateMinutes: task.estimateMinutes,
    })),
    entries,
  };
}

/**
 * The tracked time overlapping [from, to): the entries of tasks that exist and are not dismissed (a deleted task's
 * entries wait in the table while its delete can be undone), running ones ended now.
 */
async function entrySpansOf(app: FastifyInstance, userId: string, from: number, to: number): Promise<Span[]> {
  const now = app.now();
  const rows = await app.timeEntriesRepository.countedSpans(userId, from, to);
  return rows.map((row) => ({ startAt: row.startAt, endAt: effectiveEndOf(row, now) }));
}

/** The ledger's read: the user's blocks overlapping the local days [fromDate, toDate] and the tasks dated then. */
export async function timelineOf(
  app: FastifyInstance,
  user: UserRow,
  timeZone: string,
  fromDate: string,
  toDate: string,
): Promise<Timeline> {
  const from = startOfLocalDay(timeZone, fromDate);
  const to = startOfLocalDay(timeZone, addDays(toDate, 1));
  const range = { from, to };
  const [taskSpans, eventSpans, tasks, entries] = await Promise.all([
    app.tasksRepository
      .listSpansOverlapping(user.id, from, to)
      .then((rows) => expandTasks(app, user.id, rows, range)),
    app.eventsRepository
      .listSpansOverlapping(user.id, from, to)
      .then((rows) => expandEvents(app, user.id, rows, range)),
    app.tasksRepository.listLedgerTasks(user.id, fromDate, toDate),
    entrySpansOf(app, user.id, from, to),
  ]);
  // A series' occurrences are counted by day like single tasks; its master, dated on its first day, is not.
  const occurrences = taskSpans.filter(
    (task) => task.recurrenceAt !== null && task.date >= fromDate && task.date <= toDate,
  );
  const counted = new Set(tasks.map((task) => task.id));
  const dated = [
    ...tasks.filter((task) => task.occurrenceMs === null),
    ...occurrences.filter((task) => !counted.has(task.id)),
  ];
  return timelineFrom(
    user,
    app.now(),
    taskSpans.filter((task) => task.scheduled === 1),
    eventSpans,
    dated,
    entries,
  );
}

/**
 * Keeps the past's budget when it changes: the first change writes the budget that held until then (from the
 * earliest day), and each change the new one from the local day it is made on (a second change that day replaces the
 * first). One transaction; the user's row itself is updated by the caller.
 */
export async function recordBudgetChange(
  trx: Db,
  user: Pick<UserRow, 'id' | 'budgetHours' | 'budgetHoursByWeekday'>,
  today: string,
  next: { budgetHours: number; budgetHoursByWeekday: string | null },
): Promise<void> {
  {
    const existing = await trx
      .selectFrom('budgetPeriods')
      .select('fromDate')
      .where('userId', '=', user.id)
      .limit(1)
      .executeTakeFirst();
    if (!existing) {
      await trx
        .insertInto('budgetPeriods')
        .values({
          userId: user.id,
          fromDate: EARLIEST_BUDGET_DATE,
          budgetHours: user.budgetHours,
          budgetHoursByWeekday: user.budgetHoursByWeekday,
        })
        .execute();
    }
    await trx
      .deleteFrom('budgetPeriods')
      .where('userId', '=', user.id)
      .where('fromDate', '>=', today)
      .execute();
    await trx
      .insertInto('budgetPeriods')
      .values({ userId: user.id, fromDate: today, ...next })
      .execute();
  }
}

/** The day the budget that held before the first change starts on: before any day the product stores. */
const EARLIEST_BUDGET_DATE = '0000-01-01';

/**
 * The budget in force on each day up to `toDate`: the latest budget period starting on or before the day, else the
 * user's current budget (an account whose budget never changed has no period).
 */
export async function budgetsOf(
  app: FastifyInstance,
  user: UserRow,
  toDate: string,
): Promise<(date: string) => number> {
  const periods = await app.timeEntriesRepository.budgetPeriods(user.id, toDate);
  return (date) => {
    const period = periods.find((candidate) => candidate.fromDate <= date);
    return budgetHoursOf(period ?? user, date);
  };
}

/** The ledger of the local days [fromDate, toDate]. */
export async function ledgerOfDays(
  app: FastifyInstance,
  user: UserRow,
  timeZone: string,
  fromDate: string,
  toDate: string,
): Promise<LedgerDay[]> {
  const [timeline, budgetOf] = await Promise.all([
    timelineOf(app, user, timeZone, fromDate, toDate),
    budgetsOf(app, user, toDate),
  ]);
  const dates = Array.from({ length: localDaysBetween(fromDate, toDate) + 1 }, (_, index) =>
    addDays(fromDate, index),
  );
  return ledgerDays({ ...timeline, timeZone, user, budgetOf, now: app.now() }, dates);
}

/** GET /tasks/today's figures: the ledger of one day in hours with one decimal. */
export type DayWallet = Omit<Static<typeof TodayTasks>, 'tasks'>;

/** A day of the ledger in hours with one decimal, as the wallet shows it. */
function walletFrom(user: UserRow, date: string, day: LedgerDay): DayWallet {
  const plannedHours = hoursOfMinutes(day.plannedMinutes);
  const budgetHours = budgetHoursOf(user, date);
  return {
    date,
    spentHours: plannedHours,
    plannedHours,
    trackedHours: hoursOfMinutes(day.trackedMinutes),
    unscheduledHours: hoursOfMinutes(day.unscheduledMinutes),
    budgetHours,
    remainingHours: hoursOfMinutes(day.remainingMinutes),
    overHours: hoursOfMinutes(day.overMinutes),
  };
}

/** Today in each zone, kept until it ends: reading the date at an instant costs an Intl formatToParts call. */
const todays = new LruCache<string, { date: string; start: number; end: number }>(TIME_ZONES_KEPT);

/** The local day containing `now` in the zone, and its instants [start, end). */
function todayIn(timeZone: string, now: number): { date: string; start: number; end: number } {
  const known = todays.get(timeZone);
  if (known && now >= known.start && now < known.end) return known;
  const date = localDateAt(timeZone, now);
  const today = { date, ...localDayBounds(timeZone, date) };
  todays.set(timeZone, today);
  return today;
}

/**
 * Today's list and today's wallet in the reader's zone, from one read of the day's task rows (those dated today and
 * the scheduled ones and series overlapping it) and one of its events: GET /tasks/today is the product's most
 * frequent read.
 */
export async function todayOf(
  app: FastifyInstance,
  user: UserRow,
  timeZone: string,
): Promise<{ wallet: DayWallet; tasks: TaskRow[] }> {
  const { date, start, end } = todayIn(timeZone, app.now());
  const range = { from: start, to: end };
  const [rows, eventSpans, entries] = await Promise.all([
    app.tasksRepository
      .listOfDay(user.id, date, start, end)
      .then((read) => expandTasks(app, user.id, read, range)),
    app.eventsRepository
      .listSpansOverlapping(user.id, start, end)
      .then((read) => expandEvents(app, user.id, read, range)),
    entrySpansOf(app, user.id, start, end),
  ]);
  // Each row once, series replaced by their occurrences today: dated today (counted by day), scheduled and
  // overlapping today (a block), or both. The list is the scheduled ones.
  const counted = rows.filter((task) => task.dismissed === 0);
  const timeline = timelineFrom(
    user,
    app.now(),
    counted.filter((task) => blockOverlaps(task, start, end)),
    eventSpans,
    counted.filter((task) => task.date === date),
    entries,
  );
  // Today's budget is the user's current one: a change applies from the day it is made on.
  const [day] = ledgerDays({ ...timeline, timeZone, user, now: app.now() }, [date]);
  const tasks = rows
    .filter((task) => task.scheduled === 1 && isOnDay(task, date, { start, end }))
    .sort(byStart);
  return { wallet: walletFrom(user, date, day!), tasks };
}

/** The weekly analytics of the user's Sunday..Saturday week containing `date`. */
export async function weeklyAnalytics(
  app: FastifyInstance,
  user: UserRow,
  timeZone: string,
  date: string,
): Promise<WeeklyAnalytics> {
  const { weekStart, weekEnd } = weekRange(timeZone, date);
  const [timeline, categories, budgetOf] = await Promise.all([
    timelineOf(app, user, timeZone, weekStart, weekEnd),
    app.categoriesRepository.list(user.id),
    budgetsOf(app, user, weekEnd),
  ]);
  return computeWeeklyAnalytics({ ...timeline, timeZone, user, budgetOf, date, now: app.now(), categories });
}
