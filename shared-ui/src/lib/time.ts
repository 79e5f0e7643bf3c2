const HHMM_PATTERN = /^([01]?\d|2[0-3]):([0-5]\d)$/;
const DATE_KEY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

const pad2 = (value: number): string => String(value).padStart(2, '0');

function toValidDate(value: Date | string): Date | null {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** 'HH:MM' in the browser's local time, 24-hour clock; '' for an unreadable date. */
export function formatHHMM24(value: Date | string): string {
  const date = toValidDate(value);
  return date ? `${pad2(date.getHours())}:${pad2(date.getMinutes())}` : '';
}

/** 'h:MM AM/PM' from an 'HH:MM' text or a date (local time); '' for an unreadable value. */
export function formatTime12(value: string | Date): string {
  let minutesOfDay: number;
  if (typeof value === 'string' && HHMM_PATTERN.test(value)) {
    minutesOfDay = hhmmToMinutes(value);
  } else {
    const date = toValidDate(value);
    if (!date) return '';
    minutesOfDay = date.getHours() * 60 + date.getMinutes();
  }
  const hours24 = Math.floor(minutesOfDay / 60);
  const hours12 = hours24 % 12 === 0 ? 12 : hours24 % 12;
  return `${hours12}:${pad2(minutesOfDay % 60)} ${hours24 < 12 ? 'AM' : 'PM'}`;
}

/** Whether the text is a real calendar day written 'YYYY-MM-DD' (2026-02-30 is not). */
export function isDateKey(value: string): boolean {
  if (!DATE_KEY_PATTERN.test(value)) return false;
  const [year, month, day] = value.split('-').map(Number);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The local calendar day of a date as 'YYYY-MM-DD'. */
export function toLocalDateKey(date: Date = new Date()): string {
  return `${date.getFullYear()}-${pad2(date.getMonth() + 1)}-${pad2(date.getDate())}`;
}

/** Moves a 'YYYY-MM-DD' day key by whole days; calendar arithmetic, unaffected by DST changes. */
export function addDays(dateKey: string, days: number): string {
  const [year, month, day] = dateKey.split('-').map(Number);
  const moved = new Date(Date.UTC(year, month - 1, day + days));
  if (!DATE_KEY_PATTERN.test(dateKey) || Number.isNaN(moved.getTime())) {
    throw new RangeError(`Not a YYYY-MM-DD day: "${dateKey}"`);
  }
  return `${moved.getUTCFullYear()}-${pad2(moved.getUTCMonth() + 1)}-${pad2(moved.getUTCDate())}`;
}

/** The value an <input type="datetime-local"> expects: 'YYYY-MM-DDTHH:mm' in local time. */
export function toDateTimeLocalValue(value: Date | string): string {
  const date = toValidDate(value);
  return date ? `${toLocalDateKey(date)}T${formatHHMM24(date)}` : '';
}

/** Reads an <input type="datetime-local"> value (local time) as an ISO UTC string. */
export function fromDateTimeLocalValue(value: string): string {
  const date = toValidDate(value);
  if (!date) throw new RangeError(`Not a date and time: "${value}"`);
  return date.toISOString();
}

/** Minutes since midnight for 'HH:MM'; NaN when the text is not a 24-hour time. */
export function hhmmToMinutes(hhmm: string): number {
  const match = HHMM_PATTERN.exec(hhmm);
  return match ? Number(match[1]) * 60 + Number(match[2]) : Number.NaN;
}

/** True when both are valid 'HH:MM' times and the end is strictly later on the same day. */
export function isEndAfterStart(startHHMM: string, endHHMM: string): boolean {
  return hhmmToMinutes(endHHMM) > hhmmToMinutes(startHHMM);
}

type TemporalNow = { Now?: { timeZoneId?: () => string } };

/**
 * The browser's IANA time zone, sent to the server so "today" is the user's day. Temporal names it at no cost where the
 * browser has it; Intl.DateTimeFormat first builds a formatter with its locale's data, about 40 ms of a start-up's
 * main thread on a phone (150 ms at Lighthouse's 4x CPU), for the same name (Chromium 150, also under an emulated zone).
 */
export function browserTimeZone(): string {
  try {
    const zone = (globalThis as { Temporal?: TemporalNow }).Temporal?.Now?.timeZoneId?.();
    if (zone) return zone;
  } catch {
    // Intl answers below.
  }
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** A length in whole minutes as people read it: '45 min', '2 h', '1 h 30 min' (estimates, tracked time). */
export function formatMinutes(minutes: number): string {
  const whole = Math.max(0, Math.round(minutes));
  const hours = Math.floor(whole / 60);
  const rest = whole % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}
