import { aSubscription, anEvent, anOwnCalendar } from '@time-wallet/api/testing';
import { calendarLooksOf, countsInBudget, refreshSummaryText, timeAgoText } from './calendars';
import { eventTimesText } from './event-dates';

describe('refreshSummaryText', () => {
  it('names what changed, leaving out what did not', () => {
    expect(refreshSummaryText({ created: 3, updated: 1, deleted: 2, unchanged: false })).toBe(
      '3 new, 1 changed, 2 removed',
    );
    expect(refreshSummaryText({ created: 0, updated: 4, deleted: 0, unchanged: false })).toBe('4 changed');
  });

  it('says "Up to date" for an unchanged source or a refresh that changed nothing', () => {
    expect(refreshSummaryText({ created: 0, updated: 0, deleted: 0, unchanged: true })).toBe('Up to date');
    expect(refreshSummaryText({ created: 0, updated: 0, deleted: 0, unchanged: false })).toBe('Up to date');
  });
});

describe('timeAgoText', () => {
  const now = Date.parse('2026-03-08T12:00:00Z');
  it.each([
    ['2026-03-08T11:59:30Z', 'just now'],
    ['2026-03-08T11:59:00Z', '1 minute ago'],
    ['2026-03-08T11:05:00Z', '55 minutes ago'],
    ['2026-03-08T09:00:00Z', '3 hours ago'],
    ['2026-03-06T11:00:00Z', '2 days ago'],
    // A server clock a little ahead is not "in the future".
    ['2026-03-08T12:00:05Z', 'just now'],
  ])('says %s was %s', (iso, text) => expect(timeAgoText(iso, now)).toBe(text));
});

describe('countsInBudget', () => {
  const looks = calendarLooksOf([anOwnCalendar(), aSubscription({ countsInBudget: false })]);
  it("follows the event's calendar's switch, and counts an event of a calendar not read yet", () => {
    expect(countsInBudget(anEvent(), looks)).toBe(true);
    expect(countsInBudget(anEvent({ calendarId: 'calendar-sub-1', readOnly: true }), looks)).toBe(false);
    expect(countsInBudget(anEvent({ calendarId: 'calendar-unknown', readOnly: true }), looks)).toBe(true);
  });
});

describe('eventTimesText', () => {
  const local = (day: number, hours: number) => new Date(2026, 2, day, hours).toISOString();
  it('says the day and the clock times, and both days for an event past midnight', () => {
    expect(eventTimesText({ start: local(8, 14), end: local(8, 15), allDay: false })).toBe(
      'Sun, Mar 8, 14:00 – 15:00',
    );
    expect(eventTimesText({ start: local(8, 22), end: local(9, 1), allDay: false })).toBe(
      'Sun, Mar 8, 22:00 – Mon, Mar 9, 01:00',
    );
  });

  it('says the days of an all-day event, its end exclusive', () => {
    expect(eventTimesText({ start: local(8, 0), end: local(9, 0), allDay: true })).toBe(
      'Sun, Mar 8, all day',
    );
    expect(eventTimesText({ start: local(8, 0), end: local(11, 0), allDay: true })).toBe(
      'Sun, Mar 8 – Tue, Mar 10',
    );
  });
});
