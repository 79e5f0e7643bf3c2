import type { Calendar } from '@time-wallet/api';
import type { CalendarRefresh } from '../api/calendars-api';
import type { CalendarEvent } from '../api/events-api';

/** What the grid needs of an event's calendar: the colour a subscribed event is drawn in, and its name. */
export interface CalendarLook {
  name: string;
  color: string;
  countsInBudget: boolean;
}

export type CalendarLooks = ReadonlyMap<string, CalendarLook>;

/** The name the own calendar has until the list is read (the server's default). */
export const OWN_CALENDAR_FALLBACK_NAME = 'My calendar';

export function calendarLooksOf(calendars: readonly Calendar[]): CalendarLooks {
  return new Map(
    calendars.map(({ id, name, color, countsInBudget }) => [id, { name, color, countsInBudget }]),
  );
}

/**
 * Whether an event's time spends the wallet: its calendar's switch. An event of a calendar not read yet counts, as
 * the own calendar's always do.
 */
export const countsInBudget = (event: CalendarEvent, looks: CalendarLooks): boolean =>
  looks.get(event.calendarId)?.countsInBudget !== false;

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** "12 events", "1 event" (a series counts once). */
export const eventCountText = (count: number) => plural(count, 'event');

/** What a refresh changed: "Up to date", or "3 new, 1 changed, 2 removed" (the counts that are not zero). */
export function refreshSummaryText({ created, updated, deleted, unchanged }: CalendarRefresh): string {
  const parts = [
    created > 0 && `${created} new`,
    updated > 0 && `${updated} changed`,
    deleted > 0 && `${deleted} removed`,
  ].filter(Boolean);
  return unchanged || parts.length === 0 ? 'Up to date' : parts.join(', ');
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago": how long ago an instant was. */
export function timeAgoText(iso: string, now: number = Date.now()): string {
  const elapsed = Math.max(0, now - Date.parse(iso));
  if (elapsed < MINUTE_MS) return 'just now';
  if (elapsed < HOUR_MS) return `${plural(Math.floor(elapsed / MINUTE_MS), 'minute')} ago`;
  if (elapsed < DAY_MS) return `${plural(Math.floor(elapsed / HOUR_MS), 'hour')} ago`;
  return `${plural(Math.floor(elapsed / DAY_MS), 'day')} ago`;
}
