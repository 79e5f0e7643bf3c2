import ICAL from 'ical.js';
import { LATEST_INSTANT } from './input-rules.js';
import { recurrenceRuleProblem, weekdayName } from './ics/recurrence-rules.js';
import { addDays, instantOfWallTime, localDaysBetween, startOfLocalDay, wallTimeAt } from './time-zone.js';

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
  /** Occurrences ical.js may step through for one series in one read, the walk to the range included. */
  stepsPerRead: 20_000,
} as const;

/** Where a series that never ends is said to end: the last instant the API accepts. */
export const SERIES_NEVER_ENDS = LATEST_INSTANT;

const FREQUENCIES = new Set(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']);
const TIME_PARTS = ['BYHOUR', 'BYMINUTE', 'BYSECOND'];
const UNTIL_VALUE = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/;

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
}

function partsOf(rule: string): Map<string, string> {
  const parts = new Map<string, string>();
  for (const part of rule.split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0) parts.set(part.slice(0, separator).toUpperCase(), part.slice(separator + 1));
  }
  return parts;
}

const ruleOf = (parts: Map<string, string>) =>
  [...parts].map(([name, value]) => `${name}=${value}`).join(';');

/** The instant a rule's UNTIL names, or null when it has none: its last occurrence starts at or before it. */
export function untilOf(series: Pick<SeriesShape, 'rrule' | 'zone'>): number | null {
  const until = partsOf(series.rrule).get('UNTIL');
  return until === undefined ? null : untilInstant(until, series.zone);
}

/** UNTIL as an instant: a date names its whole local day (RFC 5545: the last day an occurrence may start on). */
function untilInstant(value: string, zone: string): number | null {
  const match = UNTIL_VALUE.exec(value);
  if (!match) return null;
  const [, year, month, day, hour, minute, second, utc] = match;
  const date = `${year}-${month}-${day}`;
  if (hour === undefined) return startOfLocalDay(zone, addDays(date, 1)) - 1000;
  const wall = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second),
  };
  return utc
    ? Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second)
    : instantOfWallTime(zone, wall);
}

/**
 * The rule as stored: upper-case names, no "RRULE:" prefix. Throws SeriesRuleError with a message for the user when
 * the rule is malformed, repeats more than once a day, or cannot produce an occurrence in bounded work.
 */
