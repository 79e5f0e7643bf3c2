import { LruCache } from './lru-cache.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * Each zone cache holds at most this many entries. There are a few hundred zone names (418 canonical ones in Node 20's
 * ICU, plus aliases), so in practice nothing is evicted; the bound is what a flood of X-Time-Zone headers runs into.
 */
export const TIME_ZONES_KEPT = 1_000;

// Formatters by canonical zone name only: building one is the costly part of reading a wall-clock time.
const formatters = new LruCache<string, Intl.DateTimeFormat>(TIME_ZONES_KEPT);
// The canonical name of every spelling seen, keyed in lower case: zone names match in any letter case, so all the
// casings of one zone are one entry, and an alias (Asia/Kolkata, which resolves to Asia/Calcutta here) stays a hit.
const canonicalBySpelling = new LruCache<string, string>(TIME_ZONES_KEPT);
// Lower-casing is only exact for ASCII: 'K' (the Kelvin sign) lower-cases to 'k', and Intl refuses it.
const PRINTABLE_ASCII = /^[\x21-\x7e]{1,64}$/;

function newFormatter(timeZone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

/** The canonical name and formatter of any spelling of a zone, or null when Intl knows no such zone. */
function resolveSpelling(spelling: string): { canonical: string; formatter: Intl.DateTimeFormat } | null {
  if (!PRINTABLE_ASCII.test(spelling)) return null;
  const key = spelling.toLowerCase();
  let canonical = canonicalBySpelling.get(key);
  let formatter: Intl.DateTimeFormat | undefined;
  if (canonical === undefined) {
    try {
      formatter = newFormatter(spelling);
    } catch {
      return null;
    }
    canonical = formatter.resolvedOptions().timeZone;
    canonicalBySpelling.set(key, canonical);
  }
  const known = formatters.get(canonical);
  if (known) return { canonical, formatter: known };
  // The zone's rules are the same whatever the spelling, so a formatter built from an alias serves its canonical name.
  formatter ??= newFormatter(canonical);
  formatters.set(canonical, formatter);
  return { canonical, formatter };
}

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  const formatter = formatters.get(timeZone) ?? resolveSpelling(timeZone)?.formatter;
  if (!formatter) throw new RangeError(`Invalid time zone: ${timeZone}`);
  return formatter;
}

/**
 * The canonical name of a time zone given in any letter case or by an alias ('AMERICA/NEW_YORK' ->
 * 'America/New_York'), or null when it is not one. A canonical name, which browsers send, is one cache hit.
 */
export function canonicalTimeZone(value: string): string | null {
  if (formatters.get(value) !== undefined) return value;
  return resolveSpelling(value)?.canonical ?? null;
}

export function isValidTimeZone(value: string): boolean {
  return canonicalTimeZone(value) !== null;
}

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export function wallTimeAt(timeZone: string, instant: number): WallTime {
  const parts = formatterFor(timeZone).formatToParts(new Date(instant));
  const value = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((part) => part.type === type)?.value);
  return {
    year: value('year'),
    month: value('month'),
    day: value('day'),
    hour: value('hour'),
    minute: value('minute'),
    second: value('second'),
  };
}

function wallTimeAsUtc(wall: WallTime): number {
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
}

/** Minutes to add to UTC to get the zone's wall-clock time at that instant. */
export function offsetMinutesAt(timeZone: string, instant: number): number {
  const wholeSecond = Math.floor(instant / 1000) * 1000;
  return Math.round((wallTimeAsUtc(wallTimeAt(timeZone, wholeSecond)) - wholeSecond) / MINUTE_MS);
}

/**
 * The instant a wall-clock time names in a zone. An ambiguous time (clocks going back) resolves to its first
 * occurrence; a time skipped by clocks going forward moves forward by the size of the gap, as Temporal's
 * 'compatible' disambiguation does.
 */
export function instantOfWallTime(timeZone: string, wall: WallTime): number {
  const wallMs = wallTimeAsUtc(wall);
  const offsetBefore = offsetMinutesAt(timeZone, wallMs - DAY_MS);
  const offsetAfter = offsetMinutesAt(timeZone, wallMs + DAY_MS);
  const candidates = [...new Set([offsetBefore, offsetAfter])]
    .map((offset) => wallMs - offset * MINUTE_MS)
    .filter((instant) => wallTimeAsUtc(wallTimeAt(timeZone, instant)) === wallMs)
    .sort((a, b) => a - b);
  if (candidates.length > 0) return candidates[0]!;
  return wallMs - offsetBefore * MINUTE_MS;
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const HHMM_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

export function parseLocalDate(value: string): LocalDate | null {
  const match = DATE_PATTERN.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day)
    return null;
  if (year < 1000) return null;
  return { year, month, day };
}

