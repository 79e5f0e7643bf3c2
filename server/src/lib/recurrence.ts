import ICAL from 'ical.js';
import { formatRule, readUntil, ruleFields } from './generated/rrule.js';
import {
  EARLIEST_DATE,
  LATEST_DATE,
  LATEST_INSTANT,
  MAX_RANGE_DAYS,
  isInstantInRange,
} from './input-rules.js';
import { recurrenceRuleProblem, weekdayName } from './ics/recurrence-rules.js';
import { addDays, instantOfWallTime, localDaysBetween, startOfLocalDay, wallTimeAt } from './time-zone.js';
import { yieldPoint } from './yield-point.js';

/**
 * Series: an event or task stored once with an RFC 5545 RRULE and expanded on every read, for whatever range is
 * asked. A series repeats at most once a day (FREQ DAILY to YEARLY, no BYHOUR/BYMINUTE/BYSECOND), so a read of N days
 * yields at most N occurrences of it; the walk to the range is shortened by whole periods, so a weekly series from
 * 2020 costs no more to read in 2028 than in 2020.
 */
export const SERIES_LIMITS = {
  /** COUNT above this is refused: a finite series' occurrences are all walked once when it is saved. */
  count: 1000,
  /** Skipped occurrences kept on one series. */
  exdates: 1000,
  /**
   * Expansion work (steps of ical.js's walk, weighted by `stepWeight`) one read may spend on all its series together:
   * about a second of the main thread at worst, and 450 daily series over the longest range a read may ask.
   */
  workPerRead: 30_000,
  /** The work one series may need for one read of the longest range: checked when it is saved, late in its span. */
  workPerSeriesRange: 1_500,
  /** The work of walking a COUNT rule from its start to its last occurrence, once, when it is saved. */
  workToCount: 10_000,
  /** Series (masters) one account may keep of each kind: with workPerSeriesRange, what bounds a read's work. */
  seriesPerKind: 500,
  /** Occurrences of one series with a row of their own (edited, ticked, timed): an import's whole file of them. */
  overridesPerSeries: 5000,
} as const;

const DAY_MS = 86_400_000;

/** Where a series that never ends is said to end: the last instant the API accepts. */
export const SERIES_NEVER_ENDS = LATEST_INSTANT;

const FREQUENCIES = new Set(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']);
const TIME_PARTS = ['BYHOUR', 'BYMINUTE', 'BYSECOND'];

export class SeriesRuleError extends Error {}

/** What a stored series needs to be expanded. */
export interface SeriesShape {
  rrule: string;
  /** The zone whose wall clock the series keeps across DST changes. */
  zone: string;
  /** The first occurrence's start (DTSTART) and the length of every occurrence. */
  startAt: number;
  durationMs: number;
  /** An all-day series repeats local dates; its occurrences start at the zone's midnight. */
  allDay: boolean;
  /** Starts of skipped occurrences (EXDATE), epoch ms. */
  exdates: readonly number[];
  /** A COUNT rule's last start, as saved (`seriesEnd`): without it, each read walks from DTSTART to find it. */
  lastStart?: number;
}

/** The parts of a stored rule, which normalizeSeriesRule has read when it was saved. */
function partsOf(rule: string): Map<string, string> {
  const { fields, problem } = ruleFields(rule);
  if (problem !== null) throw new Error(`A stored rule cannot be read: ${problem}`);
  return fields;
}

/** The instant a rule's UNTIL names, or null when it has none: its last occurrence starts at or before it. */
export function untilOf(series: Pick<SeriesShape, 'rrule' | 'zone'>): number | null {
  const until = partsOf(series.rrule).get('UNTIL');
  return until === undefined ? null : untilInstant(until, series.zone);
}

/**
 * UNTIL as an instant, null unless it is a real date (and time) the API keeps: a date names its whole local day
 * (RFC 5545: the last day an occurrence may start on), a floating time the zone's wall clock.
 */
function untilInstant(value: string, zone: string): number | null {
  const until = readUntil(value);
  if (!until || until.date < EARLIEST_DATE || until.date > LATEST_DATE) return null;
  if (!until.time) return startOfLocalDay(zone, addDays(until.date, 1)) - 1000;
  const wall = { year: until.year, month: until.month, day: until.day, ...until.time };
  return until.utc
    ? Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second)
    : instantOfWallTime(zone, wall);
}