export function normalizeSeriesRule(written: string, startAt: number, zone: string): string {
  const text = written
    .trim()
    .replace(/^RRULE:/i, '')
    .replace(/;$/, '');
  if (text === '') throw new SeriesRuleError('rrule must not be empty: leave it out for a single item');
  if (text.length > 500) throw new SeriesRuleError('rrule must be at most 500 characters');
  const parts = partsOf(text);
  const frequency = parts.get('FREQ')?.toUpperCase();
  if (frequency !== undefined) parts.set('FREQ', frequency);
  if (frequency && !FREQUENCIES.has(frequency) && /^(SECONDLY|MINUTELY|HOURLY)$/.test(frequency)) {
    throw new SeriesRuleError(
      'A series repeats at most daily: FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY',
    );
  }
  for (const name of TIME_PARTS) {
    if (parts.has(name))
      throw new SeriesRuleError(`${name} is not supported: a series repeats at its start time`);
  }
  if (parts.has('BYDAY')) parts.set('BYDAY', parts.get('BYDAY')!.toUpperCase());
  const wall = wallTimeAt(zone, startAt);
  // The weekday of DTSTART in the series' own zone, as the rule reads it.
  const startWeekday = weekdayName(new Date(Date.UTC(wall.year, wall.month - 1, wall.day)).getUTCDay() + 1)!;
  const until = parts.has('UNTIL') ? untilInstant(parts.get('UNTIL')!, zone) : null;
  if (parts.has('UNTIL') && until === null) {
    throw new SeriesRuleError('UNTIL must be a date (YYYYMMDD) or a UTC date-time (YYYYMMDDTHHMMSSZ)');
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
  const rule = ruleOf(parts);
  try {
    ICAL.Recur.fromString(rule);
  } catch {
    throw new SeriesRuleError('rrule is not a valid RFC 5545 recurrence rule');
  }
  return rule;
}

type IcalTime = InstanceType<typeof ICAL.Time>;

function icalTime(zone: string, instant: number, isDate: boolean): IcalTime {
  const wall = wallTimeAt(zone, instant);
  return ICAL.Time.fromData({ ...wall, isDate });
}

/**
 * The rule ical.js walks: UNTIL rewritten as the zone's wall clock, since the walk is in floating wall-clock time
 * (which keeps 09:00 at 09:00 across DST changes) and ical.js would compare a UTC UNTIL with it as if both were UTC.
 */
function walkedRule(series: SeriesShape): string {
  const parts = partsOf(series.rrule);
  const untilValue = parts.get('UNTIL');
  if (untilValue !== undefined) {
    const until = untilInstant(untilValue, series.zone) ?? SERIES_NEVER_ENDS;
    const wall = icalTime(series.zone, until, series.allDay);
    parts.set('UNTIL', wall.toICALString());
  }
  return ruleOf(parts);
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * DTSTART moved forward by whole periods of the rule to shortly before `from`, when that leaves the occurrences
 * unchanged: no COUNT (which counts from the real start), and a period after which the rule's pattern repeats
 * exactly (days and weeks; for months and years, whole years from a day every month has).
 */
function walkStart(series: SeriesShape, parts: Map<string, string>, from: number): IcalTime {
  const start = icalTime(series.zone, series.startAt, series.allDay);
  if (parts.has('COUNT')) return start;
  const interval = Number(parts.get('INTERVAL') ?? 1);
  const frequency = parts.get('FREQ');
  const startDate = `${String(start.year).padStart(4, '0')}-${String(start.month).padStart(2, '0')}-${String(start.day).padStart(2, '0')}`;
  // A day of margin either side of the zone's offset, plus the occurrence's own length.
  const target = from - series.durationMs - 2 * 86_400_000;
  if (target <= series.startAt) return start;
  const targetWall = wallTimeAt(series.zone, target);
  const targetDate = `${String(targetWall.year).padStart(4, '0')}-${String(targetWall.month).padStart(2, '0')}-${String(targetWall.day).padStart(2, '0')}`;
  if (frequency === 'DAILY' || frequency === 'WEEKLY') {
    const periodDays = interval * (frequency === 'WEEKLY' ? 7 : 1);
    const periods = Math.floor(localDaysBetween(startDate, targetDate) / periodDays);
    if (periods <= 0) return start;
    start.adjust(periods * periodDays, 0, 0, 0);
    return start;
  }
  if (start.day > 28) return start;
  const periodYears = frequency === 'YEARLY' ? interval : (12 * interval) / gcd(12, interval) / 12;
  const periods = Math.floor((targetWall.year - start.year - 1) / periodYears);
  if (periods <= 0) return start;
  start.year += periods * periodYears;
  return start;
}

/**
 * The starts of the series' occurrences that overlap [from, to) (for a series of zero-length items, those starting
 * in it), skipped ones left out, in order. The walk is bounded: a rule that would step further is refused at save,
 * and a stored one that still does (SERIES_LIMITS.stepsPerRead) stops there.
 */
export function occurrenceStarts(series: SeriesShape, from: number, to: number): number[] {
  const parts = partsOf(series.rrule);
  const recur = ICAL.Recur.fromString(walkedRule(series));
  const iterator = recur.iterator(walkStart(series, parts, from));
  const skipped = new Set(series.exdates);
  const starts: number[] = [];
  for (let step = 0; step < SERIES_LIMITS.stepsPerRead; step += 1) {
    const next = iterator.next();
    if (!next) break;
    const date = `${String(next.year).padStart(4, '0')}-${String(next.month).padStart(2, '0')}-${String(next.day).padStart(2, '0')}`;
    const start = series.allDay
      ? startOfLocalDay(series.zone, date)
      : instantOfWallTime(series.zone, {
          year: next.year,
          month: next.month,
          day: next.day,
          hour: next.hour,
          minute: next.minute,
          second: next.second,
        });
    if (start >= to) break;
    if (start < series.startAt) continue;
    const overlaps = series.durationMs > 0 ? start + series.durationMs > from : start >= from;
    if (overlaps && !skipped.has(start)) starts.push(start);
  }
  return starts;
}

/** How far past its start an occurrence reaches on the timeline: a date-only one (all day, or an unscheduled task
 * with no length) holds its whole day, so an overlap read of that day finds its series. */
const lastLength = (series: SeriesShape) => Math.max(series.durationMs, series.allDay ? 86_400_000 : 0);

/** Where the series' last occurrence ends (SERIES_NEVER_ENDS when it never does): its span on the timeline. */
export function seriesEnd(series: SeriesShape): number {
  const parts = partsOf(series.rrule);
  if (parts.has('COUNT')) {
    const starts = occurrenceStarts({ ...series, exdates: [] }, series.startAt, SERIES_NEVER_ENDS);
    return (starts.at(-1) ?? series.startAt) + lastLength(series);
  }
  const until = parts.has('UNTIL') ? untilInstant(parts.get('UNTIL')!, series.zone) : null;
  if (until === null) return SERIES_NEVER_ENDS;
  // An all-day occurrence starting on UNTIL's day ends at the end of that day at the latest.
  return Math.min(SERIES_NEVER_ENDS, until + lastLength(series));
}

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
  return Number.isNaN(start) ? null : { seriesId: seriesId!, start };
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
  return ruleOf(parts);
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
  return ruleOf(parts);
}
