import { aTask, anEvent } from '@time-wallet/api/testing';
import { UNKNOWN_CALENDAR_COLOR } from '../components/task-event';
import { layOutLanes, lightBlocksOf } from './light-day';

const DAY = '2026-03-09';
const at = (day: string, hhmm: string) => new Date(`${day}T${hhmm}:00`).toISOString();
const span = (start: number, end: number, name = `${start}`) => ({
  name,
  startMinute: start,
  endMinute: end,
});

describe('layOutLanes', () => {
  it('puts blocks that do not overlap each in the whole width', () => {
    const lanes = layOutLanes([span(60, 120), span(120, 180)]);
    expect(lanes.map(({ lane, lanes: count }) => [lane, count])).toEqual([
      [0, 1],
      [0, 1],
    ]);
  });

  it('sets overlapping blocks side by side, a run of them sharing one count, and reuses a lane once free', () => {
    const lanes = layOutLanes([
      span(60, 180, 'long'),
      span(90, 120, 'a'),
      span(120, 150, 'b'),
      span(200, 230, 'c'),
    ]);
    const byName = Object.fromEntries(lanes.map((block) => [block.name, [block.lane, block.lanes]]));
    expect(byName).toEqual({ long: [0, 2], a: [1, 2], b: [1, 2], c: [0, 1] });
  });

  it('puts the longer of two blocks that start together first', () => {
    const lanes = layOutLanes([span(60, 90, 'short'), span(60, 240, 'long')]);
    expect(lanes.map((block) => block.name)).toEqual(['long', 'short']);
    expect(lanes.map((block) => block.lane)).toEqual([0, 1]);
  });
});

describe('lightBlocksOf', () => {
  const categoryColors = new Map([['cat-1', '#c2410c']]);

  it("draws the day's timed events and scheduled tasks, cut at the day's edges, in their colours", () => {
    const blocks = lightBlocksOf({
      day: DAY,
      events: [
        anEvent({ _id: 'e1', title: 'Standup', start: at(DAY, '09:30'), end: at(DAY, '09:45') }),
        anEvent({ _id: 'e2', title: 'Night shift', start: at('2026-03-08', '22:00'), end: at(DAY, '02:00') }),
        anEvent({
          _id: 'e3',
          title: 'Holiday',
          allDay: true,
          start: at(DAY, '00:00'),
          end: at('2026-03-10', '00:00'),
        }),
        anEvent({
          _id: 'e4',
          title: 'Tomorrow',
          start: at('2026-03-10', '09:00'),
          end: at('2026-03-10', '10:00'),
        }),
      ],
      tasks: [
        aTask({
          _id: 't1',
          title: 'Report',
          categoryId: 'cat-1',
          start: at(DAY, '11:00'),
          end: at(DAY, '12:00'),
        }),
        aTask({ _id: 't2', title: 'Gone', dismissed: true, start: at(DAY, '13:00'), end: at(DAY, '14:00') }),
        aTask({
          _id: 't3',
          title: 'Unplanned',
          scheduled: false,
          start: at(DAY, '00:00'),
          end: at(DAY, '00:00'),
        }),
      ],
      categoryColors,
      calendarLooks: new Map(),
    });
    expect(blocks.map((block) => [block.itemId, block.startMinute, block.endMinute])).toEqual([
      ['e2', 0, 120],
      ['e1', 570, 585],
      ['t1', 660, 720],
    ]);
    expect(blocks.find((block) => block.itemId === 'e1')).toMatchObject({
      kind: 'event',
      timeText: '09:30 - 09:45',
    });
    expect(blocks.find((block) => block.itemId === 't1')).toMatchObject({ kind: 'task', color: '#c2410c' });
  });
});

describe('lightBlocksOf, subscribed events', () => {
  it("draws a subscribed event in its calendar's colour, or the unknown one before the calendars are read", () => {
    const event = anEvent({
      _id: 'e1',
      title: 'Club training',
      readOnly: true,
      calendarId: 'sub-1',
      start: at(DAY, '18:00'),
      end: at(DAY, '19:00'),
    });
    const looks = new Map([['sub-1', { name: 'Club', color: '#7c3aed', countsInBudget: true }]]);
    const drawn = (calendarLooks: typeof looks) =>
      lightBlocksOf({ day: DAY, events: [event], tasks: [], categoryColors: new Map(), calendarLooks })[0];
    expect(drawn(looks)).toMatchObject({ readOnly: true, color: '#7c3aed' });
    expect(drawn(new Map())).toMatchObject({ readOnly: true, color: UNKNOWN_CALENDAR_COLOR });
  });
});
