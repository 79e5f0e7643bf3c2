import { anEvent } from '@time-wallet/api/testing';
import {
  allDayTimes,
  draftForDay,
  draftFromEvent,
  draftFromSelection,
  eventBodyFromDraft,
  isDraftEndAfterStart,
  lastDayOfDraft,
  rangeQueryFor,
  timingAfterMove,
  withAllDay,
} from './event-dates';

// Local wall-clock values are built with the Date constructor, so the expectations hold in any time zone.
const local = (year: number, month: number, day: number, hours = 0, minutes = 0) =>
  new Date(year, month - 1, day, hours, minutes);

describe('rangeQueryFor', () => {
  it('asks from the first local day shown to the view end plus one day', () => {
    expect(rangeQueryFor(local(2026, 11, 15), local(2026, 11, 22))).toEqual({
      from: '2026-11-15',
      to: '2026-11-23',
    });
  });

  it('crosses month and year ends by calendar days', () => {
    expect(rangeQueryFor(local(2026, 12, 27), local(2027, 1, 3))).toEqual({
      from: '2026-12-27',
      to: '2027-01-04',
    });
  });
});

describe('draftFromSelection', () => {
  it('turns a one-slot click into a one-hour event', () => {
    expect(draftFromSelection(local(2026, 3, 10, 9, 30), local(2026, 3, 10, 10, 0), false)).toEqual({
      title: '',
      start: '2026-03-10T09:30',
      end: '2026-03-10T10:30',
      allDay: false,
      categoryId: '',
      rrule: '',
    });
  });

  it('keeps a longer selected range as it is', () => {
    expect(draftFromSelection(local(2026, 3, 10, 9), local(2026, 3, 10, 11, 30), false)).toMatchObject({
      start: '2026-03-10T09:00',
      end: '2026-03-10T11:30',
    });
  });

  it('keeps an all-day selection and its flag', () => {
    expect(draftFromSelection(local(2026, 3, 10), local(2026, 3, 11), true)).toEqual({
      title: '',
      start: '2026-03-10T00:00',
      end: '2026-03-11T00:00',
      allDay: true,
      categoryId: '',
      rrule: '',
    });
  });
});

describe('draftForDay', () => {
  it('starts today at the next full hour and lasts one hour', () => {
    expect(draftForDay('2026-03-10', local(2026, 3, 10, 14, 20))).toMatchObject({
      start: '2026-03-10T15:00',
      end: '2026-03-10T16:00',
      allDay: false,
    });
  });

  it('stays on today late in the evening: 23:00 at the latest', () => {
    for (const [hour, minute] of [
      [22, 5],
      [23, 20],
      [23, 59],
    ])
      expect(draftForDay('2026-03-10', local(2026, 3, 10, hour, minute))).toMatchObject({
        start: '2026-03-10T23:00',
        end: '2026-03-11T00:00',
      });
  });

  it('starts any other day in sight at 09:00', () => {
    const now = local(2026, 3, 10, 14, 20);
    expect(draftForDay('2026-03-17', now)).toMatchObject({
      start: '2026-03-17T09:00',
      end: '2026-03-17T10:00',
    });
    expect(draftForDay('2026-03-01', now)).toMatchObject({
      start: '2026-03-01T09:00',
      end: '2026-03-01T10:00',
    });
  });
});

it('draftFromEvent shows ISO UTC instants as local date-times, with the category', () => {
  const start = local(2026, 7, 4, 8, 15);
  const end = local(2026, 7, 4, 9, 45);
  expect(
    draftFromEvent(
      anEvent({ title: 'Dentist', start: start.toISOString(), end: end.toISOString(), categoryId: 'cat-1' }),
    ),
  ).toEqual({
    title: 'Dentist',
    start: '2026-07-04T08:15',
    end: '2026-07-04T09:45',
    allDay: false,
    categoryId: 'cat-1',
    rrule: '',
  });
});

it('eventBodyFromDraft sends local inputs as ISO UTC, trims the title and sends no category as null', () => {
  const draft = {
    title: '  Gym  ',
    start: '2026-01-15T18:00',
    end: '2026-01-15T19:30',
    allDay: false,
    rrule: 'FREQ=DAILY',
  };
  expect(eventBodyFromDraft({ ...draft, categoryId: '' })).toEqual({
    title: 'Gym',
    start: local(2026, 1, 15, 18).toISOString(),
    end: local(2026, 1, 15, 19, 30).toISOString(),
    allDay: false,
    categoryId: null,
  });
  expect(eventBodyFromDraft({ ...draft, categoryId: 'cat-2' }).categoryId).toBe('cat-2');
});

it('isDraftEndAfterStart accepts only a strictly later, readable end', () => {
  expect(isDraftEndAfterStart({ start: '2026-01-15T18:00', end: '2026-01-15T18:30' })).toBe(true);
  expect(isDraftEndAfterStart({ start: '2026-01-15T18:00', end: '2026-01-15T18:00' })).toBe(false);
  expect(isDraftEndAfterStart({ start: '2026-01-15T18:00', end: '' })).toBe(false);
});

it('timingAfterMove gives ISO instants and a default hour when the end is missing', () => {
  const start = local(2026, 5, 1, 10);
  expect(timingAfterMove(start, local(2026, 5, 1, 12))).toEqual({
    start: start.toISOString(),
    end: local(2026, 5, 1, 12).toISOString(),
  });
  expect(timingAfterMove(start, null)).toEqual({
    start: start.toISOString(),
    end: local(2026, 5, 1, 11).toISOString(),
  });
});

describe('all day', () => {
  const timed = {
    title: 'Trip',
    start: '2026-03-10T09:00',
    end: '2026-03-12T17:00',
    allDay: false,
    categoryId: '',
    rrule: '',
  };

  it('turns a timed draft into whole days from its first day to its last, the end exclusive', () => {
    expect(withAllDay(timed, true)).toEqual({
      ...timed,
      allDay: true,
      start: '2026-03-10T00:00',
      end: '2026-03-13T00:00',
    });
    expect(withAllDay({ ...timed, end: '2026-03-11T00:00' }, true).end).toBe('2026-03-11T00:00');
  });

  it('turns an all-day draft back into 09:00 to 10:00 on its first day', () => {
    expect(
      withAllDay({ ...timed, allDay: true, start: '2026-03-10T00:00', end: '2026-03-13T00:00' }, false),
    ).toEqual({
      ...timed,
      end: '2026-03-10T10:00',
    });
  });

  it('shows the exclusive end as the last day, never before the first', () => {
    expect(lastDayOfDraft({ start: '2026-03-10T00:00', end: '2026-03-11T00:00' })).toBe('2026-03-10');
    expect(lastDayOfDraft({ start: '2026-03-10T00:00', end: '2026-03-10T00:00' })).toBe('2026-03-10');
    expect(allDayTimes('2026-03-10', '2026-03-12')).toEqual({
      start: '2026-03-10T00:00',
      end: '2026-03-13T00:00',
    });
  });
});
