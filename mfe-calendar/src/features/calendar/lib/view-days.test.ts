import { localMidnightOf, viewDaysOf } from './view-days';

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
