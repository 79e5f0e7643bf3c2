import { dayInSightOf, localMidnightOf, viewDaysOf } from './view-days';

it('gives a week from its Sunday, a day alone, and a month as the six weeks around its first day', () => {
  const week = viewDaysOf('week', '2026-11-26');
  expect(week).toEqual([
    '2026-11-22',
    '2026-11-23',
    '2026-11-24',
    '2026-11-25',
    '2026-11-26',
    '2026-11-27',
    '2026-11-28',
  ]);
  expect(viewDaysOf('week', '2026-11-22')[0]).toBe('2026-11-22');
  expect(viewDaysOf('day', '2026-11-26')).toEqual(['2026-11-26']);
  const month = viewDaysOf('month', '2027-01-15');
  expect(month).toHaveLength(42);
  expect(month[0]).toBe('2026-12-27');
  expect(month.at(-1)).toBe('2027-02-06');
});

it('starts a day at its local midnight', () => {
  const midnight = localMidnightOf('2026-03-08');
  expect([midnight.getFullYear(), midnight.getMonth(), midnight.getDate(), midnight.getHours()]).toEqual([
    2026, 2, 8, 0,
  ]);
});

describe('dayInSightOf', () => {
  // The month of March 2026 as the grid reads it: six weeks from Sunday 1 March, to the view end plus one day.
  const march = { from: '2026-03-01', to: '2026-04-13' };
  // February 2026 starts on a Sunday too; its view runs 1 February to 14 March.
  const february = { from: '2026-02-01', to: '2026-03-16' };

  it("keeps today when the month shown is today's, so Month then Week opens today's week", () => {
    expect(dayInSightOf('month', march, ['2026-03-26'])).toBe('2026-03-26');
    // Today in the month, in its last week: not the week two weeks into the view.
    expect(dayInSightOf('month', { from: '2026-02-22', to: '2026-04-06' }, ['2026-03-30'])).toBe(
      '2026-03-30',
    );
  });

  it("opens another month's first day, even when today is among the days shown around it", () => {
    expect(dayInSightOf('month', february, ['2026-03-05'])).toBe('2026-02-01');
    expect(dayInSightOf('month', { from: '2026-12-27', to: '2027-02-08' }, ['2026-03-26'])).toBe(
      '2027-01-01',
    );
  });

  it("keeps today when the week shows it, else the week's first day", () => {
    const week = { from: '2026-03-22', to: '2026-03-30' };
    expect(dayInSightOf('week', week, ['2026-03-26'])).toBe('2026-03-26');
    expect(dayInSightOf('week', week, ['2026-03-28'])).toBe('2026-03-28');
    expect(dayInSightOf('week', week, ['2026-03-29'])).toBe('2026-03-22');
    expect(dayInSightOf('week', { from: '2026-04-26', to: '2026-05-04' }, ['2026-03-26'])).toBe('2026-04-26');
  });

  it('prefers the day last gone to over today, when the grid still shows it', () => {
    expect(dayInSightOf('week', { from: '2027-02-28', to: '2027-03-08' }, ['2027-03-02', '2026-03-26'])).toBe(
      '2027-03-02',
    );
    expect(dayInSightOf('month', march, ['2026-02-10', '2026-03-26'])).toBe('2026-03-26');
  });

  it("keeps the one day of a phone's day view", () => {
    expect(dayInSightOf('week', { from: '2026-03-24', to: '2026-03-26' }, ['2026-03-26'])).toBe('2026-03-24');
  });
});
