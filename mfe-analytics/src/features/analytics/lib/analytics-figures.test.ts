import { aWeek as week } from '@time-wallet/api/testing';
import {
  categoryTimeShare,
  dailyBudgetHours,
  dailySpendComparison,
  daysFigure,
  formatHours,
  hoursPerDay,
} from './analytics-figures';

describe('formatHours', () => {
  it('shows hours to one decimal, always with the decimal', () => {
    expect(formatHours(3)).toBe('3.0');
    expect(formatHours(6 / 7)).toBe('0.9');
    expect(formatHours(1.25)).toBe('1.3');
    expect(formatHours(0)).toBe('0.0');
    expect(formatHours(Number.NaN)).toBe('0.0');
  });
});

describe('daysFigure', () => {
  it('writes one day and several days', () => {
    expect(daysFigure(1)).toEqual({ value: '1', unit: 'day' });
    expect(daysFigure(0)).toEqual({ value: '0', unit: 'days' });
    expect(daysFigure(4)).toEqual({ value: '4', unit: 'days' });
  });
});

describe('categoryTimeShare', () => {
  it('keeps the three categories with the most minutes, in their colours, with whole-number shares', () => {
    const shares = categoryTimeShare(
      week({
        byCategory: [
          { categoryId: 'chores', name: 'Chores', color: '#D97706', minutes: 30, percent: 0 },
          { categoryId: 'work', name: 'Work', color: '#2F80ED', minutes: 180, percent: 0 },
          { categoryId: 'health', name: 'Health', color: '#5E9E2B', minutes: 45, percent: 0 },
          { categoryId: 'study', name: 'Study', color: '#D9468F', minutes: 90, percent: 0 },
        ],
      }),
    );
    // 180/345 = 52.17%, 90/345 = 26.09%, 45/345 = 13.04%: shares of all categorised time, not of the top three.
    expect(shares.map(({ name, percent, color }) => [name, percent, color])).toEqual([
      ['Work', 52, '#2F80ED'],
      ['Study', 26, '#D9468F'],
      ['Health', 13, '#5E9E2B'],
    ]);
  });

  it('rounds halves up', () => {
    const shares = categoryTimeShare(
      week({
        byCategory: [
          { categoryId: 'a', name: 'A', minutes: 1, color: '', percent: 0 },
          { categoryId: 'b', name: 'B', minutes: 7, color: '', percent: 0 },
        ],
      }),
    );
    // 1/8 = 12.5% and 7/8 = 87.5%
    expect(shares.map((share) => share.percent)).toEqual([88, 13, 0]);
  });

  it('fills the rows without time with No data 0% in the default colour', () => {
    const shares = categoryTimeShare(
      week({ byCategory: [{ categoryId: 'work', name: 'Work', color: '#2F80ED', minutes: 60, percent: 0 }] }),
    );
    expect(shares.map(({ name, percent }) => `${name} ${percent}%`)).toEqual([
      'Work 100%',
      'No data 0%',
      'No data 0%',
    ]);
    expect(shares[1].color).toBe('#2D967C');
  });

  it('shows three No data 0% rows when the week has no categorised time or no figures at all', () => {
    for (const figures of [week(), undefined]) {
      expect(categoryTimeShare(figures).map(({ name, percent }) => `${name} ${percent}%`)).toEqual([
        'No data 0%',
        'No data 0%',
        'No data 0%',
      ]);
    }
  });

  it('uses the default colour for a category without one', () => {
    const [share] = categoryTimeShare(
      week({ byCategory: [{ categoryId: 'work', name: 'Work', minutes: 60, color: '', percent: 0 }] }),
    );
    expect(share.color).toBe('#2D967C');
  });
});

describe('dailySpendComparison', () => {
  it('rests min(12, 24 - active) hours up to 12 active hours', () => {
    expect(dailySpendComparison(week({ averageProductiveHours: 3.4 }))).toEqual({
      activeHours: 3.4,
      restAndSelfCareHours: 12,
    });
    expect(dailySpendComparison(week({ averageProductiveHours: 12 })).restAndSelfCareHours).toBe(12);
  });

  it('rests 24 - active hours above 12 active hours', () => {
    expect(dailySpendComparison(week({ averageProductiveHours: 13.5 })).restAndSelfCareHours).toBe(10.5);
    expect(dailySpendComparison(week({ averageProductiveHours: 20 })).restAndSelfCareHours).toBe(4);
  });

  it('rests 12 hours with no data', () => {
    expect(dailySpendComparison(undefined)).toEqual({ activeHours: 0, restAndSelfCareHours: 12 });
  });
});

describe('hoursPerDay', () => {
  it('turns each day of the week into hours with its weekday, marking days over the budget', () => {
    const bars = hoursPerDay(
      week({
        daily: [
          { date: '2026-11-15', minutes: 405, productiveMinutes: 360 },
          { date: '2026-11-16', minutes: 960, productiveMinutes: 0 },
        ],
      }),
      15,
    );
    expect(bars).toEqual([
      {
        date: '2026-11-15',
        weekday: 'Sunday',
        shortWeekday: 'Sun',
        hours: 6.8,
        productiveHours: 6,
        overBudget: false,
      },
      {
        date: '2026-11-16',
        weekday: 'Monday',
        shortWeekday: 'Mon',
        hours: 16,
        productiveHours: 0,
        overBudget: true,
      },
    ]);
  });

  it('has no bars without daily figures', () => {
    expect(hoursPerDay(undefined, 15)).toEqual([]);
  });
});

describe('dailyBudgetHours', () => {
  it("uses the user's budget, else the default of 15 hours", () => {
    expect(dailyBudgetHours(8)).toBe(8);
    expect(dailyBudgetHours(0)).toBe(0);
    expect(dailyBudgetHours(undefined)).toBe(15);
    expect(dailyBudgetHours(Number.NaN)).toBe(15);
  });
});