/**
 * The rule as stored: upper-case names and values, no "RRULE:" prefix, no empty part. Throws SeriesRuleError with a
 * message for the user when the rule is malformed, repeats more than once a day, or cannot produce an occurrence in
 * bounded work.
 */
export function normalizeSeriesRule(written: string, startAt: number, zone: string): string {
  const { fields: parts, problem: malformed } = ruleFields(written);
  if (parts?.size === 0) throw new SeriesRuleError('rrule must not be empty: leave it out for a single item');
  if (written.trim().length > 500) throw new SeriesRuleError('rrule must be at most 500 characters');
  if (malformed !== null) throw new SeriesRuleError(`The repeat rule cannot be used: ${malformed}`);
  const text = formatRule(parts);
  const frequency = parts.get('FREQ');
  if (frequency && !FREQUENCIES.has(frequency) && /^(SECONDLY|MINUTELY|HOURLY)$/.test(frequency)) {
    throw new SeriesRuleError(
      'A series repeats at most daily: FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY',
    );
  }
  for (const name of TIME_PARTS) {
    if (parts.has(name))
      throw new SeriesRuleError(`${name} is not supported: a series repeats at its start time`);
  }
  const wall = wallTimeAt(zone, startAt);
  // The weekday of DTSTART in the series' own zone, as the rule reads it.
  const startWeekday = weekdayName(new Date(Date.UTC(wall.year, wall.month - 1, wall.day)).getUTCDay() + 1)!;
  const until = parts.has('UNTIL') ? untilInstant(parts.get('UNTIL')!, zone) : null;
  if (parts.has('UNTIL') && until === null) {
    throw new SeriesRuleError(
      `UNTIL must be a real date (YYYYMMDD) or UTC date-time (YYYYMMDDTHHMMSSZ) from ${EARLIEST_DATE} to ${LATEST_DATE}`,
    );
  }
  const problem = recurrenceRuleProblem(text, {
    startWeekday,
    secondsToWalk: ((until ?? SERIES_NEVER_ENDS) - startAt) / 1000,
    maxOccurrences: SERIES_LIMITS.count,
  });
  if (problem) throw new SeriesRuleError(`The repeat rule cannot be used: ${problem}`);
  if (!frequency || !FREQUENCIES.has(frequency)) {
    throw new SeriesRuleError('FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY');
  }
  const count = parts.has('COUNT') ? Number(parts.get('COUNT')) : null;
  if (count !== null && count > SERIES_LIMITS.count) {
    throw new SeriesRuleError(`COUNT must be from 1 to ${SERIES_LIMITS.count}`);
  }
  if (until !== null && until < startAt) throw new SeriesRuleError('UNTIL must not be before the start');
  try {
    ICAL.Recur.fromString(text);
  } catch {
    throw new SeriesRuleError('rrule is not a valid RFC 5545 recurrence rule');
  }
  return text;
}

type IcalTime = InstanceType<typeof ICAL.Time>;

function icalTime(zone: string, instant: number, isDate: boolean): IcalTime {
  const wall = wallTimeAt(zone, instant);
  return ICAL.Time.fromData({ ...wall, isDate });
}

/**
 * The rule ical.js walks: UNTIL rewritten as the zone's wall clock, since the walk is in floating wall-clock time
 * (which keeps 09:00 at 09:00 across DST changes) and ical.js would compare a UTC UNTIL with it as if both were UTC.
 * With `lastStart`, a COUNT becomes the UNTIL of that last start: the same occurrences, from any point of the walk.
 */
function walkedRule(series: SeriesShape, lastStart: number | null): string {
  const parts = partsOf(series.rrule);
  // A yearly rule with no BY part repeats on DTSTART's month and day (RFC 5545 3.3.10), so a series from 29 February
  // has no occurrence in common years. ical.js moves those to 1 March unless the parts are written out.
  if (parts.get('FREQ') === 'YEARLY' && ![...parts.keys()].some((name) => name.startsWith('BY'))) {
    const first = wallTimeAt(series.zone, series.startAt);
    parts.set('BYMONTH', String(first.month));
    parts.set('BYMONTHDAY', String(first.day));
  }
  const untilValue = parts.get('UNTIL');
  if (lastStart !== null && parts.has('COUNT')) {
    parts.delete('COUNT');
    parts.set('UNTIL', icalTime(series.zone, lastStart, series.allDay).toICALString());
  } else if (untilValue !== undefined) {
    const until = untilInstant(untilValue, series.zone) ?? SERIES_NEVER_ENDS;
    parts.set('UNTIL', icalTime(series.zone, until, series.allDay).toICALString());
  }
  return formatRule(parts);
}

