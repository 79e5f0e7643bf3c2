import { formatDate } from '@time-wallet/shared-ui/lib';

const DAY_KEY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** The days a person can plan: a date input lets any year through while it is being typed ('0002-11-20'). */
export const FIRST_DAY = '1900-01-01';
export const LAST_DAY = '9999-12-31';

const utcOf = (dayKey: string): number => {
  const [, year, month, day] = DAY_KEY_PATTERN.exec(dayKey) ?? [];
  return Date.UTC(Number(year), Number(month) - 1, Number(day));
};

/** True for a real calendar day written YYYY-MM-DD ('2026-02-30' is not one) that a person can plan. */
export function isDayKey(text: string): boolean {
  if (!DAY_KEY_PATTERN.test(text) || text < FIRST_DAY || text > LAST_DAY) return false;
  return new Date(utcOf(text)).toISOString().slice(0, 10) === text;
}

const NAMED_DAYS = new Map([
  [-1, 'yesterday'],
  [0, 'today'],
  [1, 'tomorrow'],
]);

/**
 * How the day reads next to the date: 'today', 'tomorrow', 'in 3 days', '2 days ago', in the page's English, as
 * Intl.RelativeTimeFormat('en', { numeric: 'auto' }) writes it. Written here: building that formatter loads ICU's
 * data, a long task on a phone for the first thing Today draws.
 */
export function relativeDay(day: string, today: string): string {
  const days = Math.round((utcOf(day) - utcOf(today)) / DAY_MS);
  const named = NAMED_DAYS.get(days);
  if (named !== undefined) return named;
  const count = `${String(Math.abs(days)).replace(/\B(?=(\d{3})+$)/g, ',')} days`;
  return days > 0 ? `in ${count}` : `${count} ago`;
}

/** The day in full in the person's own locale, e.g. 'Saturday, November 21, 2026' (see formatDate for its cost). */
export function longDay(day: string): string {
  return formatDate(new Date(utcOf(day)), undefined, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
