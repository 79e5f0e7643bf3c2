import { formatHHMM24, formatTime12, TITLE_REQUIRED_MESSAGE } from '@time-wallet/shared-ui/lib';
import {
  categoryOf,
  END_BEFORE_START_MESSAGE,
  endsNextDay,
  instantAt,
  instantsOf,
  taskDraftErrors,
  TIMES_REQUIRED_MESSAGE,
  type Task,
} from './task';

const task = (changes: Partial<Task> = {}): Task => ({
  _id: 't1',
  title: 'Gym',
  categoryId: 'c1',
  startHHMM: '09:00',
  endHHMM: '10:00',
  notes: '',
  date: '2026-11-20',
  start: instantAt('2026-11-20', '09:00'),
  end: instantAt('2026-11-20', '10:00'),
  done: false,
  dismissed: false,
  isEvent: false,
  isReminder: false,
  carryover: false,
  ...changes,
});

describe('taskDraftErrors', () => {
  const draft = { title: 'Gym', categoryId: '', startHHMM: '09:00', endHHMM: '09:01', notes: '' };

  it('accepts an end after the start, and an earlier end as the next day', () => {
    expect(taskDraftErrors(draft)).toEqual({});
    expect(taskDraftErrors({ ...draft, startHHMM: '23:00', endHHMM: '01:00' })).toEqual({});
    expect(endsNextDay({ startHHMM: '23:00', endHHMM: '01:00' })).toBe(true);
    expect(endsNextDay({ startHHMM: '09:00', endHHMM: '10:00' })).toBe(false);
  });

  it('refuses equal times, missing times and a title that is blank once trimmed', () => {
    expect(taskDraftErrors({ ...draft, endHHMM: '09:00' })).toEqual({ endHHMM: END_BEFORE_START_MESSAGE });
    expect(taskDraftErrors({ ...draft, startHHMM: '' })).toEqual({ endHHMM: TIMES_REQUIRED_MESSAGE });
    expect(taskDraftErrors({ ...draft, endHHMM: '' })).toEqual({ endHHMM: TIMES_REQUIRED_MESSAGE });
    expect(taskDraftErrors({ ...draft, title: '  \t ' })).toEqual({ title: TITLE_REQUIRED_MESSAGE });
  });
});

describe('instantsOf', () => {
  it('puts an end earlier than the start on the next day', () => {
    expect(instantsOf('2026-11-21', { startHHMM: '23:00', endHHMM: '01:30' })).toEqual({
      start: instantAt('2026-11-21', '23:00'),
      end: instantAt('2026-11-22', '01:30'),
    });
    expect(instantsOf('2026-11-21', { startHHMM: '09:00', endHHMM: '10:00' }).end).toBe(
      instantAt('2026-11-21', '10:00'),
    );
  });
});

describe('instantAt', () => {
  it('is the local day at the local clock time', () => {
    const instant = new Date(instantAt('2026-11-21', '18:45'));
    expect([instant.getFullYear(), instant.getMonth() + 1, instant.getDate()]).toEqual([2026, 11, 21]);
    expect(formatHHMM24(instant)).toBe('18:45');
  });
});

describe('time formats', () => {
  it('shows 24-hour HH:MM on Today and 12-hour AM/PM on Yesterday', () => {
    const evening = instantAt('2026-11-20', '18:05');
    expect(formatHHMM24(evening)).toBe('18:05');
    expect(formatTime12(new Date(evening))).toBe('6:05 PM');
    expect(formatTime12(new Date(instantAt('2026-11-20', '00:30')))).toBe('12:30 AM');
    expect(formatTime12(new Date(instantAt('2026-11-20', '12:00')))).toBe('12:00 PM');
  });
});

describe('categoryOf', () => {
  it('finds the name and colour, with the default green for a colourless category', () => {
    expect(categoryOf(task(), [{ _id: 'c1', name: 'Health', color: '#E0533D' }])).toEqual({
      name: 'Health',
      color: '#E0533D',
    });
    expect(categoryOf(task(), [{ _id: 'c1', name: 'Health', color: '' }])).toEqual({
      name: 'Health',
      color: '#2D967C',
    });
  });

  it('finds nothing for an unmatched or empty category id', () => {
    expect(categoryOf(task({ categoryId: 'gone' }), [{ _id: 'c1', name: 'Health', color: '' }])).toBeNull();
    expect(categoryOf(task({ categoryId: '' }), [{ _id: 'c1', name: 'Health', color: '' }])).toBeNull();
  });
});
