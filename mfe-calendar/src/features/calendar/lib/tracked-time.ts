import type { TimeEntry } from '@time-wallet/api';
import { addDays, endsNextDay, formatHHMM24, toLocalDateKey } from '@time-wallet/shared-ui/lib';
import { localDayBounds } from './day-plan';

/**
 * Tracked time beside the plan: time entries (intervals the server keeps to the second, a running one without an
 * end) as bars in each day column, and the day-and-clock-times form the dialog edits them with. Entries are never
 * counted here: the day figures are the server's.
 */

const MINUTE_MS = 60_000;
const DAY_MINUTES = 1440;
/** What a drag of a bar moves or trims by: five minutes, so a bar lands on times people type. */
export const DRAG_STEP_MINUTES = 5;

/** An entry's part within one local day, placed as a share of the column (00:00 at 0, 24:00 at 1). */
export interface EntrySegment {
  entry: TimeEntry;
  /** The segment's instants: the entry's, clamped to the day (a running one up to now). */
  start: number;
  end: number;
  top: number;
  height: number;
  /** The entry goes on before the day (after it): no handle to trim it from this segment's edge. */
  continuesBefore: boolean;
  continuesAfter: boolean;
}

/** Minutes from the local midnight of `dayStart`, by the wall clock (the grid's hours), up to 1440 at its end. */
function clockMinutesOf(instant: number, dayStart: number, dayEnd: number): number {
  if (instant >= dayEnd) return DAY_MINUTES;
  if (instant <= dayStart) return 0;
  const date = new Date(instant);
  return date.getHours() * 60 + date.getMinutes() + date.getSeconds() / 60;
}

/** Where an entry ends on the timeline: its end, or now while its timer runs. */
export const entryEndOf = (entry: TimeEntry, now: number): number =>
  entry.end === null ? Math.max(now, Date.parse(entry.start)) : Date.parse(entry.end);

/** The entries' parts within a local day (YYYY-MM-DD), by start; a running entry reaches up to now. */
export function entrySegmentsOf(entries: readonly TimeEntry[], day: string, now: number): EntrySegment[] {
  const bounds = localDayBounds(day);
  const segments: EntrySegment[] = [];
  for (const entry of entries) {
    const entryStart = Date.parse(entry.start);
    const entryEnd = entryEndOf(entry, now);
    const start = Math.max(entryStart, bounds.start);
    const end = Math.min(entryEnd, bounds.end);
    if (!(end > start)) continue;
    const top = clockMinutesOf(start, bounds.start, bounds.end);
    const bottom = clockMinutesOf(end, bounds.start, bounds.end);
    segments.push({
      entry,
      start,
      end,
      top: top / DAY_MINUTES,
      height: Math.max(0, bottom - top) / DAY_MINUTES,
      continuesBefore: entryStart < bounds.start,
      continuesAfter: entryEnd > bounds.end,
    });
  }
  return segments.sort((a, b) => a.start - b.start);
}

/** What a pointer does to a bar: moves it whole, or trims its start or its end. */
export type BarDrag = 'move' | 'start' | 'end';

/**
 * An entry's instants after a drag of `deltaMinutes` (snapped to DRAG_STEP_MINUTES): a trim never makes it shorter
 * than one step, and a running entry only moves its start. Null when nothing changes.
 */
export function entryAfterDrag(
  entry: TimeEntry,
  drag: BarDrag,
  deltaMinutes: number,
): { start: string; end: string | null } | null {
  const step = Math.round(deltaMinutes / DRAG_STEP_MINUTES) * DRAG_STEP_MINUTES;
  if (step === 0) return null;
  const start = Date.parse(entry.start);
  const end = entry.end === null ? null : Date.parse(entry.end);
  const shift = step * MINUTE_MS;
  const minimum = DRAG_STEP_MINUTES * MINUTE_MS;
  const iso = (instant: number) => new Date(instant).toISOString();
  if (end === null) return drag === 'end' ? null : { start: iso(start + shift), end: null };
  if (drag === 'move') return { start: iso(start + shift), end: iso(end + shift) };
  if (drag === 'start') {
    const moved = Math.min(start + shift, end - minimum);
    return moved === start ? null : { start: iso(moved), end: iso(end) };
  }
  const moved = Math.max(end + shift, start + minimum);
  return moved === end ? null : { start: iso(start), end: iso(moved) };
}

/** What the entry dialog edits: a local day and clock times; an end before the start ends the next day. */
export interface EntryDraft {
  date: string;
  startHHMM: string;
  /** '' while the entry's timer runs (it has no end yet). */
  endHHMM: string;
}

/** An entry as the dialog shows it: the local day and clock time of its start, and of its end. */
export function draftOfEntry(entry: TimeEntry): EntryDraft {
  return {
    date: toLocalDateKey(new Date(entry.start)),
    startHHMM: formatHHMM24(entry.start),
    endHHMM: entry.end === null ? '' : formatHHMM24(entry.end),
  };
}

function localInstant(day: string, hhmm: string): Date {
  const [year, month, date] = day.split('-').map(Number);
  const [hours, minutes] = hhmm.split(':').map(Number);
  return new Date(year, month - 1, date, hours, minutes);
}

/**
 * A draft's instants as ISO strings: the start on its day, the end on the same day or, when its clock time is
 * earlier than the start's, on the next (the server's rule for tasks, `endsNextDay`). No end while it has none.
 */
export function instantsOfDraft({ date, startHHMM, endHHMM }: EntryDraft): {
  start: string;
  end: string | null;
} {
  const start = localInstant(date, startHHMM).toISOString();
  if (!endHHMM) return { start, end: null };
  const endDay = endsNextDay(startHHMM, endHHMM) ? addDays(date, 1) : date;
  return { start, end: localInstant(endDay, endHHMM).toISOString() };
}

/**
 * Where a new entry for a task starts out in the dialog: its planned block once that has ended, else the block's
 * length (an hour for an unscheduled task) up to now, on the five minutes, since tracked time cannot end later.
 */
export function draftForTask(
  task: { scheduled: boolean; start: string; end: string; estimateMinutes: number | null },
  now: Date,
): EntryDraft {
  if (task.scheduled && Date.parse(task.end) <= now.getTime()) {
    return {
      date: toLocalDateKey(new Date(task.start)),
      startHHMM: formatHHMM24(task.start),
      endHHMM: formatHHMM24(task.end),
    };
  }
  const planned = task.scheduled
    ? Math.round((Date.parse(task.end) - Date.parse(task.start)) / MINUTE_MS)
    : (task.estimateMinutes ?? 60);
  const minutes = Math.min(Math.max(planned, DRAG_STEP_MINUTES), DAY_MINUTES - DRAG_STEP_MINUTES);
  const end = new Date(now);
  end.setMinutes(end.getMinutes() - (end.getMinutes() % DRAG_STEP_MINUTES), 0, 0);
  const start = new Date(end.getTime() - minutes * MINUTE_MS);
  return { date: toLocalDateKey(start), startHHMM: formatHHMM24(start), endHHMM: formatHHMM24(end) };
}

/** A bar's name: its task, its clock times, and "now" while it runs. */
export function entryLabel(entry: TimeEntry, taskTitle: string | undefined): string {
  const until = entry.end === null ? 'now (running)' : formatHHMM24(entry.end);
  return `Tracked: ${taskTitle ?? 'a task'}, ${formatHHMM24(entry.start)} to ${until}`;
}
