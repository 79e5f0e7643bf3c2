import type { FastifyInstance } from 'fastify';
import type { EventRow, TaskRow } from '../db/schema.js';
import type { TasksRepository } from '../plugins/app/tasks-repository.js';
import { HttpError } from '../lib/http-errors.js';
import { fieldError } from '../lib/input-rules.js';
import {
  ExpansionBudget,
  SERIES_LIMITS,
  SeriesBudgetError,
  SeriesRuleError,
  lastStartOfSpan,
  normalizeSeriesRule,
  occurrenceId,
  occurrenceStartsYielding,
  rulePeriodMs,
  seriesCost,
  seriesEnd,
  type SeriesShape,
} from '../lib/recurrence.js';
import { localDateAt } from '../lib/time-zone.js';
import { yieldPoint } from '../lib/yield-point.js';

/**
 * Series on the timeline (lib/recurrence.ts for the rules). A series is one row, its master, whose start_at/end_at
 * span all its occurrences, so the overlap reads that exist return it; every read then replaces the master by its
 * occurrences in the range (`expandTasks`, `expandEvents`), leaving out those that have an override row (an edited,
 * ticked or tracked occurrence, read as itself). An occurrence is addressed by `occurrenceId(series, start)` until it
 * gets an override, which takes that id, so a client's id for an occurrence never changes.
 */

/** The series columns of a row that is not part of one. */
export const SINGLE_ITEM = {
  rrule: null,
  exdates: null,
  seriesZone: null,
  occurrenceMs: null,
  seriesId: null,
  recurrenceAt: null,
} as const;

type SeriesColumns = Pick<
  TaskRow,
  'id' | 'startAt' | 'endAt' | 'rrule' | 'exdates' | 'seriesZone' | 'occurrenceMs'
>;

/** A series' master: it is never shown itself, only its occurrences. */
export const isMaster = (row: Pick<TaskRow, 'occurrenceMs'>): boolean => row.occurrenceMs !== null;

/** The skipped starts of a master. */
export const exdatesOf = (row: Pick<TaskRow, 'exdates'>): number[] =>
  row.exdates ? (JSON.parse(row.exdates) as number[]) : [];

/**
 * What the rule engine needs of a master. An all-day event series, or a series of unscheduled tasks, repeats dates. A
 * COUNT rule's last start is read from the span saved with it, so no read walks from the series' start.
 */
export function shapeOf(
  row: Omit<SeriesColumns, 'id' | 'endAt'> & { endAt?: number },
  allDay: boolean,
): SeriesShape {
  const shape: SeriesShape = {
    rrule: row.rrule!,
    zone: row.seriesZone!,
    startAt: row.startAt,
    durationMs: row.occurrenceMs!,
    allDay,
    exdates: exdatesOf(row),
  };
  return row.endAt === undefined ? shape : { ...shape, lastStart: lastStartOfSpan(shape, row.endAt) };
}

const taskShape = (row: SeriesColumns & Pick<TaskRow, 'scheduled'>) => shapeOf(row, row.scheduled === 0);
const eventShape = (row: Parameters<typeof shapeOf>[0] & Pick<EventRow, 'allDay'>) =>
  shapeOf(row, row.allDay === 1);

/**
 * The columns that make a row a series' master, from the rule as written: 400 with the rule's problem when it cannot
 * be used. `startAt`/`durationMs` are the first occurrence's.
 */
export async function masterColumns(
  written: string,
  first: { startAt: number; durationMs: number; allDay: boolean; zone: string },
  exdates: readonly number[] = [],
) {
  let rrule: string;
  try {
    rrule = normalizeSeriesRule(written, first.startAt, first.zone);
  } catch (error) {
    if (error instanceof SeriesRuleError) throw fieldError('rrule', error.message);
    throw error;
  }
  if (exdates.length > SERIES_LIMITS.exdates) {
    throw fieldError('rrule', `A series keeps at most ${SERIES_LIMITS.exdates} skipped occurrences`);
  }
  if (first.durationMs > rulePeriodMs(rrule)) {
    throw fieldError(
      'rrule',
      'An occurrence must not last longer than the series repeats: shorten it, or repeat less often',
    );
  }
  const { problem, lastStart } = await seriesCost({ rrule, ...first, exdates });
  if (problem) throw fieldError('rrule', `The repeat rule cannot be used: ${problem}`);
  return {
    rrule,
    exdates: exdates.length > 0 ? JSON.stringify(exdates) : null,
    seriesZone: first.zone,
    occurrenceMs: first.durationMs,
    seriesId: null,
    recurrenceAt: null,
    startAt: first.startAt,
    endAt: seriesEnd({ rrule, ...first, exdates, lastStart }),
  };
}

/** The ids of the occurrences (by series and original start) that have an override row, among these series. */
export type OverrideLookup = (seriesIds: string[], from: number, to: number) => Promise<Set<string>>;

/**
 * `rows` with every master replaced by its occurrences overlapping [from, to) (for zero-length ones, starting in it)
 * that have no override; other rows as they are. The caller sorts.
 */
