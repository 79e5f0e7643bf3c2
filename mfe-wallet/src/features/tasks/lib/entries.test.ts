import { aTimeEntry } from '@time-wallet/api/testing';
import { addDays } from '@time-wallet/shared-ui/lib';
import {
  clockOf,
  entriesOfTask,
  entryChangeOf,
  entryDraftErrors,
  entryDraftOf,
  entrySecondsAt,
  newEntryBody,
} from './entries';
import { instantAt } from './task';

const DAY = '2026-11-20';
const at = (clock: string, day = DAY) => new Date(`${day}T${clock}`).toISOString();

describe('clockOf', () => {
  it('writes a local clock time to the minute, and to the second when it has seconds', () => {
    expect(clockOf(at('09:05:00'))).toBe('09:05');
    expect(clockOf(at('09:05:17'))).toBe('09:05:17');
  });
});

describe('entriesOfTask', () => {
  it("keeps the task's entries, by start", () => {
    const late = aTimeEntry({ id: 'late', taskId: 't1', start: at('15:00'), end: at('16:00') });
    const early = aTimeEntry({ id: 'early', taskId: 't1', start: at('08:00'), end: at('09:00') });
    const other = aTimeEntry({ id: 'other', taskId: 't2' });
    expect(entriesOfTask([late, other, early], 't1').map((entry) => entry.id)).toEqual(['early', 'late']);
  });
});

describe('entryDraftErrors', () => {
  it('needs both times and some time between them; an earlier end is the next day', () => {
    expect(entryDraftErrors({ start: '09:00', end: '' })).toEqual({
      end: 'Start time and end time are required.',
    });
    expect(entryDraftErrors({ start: '09:00', end: '09:00' })).toEqual({
      end: 'End time must be after start time.',
    });
    expect(entryDraftErrors({ start: '23:00', end: '01:00' })).toEqual({});
  });
});

describe('newEntryBody', () => {
  it('reads the times on the day shown, an earlier end on the next day', () => {
    expect(newEntryBody('t1', DAY, { start: '09:00', end: '10:15' })).toEqual({
      taskId: 't1',
      start: instantAt(DAY, '09:00'),
      end: instantAt(DAY, '10:15'),
    });
    expect(newEntryBody('t1', DAY, { start: '23:30', end: '00:20' }).end).toBe(
      instantAt(addDays(DAY, 1), '00:20'),
    );
  });
});

describe('entryChangeOf', () => {
  const entry = aTimeEntry({ id: 'e1', taskId: 't1', start: at('09:00:17'), end: at('09:40:52') });

  it('starts from the clock times to the minute', () => {
    expect(entryDraftOf(entry)).toEqual({ start: '09:00', end: '09:40' });
  });

  it('sends only the time retyped, so the other keeps its seconds', () => {
    expect(entryChangeOf(entry, { start: '09:00', end: '10:00' })).toEqual({ id: 'e1', end: at('10:00') });
    expect(entryChangeOf(entry, { start: '08:30', end: '09:40' })).toEqual({ id: 'e1', start: at('08:30') });
  });

  it('sends nothing when nothing changed', () => {
    expect(entryChangeOf(entry, { start: '09:00', end: '09:40' })).toBeNull();
  });

  it('moves the end a day on when the start retyped puts it past midnight', () => {
    const afterMidnight = aTimeEntry({ id: 'e2', start: at('00:10'), end: at('00:40') });
    expect(entryChangeOf(afterMidnight, { start: '23:50', end: '00:40' })).toEqual({
      id: 'e2',
      start: at('23:50'),
      end: at('00:40', addDays(DAY, 1)),
    });
  });
});

describe('entrySecondsAt', () => {
  it('is the length to the second, a running entry up to now', () => {
    expect(entrySecondsAt(aTimeEntry({ start: at('09:00:00'), end: at('09:01:04') }), 0)).toBe(64);
    const running = aTimeEntry({ start: at('09:00:00'), end: null });
    expect(entrySecondsAt(running, Date.parse(at('09:00:40')))).toBe(40);
  });
});