export function isValidLocalDate(value: string): boolean {
  return parseLocalDate(value) !== null;
}

export function parseHHMM(value: string): { hour: number; minute: number } | null {
  const match = HHMM_PATTERN.exec(value);
  if (!match) return null;
  return { hour: Number(match[1]), minute: Number(match[2]) };
}

function pad(value: number, length = 2): string {
  return String(value).padStart(length, '0');
}

export function formatLocalDate(date: LocalDate): string {
  return `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`;
}

export function localDateAt(timeZone: string, instant: number): string {
  return formatLocalDate(wallTimeAt(timeZone, instant));
}

export function localHHMMAt(timeZone: string, instant: number): string {
  const wall = wallTimeAt(timeZone, instant);
  return `${pad(wall.hour)}:${pad(wall.minute)}`;
}

function requireLocalDate(value: string): LocalDate {
  const date = parseLocalDate(value);
  if (!date) throw new RangeError(`Invalid local date: ${value}`);
  return date;
}

export function addDays(date: string, days: number): string {
  const { year, month, day } = requireLocalDate(date);
  const shifted = new Date(Date.UTC(year, month - 1, day + days));
  return formatLocalDate({
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
  });
}

/** 0 = Sunday .. 6 = Saturday. */
export function dayOfWeek(date: string): number {
  const { year, month, day } = requireLocalDate(date);
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}

export function instantOfLocalTime(timeZone: string, date: string, hhmm: string): number {
  const { year, month, day } = requireLocalDate(date);
  const time = parseHHMM(hhmm);
  if (!time) throw new RangeError(`Invalid HH:MM time: ${hhmm}`);
  return instantOfWallTime(timeZone, { year, month, day, hour: time.hour, minute: time.minute, second: 0 });
}

// A zone's midnights do not change while the process runs, and the busiest reads (today, a week, its seven days)
// ask for the same few again and again: each costs several Intl formatToParts calls.
export const MIDNIGHTS_KEPT = 10_000;
const midnights = new LruCache<string, number>(MIDNIGHTS_KEPT);

export function startOfLocalDay(timeZone: string, date: string): number {
  const key = `${timeZone} ${date}`;
  const known = midnights.get(key);
  if (known !== undefined) return known;
  const { year, month, day } = requireLocalDate(date);
  const instant = instantOfWallTime(timeZone, { year, month, day, hour: 0, minute: 0, second: 0 });
  midnights.set(key, instant);
  return instant;
}

/** How many entries each cache holds now (for tests). */
export function timeZoneCacheSizes(): { formatters: number; spellings: number; midnights: number } {
  return { formatters: formatters.size, spellings: canonicalBySpelling.size, midnights: midnights.size };
}

export interface InstantRange {
  start: number;
  end: number;
}

export function localDayBounds(timeZone: string, date: string): InstantRange {
  return { start: startOfLocalDay(timeZone, date), end: startOfLocalDay(timeZone, addDays(date, 1)) };
}

/** The Sunday that starts the Sunday..Saturday week containing the date. */
export function weekStartOf(date: string): string {
  return addDays(date, -dayOfWeek(date));
}

export function localDaysBetween(from: string, to: string): number {
  const a = requireLocalDate(from);
  const b = requireLocalDate(to);
  return Math.round((Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / DAY_MS);
}

const LOCAL_DATE_TIME_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * Reads an ISO 8601 date or date-time. A value with `Z` or an offset is absolute; a date-time without one is a
 * wall-clock time in the given zone; a bare date is that day's local midnight.
 */
export function parseInstant(value: string, timeZone: string): number | null {
  const match = LOCAL_DATE_TIME_PATTERN.exec(value.trim());
  if (!match) return null;
  const date = parseLocalDate(`${match[1]}-${match[2]}-${match[3]}`);
  if (!date) return null;
  const hour = match[4] === undefined ? 0 : Number(match[4]);
  const minute = match[5] === undefined ? 0 : Number(match[5]);
  const second = match[6] === undefined ? 0 : Number(match[6]);
  if (hour > 23 || minute > 59 || second > 59) return null;
  const millisecond = match[7] === undefined ? 0 : Math.floor(Number(`0.${match[7]}`) * 1000);
  const zone = match[8];
  const wall: WallTime = { ...date, hour, minute, second };
  if (zone === undefined) return instantOfWallTime(timeZone, wall) + millisecond;
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const hours = Number(digits.slice(0, 2));
    const minutes = Number(digits.slice(2, 4));
    if (hours > 23 || minutes > 59) return null;
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
  }
  return wallTimeAsUtc(wall) + millisecond - offsetMinutes * MINUTE_MS;
}
