import { DEFAULT_CATEGORY_COLOR } from '@time-wallet/api';
import { restAndSelfCareHours, roundPercent, topCategories } from './category-shares';

describe('restAndSelfCareHours', () => {
  it('is 12 with no data', () => {
    expect(restAndSelfCareHours(null)).toBe(12);
    expect(restAndSelfCareHours(undefined)).toBe(12);
    expect(restAndSelfCareHours(Number.NaN)).toBe(12);
  });

  it('is capped at 12 while productive hours are 12 or fewer', () => {
    expect(restAndSelfCareHours(0)).toBe(12);
    expect(restAndSelfCareHours(6.5)).toBe(12);
    expect(restAndSelfCareHours(12)).toBe(12);
  });

  it('is what is left of the day above 12 productive hours', () => {
    expect(restAndSelfCareHours(13)).toBe(11);
    expect(restAndSelfCareHours(15.25)).toBe(8.8);
    expect(restAndSelfCareHours(30)).toBe(0);
  });
});

describe('roundPercent', () => {
  it('rounds to a whole percentage', () => {
    expect(roundPercent(1, 3)).toBe(33);
    expect(roundPercent(2, 3)).toBe(67);
    expect(roundPercent(45, 45)).toBe(100);
  });

  it('is 0 without a total', () => {
    expect(roundPercent(10, 0)).toBe(0);
  });
});

describe('topCategories', () => {
  const noData = { categoryId: null, name: 'No data', minutes: 0, percent: 0, color: DEFAULT_CATEGORY_COLOR };

  it('gives three No data rows without data', () => {
    expect(topCategories([])).toEqual([noData, noData, noData]);
    expect(topCategories(null)).toHaveLength(3);
  });

  it('picks the categories with most minutes and their share of all minutes', () => {
    const top = topCategories([
      { categoryId: 'a', name: 'Study', minutes: 60, color: '#2F80ED' },
      { categoryId: 'b', name: 'Work', minutes: 180 },
      { categoryId: 'c', name: 'Sport', minutes: 30, color: '#D9468F' },
      { categoryId: 'd', name: 'Chores', minutes: 30 },
    ]);
    expect(top.map(({ name, percent }) => `${name} ${percent}%`)).toEqual([
      'Work 60%',
      'Study 20%',
      'Sport 10%',
    ]);
    expect(top[0].color).toBe(DEFAULT_CATEGORY_COLOR);
    expect(top[1].color).toBe('#2F80ED');
  });

  it('pads with No data after the categories that have time', () => {
    const top = topCategories([
      { categoryId: 'a', name: 'Study', minutes: 90 },
      { categoryId: 'b', name: 'Idle', minutes: 0 },
    ]);
    expect(top.map(({ name, percent }) => `${name} ${percent}%`)).toEqual([
      'Study 100%',
      'No data 0%',
      'No data 0%',
    ]);
  });

  it('honours another count', () => {
    expect(topCategories([], 5)).toHaveLength(5);
  });
});
