import { aTask, anUnscheduledTask } from '@time-wallet/api/testing';
import { formatHHMM24, formatTime12, TITLE_REQUIRED_MESSAGE } from '@time-wallet/shared-ui/lib';
import {
  categoryOf,
  draftOf,
  END_BEFORE_START_MESSAGE,
  ESTIMATE_MESSAGE,
  endsNextDay,
  instantAt,
  instantsOf,
  minutesTyped,
  newTaskBody,
  taskDraftErrors,
  taskEditBody,
  TIMES_OR_ESTIMATE_MESSAGE,
  TIMES_REQUIRED_MESSAGE,
  type Task,
  type TaskDraft,
} from './task';

const task = (changes: Partial<Task> = {}): Task =>
  aTask({
    _id: 't1',
    title: 'Gym',
    categoryId: 'c1',
    date: '2026-11-20',
    start: instantAt('2026-11-20', '09:00'),
    end: instantAt('2026-11-20', '10:00'),
    ...changes,
  });

const draft: TaskDraft = {
  title: 'Gym',
  categoryId: '',
  startHHMM: '09:00',
  endHHMM: '09:01',
  estimateMinutes: '',
  notes: '',
};

describe('taskDraftErrors', () => {
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

  it('takes an estimate instead of both times, and asks for one or the other when there is neither', () => {
    const noTimes = { ...draft, startHHMM: '', endHHMM: '' };
    expect(taskDraftErrors({ ...noTimes, estimateMinutes: '45' })).toEqual({});
    expect(taskDraftErrors(noTimes)).toEqual({ estimateMinutes: TIMES_OR_ESTIMATE_MESSAGE });
    expect(taskDraftErrors({ ...draft, estimateMinutes: '30' })).toEqual({});
  });

  it.each(['0', '1441', '12.5', 'soon', '-5'])('refuses an estimate of %p minutes', (estimate) => {
    expect(taskDraftErrors({ ...draft, startHHMM: '', endHHMM: '', estimateMinutes: estimate })).toEqual({
      estimateMinutes: ESTIMATE_MESSAGE,
    });
    expect(taskDraftErrors({ ...draft, estimateMinutes: estimate })).toEqual({
      estimateMinutes: ESTIMATE_MESSAGE,
    });
  });

  it('still wants both times when only one is given, estimate or not', () => {
    expect(taskDraftErrors({ ...draft, endHHMM: '', estimateMinutes: '45' })).toEqual({
      endHHMM: TIMES_REQUIRED_MESSAGE,
    });
  });
});

describe('minutesTyped', () => {
  it('reads whole minutes from the lowest allowed to a day, blank as none', () => {
    expect(minutesTyped(' 90 ', 1)).toBe(90);
    expect(minutesTyped('0', 0)).toBe(0);
    expect(minutesTyped('1440', 1)).toBe(1440);
    expect(minutesTyped('', 1)).toBeNull();
    expect(minutesTyped('0', 1)).toBeNaN();
    expect(minutesTyped('1441', 0)).toBeNaN();
  });
});

describe('newTaskBody', () => {
  it("sends a scheduled task's times on its day, as SPEC's create does", () => {
    expect(newTaskBody({ ...draft, title: 'Read', categoryId: 'c1' }, '2026-11-21')).toEqual({
      title: 'Read',
      categoryId: 'c1',
      startHHMM: '09:00',
      endHHMM: '09:01',
      notes: '',
      date: '2026-11-21',
      isEvent: false,
      isReminder: false,
      carryover: false,
    });
  });

  it('leaves the times out and sends the estimate for an unscheduled task', () => {
    const body = newTaskBody({ ...draft, startHHMM: '', endHHMM: '', estimateMinutes: '90' }, '2026-11-21');
    expect(body).toMatchObject({ estimateMinutes: 90, date: '2026-11-21' });
    expect(body).not.toHaveProperty('startHHMM');
    expect(body).not.toHaveProperty('endHHMM');
  });
});

describe('taskEditBody', () => {
  it('sends the whole edited task with its instants, and the estimate only when it changed', () => {
    const body = taskEditBody(task(), { ...draft, endHHMM: '11:00', categoryId: 'c1' });
    expect(body).toEqual({
      title: 'Gym',
      categoryId: 'c1',
      notes: '',
      startHHMM: '09:00',
      endHHMM: '11:00',
      date: '2026-11-20',
      start: instantAt('2026-11-20', '09:00'),
      end: instantAt('2026-11-20', '11:00'),
    });
    expect(taskEditBody(task(), { ...draft, estimateMinutes: '50' })).toMatchObject({ estimateMinutes: 50 });
    expect(taskEditBody(task({ estimateMinutes: 50 }), { ...draft, estimateMinutes: '' })).toMatchObject({
      estimateMinutes: null,
    });
  });

  it('unschedules a task whose times were both cleared', () => {
    const body = taskEditBody(task(), { ...draft, startHHMM: '', endHHMM: '', estimateMinutes: '40' });
    expect(body).toEqual({
      title: 'Gym',
      categoryId: '',
      notes: '',
      startHHMM: null,
      endHHMM: null,
      estimateMinutes: 40,
    });
  });
});

describe('draftOf', () => {
  it('shows no times for an unscheduled task, and its estimate', () => {
    expect(draftOf(anUnscheduledTask({ estimateMinutes: 45 }))).toMatchObject({
      startHHMM: '',
      endHHMM: '',
      estimateMinutes: '45',
    });
  });

  it("shows a scheduled task's local clock times and no estimate when it has none", () => {
    expect(draftOf(task())).toMatchObject({ startHHMM: '09:00', endHHMM: '10:00', estimateMinutes: '' });
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
