import { aWeek as week } from '@time-wallet/api/testing';
import {
  categoryTimeShare,
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
  it("keeps the three categories with the most minutes, in their colours, with the server's shares", () => {
    const shares = categoryTimeShare(
      week({
        byCategory: [
          { categoryId: 'chores', name: 'Chores', color: '#D97706', minutes: 30, percent: 7 },
          { categoryId: 'work', name: 'Work', color: '#2F80ED', minutes: 180, percent: 44 },
          { categoryId: 'health', name: 'Health', color: '#5E9E2B', minutes: 45, percent: 11 },
          { categoryId: '', name: 'No category', color: '#8A94A6', minutes: 60, percent: 15 },
          { categoryId: 'study', name: 'Study', color: '#D9468F', minutes: 90, percent: 22 },
        ],
      }),
    );
    // The shares are of the week's planned time, as sent: 180/345 of the categorised time alone would be 52%.
    expect(shares.map(({ name, percent, color }) => [name, percent, color])).toEqual([
      ['Work', 44, '#2F80ED'],
      ['Study', 22, '#D9468F'],
      ['No category', 15, '#8A94A6'],
    ]);
  });

  it('fills the rows without time with No data 0% in the default colour', () => {
    const shares = categoryTimeShare(
      week({
        byCategory: [{ categoryId: 'work', name: 'Work', color: '#2F80ED', minutes: 60, percent: 100 }],
      }),
    );
    expect(shares.map(({ name, percent }) => `${name} ${percent}%`)).toEqual([
      'Work 100%',
      'No data 0%',
      'No data 0%',
    ]);
    expect(shares[1].color).toBe('#2D967C');
  });

  it('shows three No data 0% rows when the week has no planned time or no figures at all', () => {
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
      week({ byCategory: [{ categoryId: 'work', name: 'Work', minutes: 60, color: '', percent: 100 }] }),
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
  it("turns each day into planned, tracked and budget hours with its weekday, from the server's figures", () => {
    const [sunday, monday] = week().daily;
    const bars = hoursPerDay(
      week({
        daily: [
          // minutes is SPEC's older name of plannedMinutes; the chart reads plannedMinutes.
          {
            ...sunday,
            minutes: 405,
            plannedMinutes: 405,
            trackedMinutes: 300,
            budgetMinutes: 480,
            overMinutes: 0,
            remainingMinutes: 75,
          },
          {
            ...monday,
            minutes: 960,
            plannedMinutes: 960,
            trackedMinutes: 0,
            budgetMinutes: 360,
            overMinutes: 600,
            remainingMinutes: 0,
          },
        ],
      }),
    );
    expect(bars).toEqual([
      {
        date: '2026-03-08',
        weekday: 'Sunday',
        plannedHours: 6.75,
        trackedHours: 5,
        budgetHours: 8,
        overHours: 0,
        overBudget: false,
        overAmount: '',
        remainingHours: 1.25,
      },
      {
        date: '2026-03-09',
        weekday: 'Monday',
        plannedHours: 16,
        trackedHours: 0,
        budgetHours: 6,
        overHours: 10,
        overBudget: true,
        overAmount: '10 h',
        remainingHours: 0,
      },
    ]);
  });

  it("marks a day over budget only when the server's overMinutes says so, never comparing plan and budget itself", () => {
    const [sunday, monday, tuesday] = week().daily;
    const bars = hoursPerDay(
      week({
        daily: [
          // Planned exactly the budget: the server sends no over.
          { ...sunday, plannedMinutes: 240, budgetMinutes: 240, overMinutes: 0, remainingMinutes: 0 },
          { ...monday, plannedMinutes: 241, budgetMinutes: 240, overMinutes: 1, remainingMinutes: 0 },
          // A budget changed mid-day: the server's figure stands, even where the day's fields would say otherwise.
          { ...tuesday, plannedMinutes: 300, budgetMinutes: 240, overMinutes: 0, remainingMinutes: 0 },
        ],
      }),
    );
    expect(bars.map(({ overBudget, overHours }) => [overBudget, overHours])).toEqual([
      [false, 0],
      [true, 1 / 60],
      [false, 0],
    ]);
  });

  it('has no bars without daily figures', () => {
    expect(hoursPerDay(undefined)).toEqual([]);
  });
});