/** The instant of a step of the walk: an all-day one starts at its local midnight. */
function instantOf(series: SeriesShape, step: IcalTime): number {
  if (series.allDay) return startOfLocalDay(series.zone, dateOf(step));
  const { year, month, day, hour, minute, second } = step;
  return instantOfWallTime(series.zone, { year, month, day, hour, minute, second });
}

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const dateOf = (time: { year: number; month: number; day: number }) =>
  `${String(time.year).padStart(4, '0')}-${String(time.month).padStart(2, '0')}-${String(time.day).padStart(2, '0')}`;

/**
 * DTSTART moved forward by whole periods of the rule to shortly before `target`. The rule's set is computed period by
 * period from the calendar alone (BYDAY, BYMONTHDAY, BYSETPOS, BYWEEKNO read the period, not DTSTART), so a start
 * moved by whole periods, keeping its wall-clock time and day of the month, yields exactly the
 * same occurrences from there on: days and weeks move by whole periods of days, months by whole periods to a month
 * that has the start's day, years by whole periods to a year that has it (a leap year for 29 February). A COUNT rule
 * is walked as the UNTIL of its last occurrence (`lastStart`), so it moves too.
 */
function walkStart(series: SeriesShape, parts: Map<string, string>, target: number): IcalTime {
  const start = icalTime(series.zone, series.startAt, series.allDay);
  if (target <= series.startAt) return start;
  const interval = Number(parts.get('INTERVAL') ?? 1);
  const frequency = parts.get('FREQ');
  const targetWall = wallTimeAt(series.zone, target);
  if (frequency === 'DAILY' || frequency === 'WEEKLY') {
    const periodDays = interval * (frequency === 'WEEKLY' ? 7 : 1);
    const periods = Math.floor(localDaysBetween(dateOf(start), dateOf(targetWall)) / periodDays);
    if (periods > 0) start.adjust(periods * periodDays, 0, 0, 0);
    return start;
  }
  if (frequency === 'MONTHLY') {
    const months = (targetWall.year - start.year) * 12 + targetWall.month - start.month - 1;
    // A start on the 29th to 31st moves only to a month that has its day (the rule's day of the month, when it names
    // none); 12 periods always land on its own month again.
    for (let periods = Math.floor(months / interval); periods > 0; periods -= 1) {
      const month = start.month - 1 + periods * interval;
      const year = start.year + Math.floor(month / 12);
      if (start.day > ICAL.Time.daysInMonth((month % 12) + 1, year)) continue;
      start.year = year;
      start.month = (month % 12) + 1;
      return start;
    }
    return start;
  }
  // The last whole period whose anniversary of the start is not after the target (a leap year for 29 February).
  for (let periods = Math.floor((targetWall.year - start.year) / interval); periods > 0; periods -= 1) {
    const year = start.year + periods * interval;
    if (start.month === 2 && start.day === 29 && !isLeapYear(year)) continue;
    const anniversary = { year, month: start.month, day: start.day };
    if (dateOf(anniversary) > dateOf(targetWall)) continue;
    start.year = year;
    return start;
  }
  return start;
}

/**
 * What one step of ical.js's walk costs, in steps of a plain rule: a monthly BYSETPOS rule builds each month's whole set
 * of days to pick from, about 30 times the work of a step of any other rule the server accepts (measured).
 */
function stepWeight(parts: Map<string, string>): number {
  return parts.get('FREQ') === 'MONTHLY' && parts.has('BYSETPOS') ? 32 : 1;
}

/** The expansion work one read may still do, all its series together (SERIES_LIMITS.workPerRead). */
export class ExpansionBudget {
  constructor(public work: number = SERIES_LIMITS.workPerRead) {}

  spend(weight: number): void {
    this.work -= weight;
    if (this.work < 0) throw new SeriesBudgetError();
  }
}

/** A read needed more expansion work than its budget: a 4xx, never a stall. */
export class SeriesBudgetError extends Error {}

/**
 * The starts of the series' occurrences that overlap [from, to) (for a series of zero-length items, those starting
 * in it), skipped ones left out, in order. The walk starts a whole number of the rule's periods before `from`, so it
 * costs what the range holds, whatever the series' start; each step spends one of `budget` (SeriesBudgetError when
 * none is left).
 */
