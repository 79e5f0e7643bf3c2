import {
  addDays,
  fromDateTimeLocalValue,
  toDateTimeLocalValue,
  toLocalDateKey,
} from '@time-wallet/shared-ui/lib';
import type { CalendarEvent, EventBody, EventRange } from '../api/events-api';

export const NEW_EVENT_MINUTES = 60;
export const SLOT_MINUTES = 30;
const MINUTE_MS = 60_000;

/** What the event modal edits: start and end as local 'YYYY-MM-DDTHH:mm' for datetime-local inputs. */
export interface EventDraft {
  title: string;
  start: string;
  end: string;
  allDay: boolean;
  /** One of the user's categories, or '' for none. */
  categoryId: string;
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
  };
}

/** A one-hour event starting at the next full hour, for creating without a pointer. */
export function draftForNextHour(now: Date = new Date()): EventDraft {
  const start = new Date(now);
  start.setHours(start.getHours() + 1, 0, 0, 0);
  return draftFromSelection(start, start, false);
}

export function draftFromEvent(event: CalendarEvent): EventDraft {
  return {
    title: event.title,
    start: toDateTimeLocalValue(event.start),
    end: toDateTimeLocalValue(event.end),
    allDay: event.allDay,
    categoryId: event.categoryId,
  };
}

/** True when both are readable local date-times and the end is strictly later. */
export function isDraftEndAfterStart(draft: Pick<EventDraft, 'start' | 'end'>): boolean {
  const start = new Date(draft.start).getTime();
  const end = new Date(draft.end).getTime();
  return !Number.isNaN(start) && !Number.isNaN(end) && end > start;
}

/** The request body: local inputs become ISO UTC instants; no category is sent as null. */
export function eventBodyFromDraft(draft: EventDraft): EventBody {
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
