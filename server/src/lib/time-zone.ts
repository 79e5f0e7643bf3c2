const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

export function isValidTimeZone(value: string): boolean {
  if (value.length === 0 || value.length > 64) return false;
  try {
    formatterFor(value);
    return true;
  } catch {
    return false;
  }
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
// ask for the same few again and again: each costs several Intl formatToParts calls. Bounded by clearing when full.
const midnights = new Map<string, number>();
const MIDNIGHTS_KEPT = 10_000;

export function startOfLocalDay(timeZone: string, date: string): number {
  const key = `${timeZone} ${date}`;
  const known = midnights.get(key);
  if (known !== undefined) return known;
  const { year, month, day } = requireLocalDate(date);
  const instant = instantOfWallTime(timeZone, { year, month, day, hour: 0, minute: 0, second: 0 });
  if (midnights.size >= MIDNIGHTS_KEPT) midnights.clear();
  midnights.set(key, instant);
  return instant;
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