export function occurrenceStarts(
  series: SeriesShape,
  from: number,
  to: number,
  budget = new ExpansionBudget(),
): number[] {
  return walkAtOnce(startsWalk(series, from, to, budget));
}

/**
 * occurrenceStarts for a read that shares the thread: the walk lets other requests run whenever it has held the
 * thread for a slice (a rule such as the last weekday of each month, started a century ago, costs tens of ms a range).
 */
export function occurrenceStartsYielding(
  series: SeriesShape,
  from: number,
  to: number,
  budget = new ExpansionBudget(),
): Promise<number[]> {
  return walkYielding(startsWalk(series, from, to, budget));
}

/**
 * A walk of ical.js's iterator, step by step: it pauses (yields) after each step, so a caller may let other requests
 * run in between (walkYielding), and returns its result when done. walkAtOnce runs one to its end.
 */
type Walk<T> = Generator<void, T, void>;

function walkAtOnce<T>(walk: Walk<T>): T {
  for (;;) {
    const step = walk.next();
    if (step.done) return step.value;
  }
}

/** Runs a walk to its end, letting other requests run whenever it has held the thread for a slice (yieldPoint). */
async function walkYielding<T>(walk: Walk<T>): Promise<T> {
  const letOthersRun = yieldPoint();
  for (;;) {
    const step = walk.next();
    if (step.done) return step.value;
    await letOthersRun();
  }
}

function* startsWalk(series: SeriesShape, from: number, to: number, budget: ExpansionBudget): Walk<number[]> {
  const parts = partsOf(series.rrule);
  const weight = stepWeight(parts);
  const lastStart = series.lastStart ?? (parts.has('COUNT') ? yield* countWalk(series) : null);
  // A day of margin either side of the zone's offset, plus the occurrence's own length.
  const target = from - series.durationMs - 2 * DAY_MS;
  const recur = ICAL.Recur.fromString(walkedRule(series, lastStart));
  const iterator = recur.iterator(walkStart(series, parts, target));
  const skipped = new Set(series.exdates);
  const starts: number[] = [];
  for (;;) {
    budget.spend(weight);
    const next = iterator.next();
    if (!next) break;
    const start = instantOf(series, next);
    if (start >= to) break;
    yield;
    if (start < series.startAt) continue;
    const overlaps = series.durationMs > 0 ? start + series.durationMs > from : start >= from;
    if (overlaps && !skipped.has(start)) starts.push(start);
  }
  return starts;
}

/** A COUNT rule's last start, walked from DTSTART (SeriesBudgetError past SERIES_LIMITS.workToCount). */
function* countWalk(series: SeriesShape): Walk<number> {
  const parts = partsOf(series.rrule);
  const budget = new ExpansionBudget(SERIES_LIMITS.workToCount);
  const weight = stepWeight(parts);
  const iterator = ICAL.Recur.fromString(walkedRule(series, null)).iterator(
    icalTime(series.zone, series.startAt, series.allDay),
  );
  let last = series.startAt;
  for (let next = iterator.next(); next; next = iterator.next()) {
    budget.spend(weight);
    const start = instantOf(series, next);
    if (start >= SERIES_NEVER_ENDS) break;
    last = start;
    yield;
  }
  return last;
}

/** How far past its start an occurrence reaches on the timeline: a date-only one (all day, or an unscheduled task
 * with no length) holds its whole day, so an overlap read of that day finds its series. */
const lastLength = (series: SeriesShape) => Math.max(series.durationMs, series.allDay ? DAY_MS : 0);

/** A COUNT rule's last start, from where its span ends as saved (`seriesEnd`); undefined for any other rule. */
export function lastStartOfSpan(series: SeriesShape, spanEnd: number): number | undefined {
  return partsOf(series.rrule).has('COUNT') ? spanEnd - lastLength(series) : undefined;
}

/** Where the series' last occurrence ends (SERIES_NEVER_ENDS when it never does): its span on the timeline. */
export function seriesEnd(series: SeriesShape): number {
  const parts = partsOf(series.rrule);
  if (parts.has('COUNT')) return (series.lastStart ?? walkAtOnce(countWalk(series))) + lastLength(series);
  const until = parts.has('UNTIL') ? untilInstant(parts.get('UNTIL')!, series.zone) : null;
  if (until === null) return SERIES_NEVER_ENDS;
  // An all-day occurrence starting on UNTIL's day ends at the end of that day at the latest.
  return Math.min(SERIES_NEVER_ENDS, until + lastLength(series));
}

