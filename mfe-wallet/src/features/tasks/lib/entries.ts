import type { FieldErrors, TimeEntry } from '@time-wallet/api';
import type { NewTimeEntry, TimeEntryChange } from '@time-wallet/api/time-entries';
import { addDays, endsNextDay, formatHHMM24, toLocalDateKey } from '@time-wallet/shared-ui/lib';
import { END_BEFORE_START_MESSAGE, instantAt, TIMES_REQUIRED_MESSAGE } from './task';

/** What an entry form lets a person type: two local clock times, 'HH:MM'. */
export interface EntryDraft {
  start: string;
  end: string;
}

export type EntryField = keyof EntryDraft;
export const ENTRY_FIELDS: readonly EntryField[] = ['start', 'end'];

const pad2 = (value: number) => String(value).padStart(2, '0');

/** A local clock time of an instant, to the second when it has seconds ('09:00:17'), else to the minute ('09:00'). */
export function clockOf(instant: string): string {
  const date = new Date(instant);
  const seconds = date.getSeconds();
  return seconds === 0 ? formatHHMM24(date) : `${formatHHMM24(date)}:${pad2(seconds)}`;
}

/** The entries of a task among the day's, by start. */
export const entriesOfTask = (entries: readonly TimeEntry[], taskId: string): TimeEntry[] =>
  entries
    .filter((entry) => entry.taskId === taskId)
    .sort((a, b) => Date.parse(a.start) - Date.parse(b.start));

/** What an entry's edit form starts from: its clock times to the minute (a running one has no end yet). */
export const entryDraftOf = (entry: TimeEntry): EntryDraft => ({
  start: formatHHMM24(entry.start),
  end: entry.end === null ? '' : formatHHMM24(entry.end),
});

/** What is wrong before anything is sent: a missing time, or no time between them. An earlier end is the next day. */
export function entryDraftErrors(draft: EntryDraft): FieldErrors<EntryField> {
  if (!draft.start || !draft.end) return { end: TIMES_REQUIRED_MESSAGE };
  if (draft.start === draft.end) return { end: END_BEFORE_START_MESSAGE };
  return {};
}

/** The instants of a draft typed on `day`: the end on the next day when its clock time is before the start's. */
function instantsOf(day: string, draft: EntryDraft) {
  return {
    start: instantAt(day, draft.start),
    end: instantAt(endsNextDay(draft.start, draft.end) ? addDays(day, 1) : day, draft.end),
  };
}

/** POST /time-entries for a checked draft typed on the day shown. */
export const newEntryBody = (taskId: string, day: string, draft: EntryDraft): NewTimeEntry => ({
  taskId,
  ...instantsOf(day, draft),
});

/**
 * PATCH /time-entries/{id} for a checked draft, or null when nothing changed. Only a time retyped is sent, so an
 * untouched one keeps the seconds the timer recorded. The times are read on the entry's own start day.
 */
export function entryChangeOf(entry: TimeEntry, draft: EntryDraft): TimeEntryChange | null {
  const before = entryDraftOf(entry);
  const instants = instantsOf(toLocalDateKey(new Date(entry.start)), draft);
  const change: TimeEntryChange = { id: entry.id };
  if (draft.start !== before.start) change.start = instants.start;
  // A retyped start may move the end across midnight (23:50 before 00:40): then the end moves a day with it.
  const endMoved = entry.end !== null && Math.abs(Date.parse(instants.end) - Date.parse(entry.end)) >= 60_000;
  if (draft.end !== before.end || endMoved) change.end = instants.end;
  return change.start === undefined && change.end === undefined ? null : change;
}

/** An entry's length in seconds at `now` (a running one runs until now). */
export const entrySecondsAt = (entry: TimeEntry, now: number): number =>
  Math.max(0, ((entry.end === null ? now : Date.parse(entry.end)) - Date.parse(entry.start)) / 1000);
