import { aTask, anUnscheduledTask } from '@time-wallet/api/testing';
import { formatHHMM24, formatTime12, TITLE_REQUIRED_MESSAGE } from '@time-wallet/shared-ui/lib';
import {
  categoryOf,
  draftOf,
  END_BEFORE_START_MESSAGE,
  ESTIMATE_MESSAGE,
  instantAt,
  instantsOf,
  minutesTyped,
  draftsEqual,
  newTaskBody,
  repeatStartOf,
  repeatWords,
  ruleChanged,
  ruleForStart,
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

const DAY = '2026-11-20';
const draft: TaskDraft = {
  title: 'Gym',
  categoryId: '',
  startHHMM: '09:00',
  endHHMM: '09:01',
  estimateMinutes: '',
  notes: '',
  rrule: '',
};

describe('taskDraftErrors', () => {
  it('accepts an end after the start, and an earlier end as the next day', () => {
    expect(taskDraftErrors(draft, DAY)).toEqual({});
    expect(taskDraftErrors({ ...draft, startHHMM: '23:00', endHHMM: '01:00' }, DAY)).toEqual({});
  });

  it('refuses equal times, missing times and a title that is blank once trimmed', () => {
    expect(taskDraftErrors({ ...draft, endHHMM: '09:00' }, DAY)).toEqual({
      endHHMM: END_BEFORE_START_MESSAGE,
    });
    expect(taskDraftErrors({ ...draft, startHHMM: '' }, DAY)).toEqual({ endHHMM: TIMES_REQUIRED_MESSAGE });
    expect(taskDraftErrors({ ...draft, endHHMM: '' }, DAY)).toEqual({ endHHMM: TIMES_REQUIRED_MESSAGE });
    expect(taskDraftErrors({ ...draft, title: '  \t ' }, DAY)).toEqual({ title: TITLE_REQUIRED_MESSAGE });
  });

  it('takes an estimate instead of both times, and asks for one or the other when there is neither', () => {
    const noTimes = { ...draft, startHHMM: '', endHHMM: '' };
    expect(taskDraftErrors({ ...noTimes, estimateMinutes: '45' }, DAY)).toEqual({});
    expect(taskDraftErrors(noTimes, DAY)).toEqual({ estimateMinutes: TIMES_OR_ESTIMATE_MESSAGE });
    expect(taskDraftErrors({ ...draft, estimateMinutes: '30' }, DAY)).toEqual({});
  });

  it.each(['0', '1441', '12.5', 'soon', '-5'])('refuses an estimate of %p minutes', (estimate) => {
    expect(taskDraftErrors({ ...draft, startHHMM: '', endHHMM: '', estimateMinutes: estimate }, DAY)).toEqual(
      {
        estimateMinutes: ESTIMATE_MESSAGE,
      },
    );
    expect(taskDraftErrors({ ...draft, estimateMinutes: estimate }, DAY)).toEqual({
      estimateMinutes: ESTIMATE_MESSAGE,
    });
  });

  it('still wants both times when only one is given, estimate or not', () => {
    expect(taskDraftErrors({ ...draft, endHHMM: '', estimateMinutes: '45' }, DAY)).toEqual({
      endHHMM: TIMES_REQUIRED_MESSAGE,
    });
  });
});

describe('repeat rules in a task draft', () => {
  it('starts a series on the day at the start time, or on the whole day without times', () => {
    expect(repeatStartOf(DAY, draft)).toEqual({ start: new Date(2026, 10, 20, 9, 0), allDay: false });
    expect(repeatStartOf(DAY, { startHHMM: '', endHHMM: '' })).toEqual({
      start: new Date(2026, 10, 20),
      allDay: true,
    });
  });

  it("refuses a rule the Repeat field shows a problem with, under 'rrule'", () => {
    expect(taskDraftErrors({ ...draft, rrule: 'FREQ=DAILY;COUNT=3' }, DAY)).toEqual({});
    expect(taskDraftErrors({ ...draft, rrule: 'FREQ=WEEKLY;BYDAY=' }, DAY)).toEqual({
      rrule: 'Pick at least one day',
    });
    // The end is read against the task's day: 2026-11-19 is before a series starting on 2026-11-20.
    expect(taskDraftErrors({ ...draft, rrule: 'FREQ=DAILY;UNTIL=20261119' }, DAY)).toEqual({
      rrule: 'The end date must be on or after the start',
    });
  });

  it('fits a rule to a new day, and keeps it as written for new times on the same day', () => {
    const friday = repeatStartOf('2026-11-20', draft);
    const saturday = repeatStartOf('2026-11-21', draft);
    expect(ruleForStart('FREQ=WEEKLY;BYDAY=FR', friday, saturday)).toBe('FREQ=WEEKLY;BYDAY=SA');
    expect(ruleForStart('', friday, saturday)).toBe('');
    // Written by another app without BYDAY: a new clock time on the same day leaves it alone.
    const later = repeatStartOf('2026-11-20', { startHHMM: '18:00', endHHMM: '19:00' });
    expect(ruleForStart('FREQ=WEEKLY', friday, later)).toBe('FREQ=WEEKLY');
  });

  it('writes the end date as a DATE once the task has no times, and as a UTC time once it has', () => {
    const timed = repeatStartOf(DAY, draft);
    const allDay = repeatStartOf(DAY, { startHHMM: '', endHHMM: '' });
    expect(ruleForStart('FREQ=DAILY;UNTIL=20261231', allDay, timed)).toBe(
      `FREQ=DAILY;UNTIL=${new Date(2026, 11, 31, 23, 59, 59).toISOString().replace(/[-:]|\.\d{3}/g, '')}`,
    );
    expect(ruleForStart(ruleForStart('FREQ=DAILY;UNTIL=20261231', allDay, timed), timed, allDay)).toBe(
      'FREQ=DAILY;UNTIL=20261231',
    );
  });

  it('sends the rule with a new task only when it repeats', () => {
    expect(newTaskBody({ ...draft, rrule: 'FREQ=DAILY' }, DAY)).toMatchObject({ rrule: 'FREQ=DAILY' });
    expect(newTaskBody(draft, DAY)).not.toHaveProperty('rrule');
  });

  it('sends the rule with an edit only when it changed, "" included', () => {
    const series = task({ seriesId: 's1', rrule: 'FREQ=DAILY' });
    const asRead = { ...draft, rrule: 'FREQ=DAILY' };
    expect(ruleChanged(series, asRead)).toBe(false);
    expect(taskEditBody(series, asRead)).not.toHaveProperty('rrule');
    expect(taskEditBody(series, { ...draft, rrule: 'FREQ=DAILY;COUNT=5' })).toMatchObject({
      rrule: 'FREQ=DAILY;COUNT=5',
    });
    expect(taskEditBody(series, { ...draft, rrule: '' })).toMatchObject({ rrule: '' });
    expect(taskEditBody(task(), { ...draft, rrule: 'FREQ=DAILY' })).toMatchObject({ rrule: 'FREQ=DAILY' });
  });

  it('compares drafts field by field', () => {
    expect(draftsEqual(draft, { ...draft })).toBe(true);
    expect(draftsEqual(draft, { ...draft, rrule: 'FREQ=DAILY' })).toBe(false);
  });

  it("words a task's rule from the occurrence's original start, not where it was moved", () => {
    const moved = task({
      seriesId: 's1',
      rrule: 'FREQ=MONTHLY',
      recurrenceId: instantAt('2026-11-20', '09:00'),
      start: instantAt('2026-11-23', '09:00'),
    });
    expect(repeatWords(moved)).toBe('Monthly on day 20');
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
