import { addDays } from '@time-wallet/shared-ui/lib';

/** What a grid shows: the week time grid, its one-day form on phones, or the month. */
export type GridKind = 'week' | 'day' | 'month';

/** A month view is six whole weeks (FullCalendar's fixedWeekCount), so its height never changes. */
const MONTH_VIEW_DAYS = 42;

function weekdayOf(dayKey: string): number {
  const [year, month, day] = dayKey.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}

/**
 * The days FullCalendar shows for a grid around `day`, weeks starting on Sunday (its firstDay 0): the same range its
 * datesSet reports once it is there, so the frame drawn before it can ask for the data of exactly those days.
 */
export function viewDaysOf(kind: GridKind, day: string): string[] {
  let first = day;
  let count = 1;
  if (kind === 'week') {
    first = addDays(day, -weekdayOf(day));
    count = 7;
  } else if (kind === 'month') {
    const firstOfMonth = `${day.slice(0, 8)}01`;
    first = addDays(firstOfMonth, -weekdayOf(firstOfMonth));
    count = MONTH_VIEW_DAYS;
  }
  return Array.from({ length: count }, (_, index) => addDays(first, index));
}

/** A 'YYYY-MM-DD' day as the local midnight that starts it, as FullCalendar gives a view's start. */
export function localMidnightOf(dayKey: string): Date {
  const [year, month, day] = dayKey.split('-').map(Number);
  return new Date(year, month - 1, day);
}

/** The grids' title: the month, or the two months (and years) a week spans. */
export const TITLE_FORMAT = { year: 'numeric', month: 'long' } as const;

/** Where the week grid's hours are scrolled to first. */
export const SCROLL_TIME = '06:00:00';

/** Days from a month view's first day to a day surely inside its month: it starts at most six days before the 1st. */
const INTO_THE_MONTH_DAYS = 14;

/**
 * The day a switch of view keeps in sight, from the range the grid shows ({from, to}: to is its end plus one day):
 * the first of `wanted` (the day last gone to, today) that the grid shows, else the month's first day, or the week's
 * (or the day's) first day. Week to month then opens that week's month, and month to week the week of that day.
 */
export function dayInSightOf(
  kind: 'week' | 'month',
  range: { from: string; to: string },
  wanted: readonly string[],
): string {
  if (kind === 'month') {
    const month = addDays(range.from, INTO_THE_MONTH_DAYS).slice(0, 7);
    return wanted.find((day) => day.startsWith(`${month}-`)) ?? `${month}-01`;
  }
  const lastDay = addDays(range.to, -2);
  return wanted.find((day) => range.from <= day && day <= lastDay) ?? range.from;
}