async function expand<Row extends SeriesColumns>(
  rows: Row[],
  range: { from: number; to: number },
  overridden: OverrideLookup,
  shape: (master: Row) => SeriesShape,
  occurrenceOf: (master: Row, start: number) => Row,
  /** How far around the range a master's occurrences are looked for (the caller filters them by date). */
  marginOf: (master: Row) => number = () => 0,
): Promise<Row[]> {
  const masters = rows.filter(isMaster);
  if (masters.length === 0) return rows;
  const longest = Math.max(...masters.map((master) => master.occurrenceMs!));
  const margin = Math.max(...masters.map(marginOf));
  // Starts after from - longest (a zero-length occurrence may start right at `from`: hence the 1 ms).
  const overrides = await overridden(
    masters.map((master) => master.id),
    range.from - margin - longest - 1,
    range.to + margin,
  );
  const result = rows.filter((row) => !isMaster(row));
  const budget = new ExpansionBudget();
  const letOthersRun = yieldPoint();
  for (const master of masters) {
    // Other requests get the thread between series and within one series' walk (bounded when it is saved).
    await letOthersRun();
    let starts: number[];
    try {
      const around = marginOf(master);
      starts = await occurrenceStartsYielding(shape(master), range.from - around, range.to + around, budget);
    } catch (error) {
      if (error instanceof SeriesBudgetError) throw tooMuchToExpand();
      throw error;
    }
    for (const start of starts) {
      if (!overrides.has(occurrenceId(master.id, start))) result.push(occurrenceOf(master, start));
    }
  }
  return result;
}

/** 422: the read is valid, but its series hold more than one read may expand (SERIES_LIMITS.workPerRead). */
const tooMuchToExpand = () =>
  new HttpError(
    422,
    'This range holds more repeating items than one read can show: read a shorter range, or end or delete some series',
  );

/** One occurrence of a master, as a row of its own that is not saved (yet): fresh state, the series' fields. */
function occurrenceColumns(master: SeriesColumns, start: number) {
  return {
    id: occurrenceId(master.id, start),
    startAt: start,
    endAt: start + master.occurrenceMs!,
    exdates: null,
    seriesZone: null,
    occurrenceMs: null,
    seriesId: master.id,
    recurrenceAt: start,
  };
}

type TaskLike = SeriesColumns & Pick<TaskRow, 'scheduled'> & Partial<TaskRow>;

export function taskOccurrence<Row extends TaskLike>(master: Row, start: number): Row {
  const occurrence: Row = { ...master, ...occurrenceColumns(master, start) };
  // Each occurrence has its own state: done on Monday does not tick Wednesday.
  if ('date' in master) occurrence.date = localDateAt(master.seriesZone!, start);
  if ('done' in master) occurrence.done = 0;
  if ('dismissed' in master) occurrence.dismissed = 0;
  if ('trackedMinutes' in master) occurrence.trackedMinutes = 0;
  if ('timerAutoStopped' in master) occurrence.timerAutoStopped = 0;
  return occurrence;
}

export function eventOccurrence<Row extends SeriesColumns & Pick<EventRow, 'allDay'>>(
  master: Row,
  start: number,
): Row {
  return { ...master, ...occurrenceColumns(master, start) };
}

/**
 * Tasks read from storage, series expanded into their occurrences in [from, to). `overrides` finds the saved
 * occurrences: the app's repository, or one bound to the transaction the rows were read in.
 */
export function expandTasks<Row extends TaskLike>(
  app: FastifyInstance,
  userId: string,
  rows: Row[],
  range: { from: number; to: number },
  overrides: Pick<TasksRepository, 'overriddenOccurrences'> = app.tasksRepository,
): Promise<Row[]> {
  return expand(
    rows,
    range,
    (ids, from, to) => overrides.overriddenOccurrences(userId, ids, from, to),
    taskShape,
    taskOccurrence,
    // An unscheduled series repeats dates, kept in its own zone: read from another zone, the day's occurrence may
    // start up to 26 hours away from the reader's day, so it is looked for around the range and the caller keeps
    // the occurrences dated in it (one membership rule, services/tasks.ts isOnDay).
    (master) => (master.scheduled === 0 ? UNSCHEDULED_MARGIN_MS : 0),
  );
}

/** The most two zones' clocks differ (UTC-12 to UTC+14), and an hour more. */
const UNSCHEDULED_MARGIN_MS = 27 * 60 * 60_000;

/** Events read from storage, series expanded into their occurrences in [from, to). */
export function expandEvents<Row extends SeriesColumns & Pick<EventRow, 'allDay'>>(
  app: FastifyInstance,
  userId: string,
  rows: Row[],
  range: { from: number; to: number },
): Promise<Row[]> {
  return expand(
    rows,
    range,
    (ids, from, to) => app.eventsRepository.overriddenOccurrences(userId, ids, from, to),
    eventShape,
    eventOccurrence,
  );
}

export { taskShape, eventShape };
