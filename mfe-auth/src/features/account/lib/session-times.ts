const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const WEEK_MS = 7 * DAY_MS;

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
// The person's own locale and zone: these are moments on their clock.
const localDateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const timeOf = (iso: string): number | null => {
  const time = new Date(iso).getTime();
  return Number.isNaN(time) ? null : time;
};

/** A moment in local date and time, e.g. 'May 12, 2026, 9:41 AM'; 'Unknown' for an unreadable one. */
export function localDateTimeText(iso: string): string {
  const time = timeOf(iso);
  return time === null ? 'Unknown' : localDateTime.format(time);
}

/**
 * How long ago a session was last used, as of `now`: 'just now', '5 minutes ago', '3 hours ago', 'yesterday',
 * '4 days ago'; after a week, the local date and time.
 */
export function lastActiveText(iso: string, now: number): string {
  const time = timeOf(iso);
  if (time === null) return 'Unknown';
  const ago = Math.max(0, now - time);
  if (ago < MINUTE_MS) return 'just now';
  if (ago < HOUR_MS) return relative.format(-Math.floor(ago / MINUTE_MS), 'minute');
  if (ago < DAY_MS) return relative.format(-Math.floor(ago / HOUR_MS), 'hour');
  if (ago < WEEK_MS) return relative.format(-Math.floor(ago / DAY_MS), 'day');
  return localDateTime.format(time);
}
