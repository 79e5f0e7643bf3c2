import { aCategory, aTask, anEvent, anUnscheduledTask } from '@time-wallet/api/testing';
import { DEFAULT_CATEGORY_COLOR } from '@time-wallet/api';
import {
  categoryColorsOf,
  endHHMMAfter,
  initialPlacementOf,
  placementAt,
  timeBlocksOf,
  unscheduledByDay,
  visibleDaysOf,
} from './task-blocks';

const local = (day: number, hours: number, minutes = 0) =>
  new Date(2026, 2, day, hours, minutes).toISOString();

it('visibleDaysOf leaves out the extra day a range reads past the view', () => {
  expect(visibleDaysOf({ from: '2026-03-08', to: '2026-03-16' })).toEqual([
    '2026-03-08',
    '2026-03-09',
    '2026-03-10',
    '2026-03-11',
    '2026-03-12',
    '2026-03-13',
    '2026-03-14',
  ]);
  expect(visibleDaysOf({ from: '2026-03-08', to: '2026-03-10' })).toEqual(['2026-03-08']);
});

it('unscheduledByDay keeps the visible days’ tasks still to plan, per day in order', () => {
  const read = anUnscheduledTask({ _id: 'u1', date: '2026-03-09' });
  const call = anUnscheduledTask({ _id: 'u2', date: '2026-03-08' });
  const groups = unscheduledByDay(
    [
      read,
      call,
      anUnscheduledTask({ _id: 'done', date: '2026-03-08', done: true }),
      anUnscheduledTask({ _id: 'dismissed', date: '2026-03-08', dismissed: true }),
      anUnscheduledTask({ _id: 'later', date: '2026-03-20' }),
      aTask({ _id: 'scheduled', date: '2026-03-08' }),
    ],
    ['2026-03-08', '2026-03-09', '2026-03-10'],
  );
  expect(groups).toEqual([
    { date: '2026-03-08', tasks: [call] },
    { date: '2026-03-09', tasks: [read] },
  ]);
});

it('categoryColorsOf maps ids to colours, with the default for a category without one', () => {
  const colors = categoryColorsOf([aCategory({ color: '#c2410c' }), aCategory({ _id: 'cat-2', color: '' })]);
  expect(colors.get('cat-1')).toBe('#c2410c');
  expect(colors.get('cat-2')).toBe(DEFAULT_CATEGORY_COLOR);
});

it('timeBlocksOf keeps timed events and the scheduled tasks on the grid: all-day, unscheduled, dismissed cost nothing', () => {
  const blocks = timeBlocksOf(
    [anEvent({ _id: 'e1' }), anEvent({ _id: 'holiday', allDay: true })],
    [
      aTask({ _id: 't1' }),
      aTask({ _id: 'gone', dismissed: true }),
      anUnscheduledTask(),
      aTask({ _id: 'ok', done: true }),
    ],
  );
  expect(blocks.map((block) => block.id)).toEqual(['e1', 'task:t1', 'task:ok']);
  expect(blocks[0]).toEqual({
    id: 'e1',
    start: Date.parse('2026-03-08T14:00:00.000Z'),
    end: Date.parse('2026-03-08T15:00:00.000Z'),
  });
});

describe('placementAt', () => {
  it('gives an unscheduled task only its start: the server makes it as long as its estimate', () => {
    expect(placementAt(anUnscheduledTask(), '2026-03-09', '14:00')).toEqual({
      id: 'task-u1',
      date: '2026-03-09',
      startHHMM: '14:00',
    });
  });

  it('keeps a scheduled task’s length, past midnight too', () => {
    const task = aTask({ start: local(8, 9), end: local(8, 10, 30) });
    expect(placementAt(task, '2026-03-10', '16:00')).toEqual({
      id: 'task-1',
      date: '2026-03-10',
      startHHMM: '16:00',
      endHHMM: '17:30',
    });
    expect(placementAt(task, '2026-03-10', '23:30')).toMatchObject({ endHHMM: '01:00' });
  });
});

it('initialPlacementOf starts from a scheduled task’s local day and time, else the given day at 09:00', () => {
  expect(initialPlacementOf(aTask({ start: local(10, 7, 15), end: local(10, 8) }), '2026-03-08')).toEqual({
    date: '2026-03-10',
    startHHMM: '07:15',
    endHHMM: '',
  });
  expect(initialPlacementOf(anUnscheduledTask(), '2026-03-08')).toEqual({
    date: '2026-03-08',
    startHHMM: '09:00',
    endHHMM: '',
  });
});

it('endHHMMAfter gives the clock time a length ends at, past midnight on the next day', () => {
  expect(endHHMMAfter('09:00', 90)).toBe('10:30');
  expect(endHHMMAfter('23:30', 90)).toBe('01:00');
  expect(endHHMMAfter('', 90)).toBe('');
});
