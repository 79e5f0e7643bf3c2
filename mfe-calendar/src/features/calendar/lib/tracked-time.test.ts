import { aTimeEntry } from '@time-wallet/api/testing';
import {
  draftForTask,
  draftOfEntry,
  entryAfterDrag,
  entryLabel,
  entrySegmentsOf,
  instantsOfDraft,
} from './tracked-time';

// Local wall-clock instants, so the expectations hold in any time zone.
const at = (day: number, hours: number, minutes = 0) => new Date(2026, 2, day, hours, minutes);
const iso = (day: number, hours: number, minutes = 0) => at(day, hours, minutes).toISOString();
const entry = (start: Date, end: Date | null, id = 'entry-1') =>
  aTimeEntry({ id, start: start.toISOString(), end: end?.toISOString() ?? null });

describe('entrySegmentsOf', () => {
  it("places an entry in its day's column as a share of the 24 hours", () => {
    const [segment] = entrySegmentsOf([entry(at(10, 6), at(10, 12))], '2026-03-10', +at(10, 20));
    expect(segment.top).toBeCloseTo(0.25);
    expect(segment.height).toBeCloseTo(0.25);
    expect([segment.continuesBefore, segment.continuesAfter]).toEqual([false, false]);
  });

  it('splits an entry over midnight between the two days', () => {
    const overnight = entry(at(10, 22), at(11, 2));
    const [before] = entrySegmentsOf([overnight], '2026-03-10', +at(12, 0));
    const [after] = entrySegmentsOf([overnight], '2026-03-11', +at(12, 0));
    expect(before.top + before.height).toBeCloseTo(1);
    expect(before.continuesAfter).toBe(true);
    expect(after.top).toBe(0);
    expect(after.height).toBeCloseTo(2 / 24);
    expect(after.continuesBefore).toBe(true);
    expect(entrySegmentsOf([overnight], '2026-03-12', +at(12, 0))).toEqual([]);
  });

  it('draws a running entry up to now', () => {
    const [segment] = entrySegmentsOf([entry(at(10, 9), null)], '2026-03-10', +at(10, 15));
    expect(segment.height).toBeCloseTo(6 / 24);
    expect(segment.end).toBe(+at(10, 15));
  });
});

describe('entryAfterDrag', () => {
  const forty = entry(at(10, 9), at(10, 9, 40));

  it('moves both ends by the drag, in steps of five minutes', () => {
    expect(entryAfterDrag(forty, 'move', 31)).toEqual({ start: iso(10, 9, 30), end: iso(10, 10, 10) });
    expect(entryAfterDrag(forty, 'move', 2)).toBeNull();
  });

  it('trims one end, never below five minutes', () => {
    expect(entryAfterDrag(forty, 'end', -20)).toEqual({ start: iso(10, 9), end: iso(10, 9, 20) });
    expect(entryAfterDrag(forty, 'end', -90)).toEqual({ start: iso(10, 9), end: iso(10, 9, 5) });
    expect(entryAfterDrag(forty, 'start', 90)).toEqual({ start: iso(10, 9, 35), end: iso(10, 9, 40) });
    expect(entryAfterDrag(forty, 'start', -15)).toEqual({ start: iso(10, 8, 45), end: iso(10, 9, 40) });
  });

  it('moves only the start of a running entry', () => {
    const running = entry(at(10, 9), null);
    expect(entryAfterDrag(running, 'move', 10)).toEqual({ start: iso(10, 9, 10), end: null });
    expect(entryAfterDrag(running, 'end', 10)).toBeNull();
  });
});

describe('the dialog draft', () => {
  it('reads an entry as its local day and clock times', () => {
    expect(draftOfEntry(entry(at(10, 9, 5), at(10, 9, 40)))).toEqual({
      date: '2026-03-10',
      startHHMM: '09:05',
      endHHMM: '09:40',
    });
    expect(draftOfEntry(entry(at(10, 9), null)).endHHMM).toBe('');
  });

  it('ends the next day when the end clock time is earlier than the start', () => {
    expect(instantsOfDraft({ date: '2026-03-10', startHHMM: '09:00', endHHMM: '10:30' })).toEqual({
      start: iso(10, 9),
      end: iso(10, 10, 30),
    });
    expect(instantsOfDraft({ date: '2026-03-10', startHHMM: '23:00', endHHMM: '01:00' })).toEqual({
      start: iso(10, 23),
      end: iso(11, 1),
    });
    expect(instantsOfDraft({ date: '2026-03-10', startHHMM: '09:00', endHHMM: '' }).end).toBeNull();
  });

  it("starts a new entry on the task's block once it has ended, else on its length up to now", () => {
    const block = { scheduled: true, start: iso(10, 9), end: iso(10, 10), estimateMinutes: null };
    expect(draftForTask(block, at(10, 12))).toEqual({
      date: '2026-03-10',
      startHHMM: '09:00',
      endHHMM: '10:00',
    });
    expect(draftForTask(block, at(10, 9, 47))).toEqual({
      date: '2026-03-10',
      startHHMM: '08:45',
      endHHMM: '09:45',
    });
    const unscheduled = { scheduled: false, start: iso(10, 0), end: iso(10, 0), estimateMinutes: 30 };
    expect(draftForTask(unscheduled, at(10, 0, 10))).toEqual({
      date: '2026-03-09',
      startHHMM: '23:40',
      endHHMM: '00:10',
    });
  });
});

it('names a bar by its task and times, a running one up to now', () => {
  expect(entryLabel(entry(at(10, 9), at(10, 9, 40)), 'Write report')).toBe(
    'Tracked: Write report, 09:00 to 09:40',
  );
  expect(entryLabel(entry(at(10, 9), null), undefined)).toBe('Tracked: a task, 09:00 to now (running)');
});