/** The shortest time between the starts of two periods of the rule: an occurrence may last no longer. */
export function rulePeriodMs(rrule: string): number {
  const parts = partsOf(rrule);
  const interval = Number(parts.get('INTERVAL') ?? 1);
  const days = { DAILY: 1, WEEKLY: 7, MONTHLY: 28, YEARLY: 365 }[parts.get('FREQ') as string] ?? 1;
  return interval * days * DAY_MS;
}

/**
 * Why reads of the series would cost too much (`problem`, or null): the work of reading the longest range a read may
 * ask (`rangeMs`), at the series' start and at the last such range of its span, each within
 * SERIES_LIMITS.workPerSeriesRange; and for a COUNT rule, the walk to its last occurrence (`lastStart`, what the saved
 * span ends with). Reads cost the same in every range of a series, since each starts its walk a whole period before
 * the range, so these two stand for all. The walks may take a good part of a second for a costly rule the limits
 * accept, so they let other requests run in between.
 */
export async function seriesCost(
  series: SeriesShape,
): Promise<{ problem: string | null; lastStart?: number }> {
  const counted = partsOf(series.rrule).has('COUNT');
  try {
    const lastStart = counted ? await walkYielding(countWalk(series)) : undefined;
    const shape = { ...series, exdates: [], lastStart };
    const end = Math.min(seriesEnd(shape), SERIES_NEVER_ENDS);
    for (const from of [series.startAt, Math.max(series.startAt, end - rangeMs)]) {
      await walkYielding(
        startsWalk(shape, from, from + rangeMs, new ExpansionBudget(SERIES_LIMITS.workPerSeriesRange)),
      );
    }
    return { problem: null, lastStart };
  } catch (error) {
    if (!(error instanceof SeriesBudgetError)) throw error;
    return {
      problem: counted
        ? 'this rule takes too long to count out: end it with UNTIL (a date) instead of COUNT, or repeat less often'
        : 'it would take too much work to show a few weeks of it: repeat less often, or with fewer rule parts',
    };
  }
}

const rangeMs = MAX_RANGE_DAYS * DAY_MS;

/** The occurrence's id: the series' id and the occurrence's original start, as an iCalendar UTC stamp. */
export function occurrenceId(seriesId: string, start: number): string {
  return `${seriesId}_${new Date(start)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '')}`;
}

const OCCURRENCE_ID = /^(.+)_(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

/** The series id and original start an occurrence id names, or null for any other id. */
export function parseOccurrenceId(id: string): { seriesId: string; start: number } | null {
  const match = OCCURRENCE_ID.exec(id);
  if (!match) return null;
  const [, seriesId, year, month, day, hour, minute, second] = match;
  const start = Date.UTC(+year!, +month! - 1, +day!, +hour!, +minute!, +second!);
  // A stamp that is not a real date-time (month 13, 31 February) or lies outside the dates the API keeps names nothing.
  if (!isInstantInRange(start) || occurrenceId(seriesId!, start) !== id) return null;
  return { seriesId: seriesId!, start };
}

/** Whether the series has an occurrence starting at `start` (not skipped). */
export function hasOccurrenceAt(series: SeriesShape, start: number): boolean {
  return occurrenceStarts(series, start, start + Math.max(1, series.durationMs)).includes(start);
}

/** The rule cut so its last occurrence starts before `before`: the "this and following" edit ends the old series. */
export function ruleEndingBefore(series: SeriesShape, before: number): string {
  const parts = partsOf(series.rrule);
  parts.delete('COUNT');
  const last = new Date(before - 1000)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  parts.set('UNTIL', last);
  return formatRule(parts);
}

/** The rule of the series that starts at an occurrence ("this and following"): a COUNT keeps only what is left. */
export function ruleFrom(series: SeriesShape, from: number): string {
  const parts = partsOf(series.rrule);
  if (parts.has('COUNT')) {
    const before = occurrenceStarts({ ...series, exdates: [] }, series.startAt, from).filter(
      (start) => start < from,
    );
    parts.set('COUNT', String(Math.max(1, Number(parts.get('COUNT')) - before.length)));
  }
  return formatRule(parts);
}
