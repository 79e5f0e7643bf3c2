import {
  addDays,
  formatDate,
  formatHHMM24,
  fromDateTimeLocalValue,
  toDateTimeLocalValue,
  toLocalDateKey,
} from '@time-wallet/shared-ui/lib';
import type { CalendarEvent, EventBody, EventRange } from '../api/events-api';

export const NEW_EVENT_MINUTES = 60;
export const SLOT_MINUTES = 30;
const MINUTE_MS = 60_000;
const DEFAULT_START_HOUR = '09:00';
const DEFAULT_END_HOUR = '10:00';

/** What the event modal edits: start and end as local 'YYYY-MM-DDTHH:mm' for datetime-local inputs. */
export interface EventDraft {
  title: string;
  start: string;
  end: string;
  allDay: boolean;
  /** One of the user's categories, or '' for none. */
  categoryId: string;
  /** The series' RRULE value, '' when the event does not repeat. */
  rrule: string;
}

/** The events request for a view: its first local day, and its end plus one day. */
export function rangeQueryFor(viewStart: Date, viewEnd: Date): EventRange {
  return { from: toLocalDateKey(viewStart), to: addDays(toLocalDateKey(viewEnd), 1) };
}

/** A selected range as a new event; a click selects one slot, which becomes a one-hour event. */
export function draftFromSelection(start: Date, end: Date, allDay: boolean): EventDraft {
  const isSingleSlot = end.getTime() - start.getTime() <= SLOT_MINUTES * MINUTE_MS;
  const draftEnd = isSingleSlot && !allDay ? new Date(start.getTime() + NEW_EVENT_MINUTES * MINUTE_MS) : end;
  return {
    title: '',
    start: toDateTimeLocalValue(start),
    end: toDateTimeLocalValue(draftEnd),
    allDay,
    categoryId: '',
    rrule: '',
  };
}

const LAST_START_HOUR = 23;

/**
 * A one-hour event on `day` (the day in sight), for creating without a pointer: today at the next full hour, but
 * never later than 23:00, so a late-evening draft stays on the day shown; any other day at 09:00.
 */
export function draftForDay(day: string, now: Date = new Date()): EventDraft {
  const start = new Date(`${day}T${DEFAULT_START_HOUR}`);
  if (day === toLocalDateKey(now)) start.setHours(Math.min(now.getHours() + 1, LAST_START_HOUR), 0, 0, 0);
  return draftFromSelection(start, start, false);
}

export function draftFromEvent(event: CalendarEvent): EventDraft {
  return {
    title: event.title,
    start: toDateTimeLocalValue(event.start),
    end: toDateTimeLocalValue(event.end),
    allDay: event.allDay,
    categoryId: event.categoryId,
    rrule: event.rrule,
  };
}

/** The local 'YYYY-MM-DD' a draft's date-time falls on. */
export const dayOfDraftTime = (value: string): string => value.slice(0, 10);

/**
 * The last day an all-day draft covers, for its End date input: its end is exclusive (midnight after the last day),
 * as FullCalendar and the server keep it, while people read an end date as inclusive.
 */
export function lastDayOfDraft(draft: Pick<EventDraft, 'start' | 'end'>): string {
  const end = new Date(draft.end);
  if (Number.isNaN(end.getTime())) return dayOfDraftTime(draft.end);
  const lastDay = toLocalDateKey(new Date(end.getTime() - MINUTE_MS));
  return lastDay < dayOfDraftTime(draft.start) ? dayOfDraftTime(draft.start) : lastDay;
}

/** An all-day draft from its first and last days (inclusive), as midnights. */
export function allDayTimes(firstDay: string, lastDay: string): Pick<EventDraft, 'start' | 'end'> {
  return { start: `${firstDay}T00:00`, end: `${addDays(lastDay, 1)}T00:00` };
}

/** The draft with All day turned on (whole days from the start's to the end's) or off (09:00 to 10:00 on its first day). */
export function withAllDay<D extends EventDraft>(draft: D, allDay: boolean): D {
  if (allDay === draft.allDay) return draft;
  const firstDay = dayOfDraftTime(draft.start);
  if (allDay) return { ...draft, allDay, ...allDayTimes(firstDay, lastDayOfDraft(draft)) };
  return {
    ...draft,
    allDay,
    start: `${firstDay}T${DEFAULT_START_HOUR}`,
    end: `${firstDay}T${DEFAULT_END_HOUR}`,
  };
}

/** True when both are readable local date-times and the end is strictly later. */
export function isDraftEndAfterStart(draft: Pick<EventDraft, 'start' | 'end'>): boolean {
  const start = new Date(draft.start).getTime();
  const end = new Date(draft.end).getTime();
  return !Number.isNaN(start) && !Number.isNaN(end) && end > start;
}

/**
 * The request body: local inputs become ISO UTC instants; no category is sent as null. The rule is left to the
 * caller, which sends it only when it says something (a new series, a changed rule).
 */
export function eventBodyFromDraft(draft: EventDraft): Omit<EventBody, 'rrule'> {
  return {
    title: draft.title.trim(),
    start: fromDateTimeLocalValue(draft.start),
    end: fromDateTimeLocalValue(draft.end),
    allDay: draft.allDay,
    categoryId: draft.categoryId || null,
  };
}

/** Where a dragged or resized event landed, as ISO UTC; an event without an end keeps the default length. */
export function timingAfterMove(start: Date, end: Date | null): { start: string; end: string } {
  const landedEnd = end ?? new Date(start.getTime() + NEW_EVENT_MINUTES * MINUTE_MS);
  return { start: start.toISOString(), end: landedEnd.toISOString() };
}

const dayText = (date: Date) =>
  formatDate(date, 'en-US', { weekday: 'short', month: 'short', day: 'numeric' });

/**
 * When an event happens, in words, for a dialog that shows it without inputs: "Sun, Mar 8, 14:00 – 15:00",
 * "Sun, Mar 8, 22:00 – Mon, Mar 9, 01:00", or for all-day events their days ("Sun, Mar 8 – Tue, Mar 10").
 */
export function eventTimesText({
  start,
  end,
  allDay,
}: Pick<CalendarEvent, 'start' | 'end' | 'allDay'>): string {
  const from = new Date(start);
  const to = new Date(end);
  if (allDay) {
    const lastDay = new Date(Math.max(from.getTime(), to.getTime() - MINUTE_MS));
    const first = dayText(from);
    const last = dayText(lastDay);
    return first === last ? `${first}, all day` : `${first} – ${last}`;
  }
  const sameDay = toLocalDateKey(from) === toLocalDateKey(to);
  return sameDay
    ? `${dayText(from)}, ${formatHHMM24(from)} – ${formatHHMM24(to)}`
    : `${dayText(from)}, ${formatHHMM24(from)} – ${dayText(to)}, ${formatHHMM24(to)}`;
}
