import { DEFAULT_CATEGORY_COLOR } from '@time-wallet/api';
import { restAndSelfCareHours, topCategories } from './category-shares';

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

describe('topCategories', () => {
  const noData = { categoryId: null, name: 'No data', minutes: 0, percent: 0, color: DEFAULT_CATEGORY_COLOR };

  it('gives three No data rows without data', () => {
    expect(topCategories([])).toEqual([noData, noData, noData]);
    expect(topCategories(null)).toHaveLength(3);
  });

  it('picks the categories with most minutes and keeps the shares the server gave them', () => {
    const top = topCategories([
      { categoryId: 'a', name: 'Study', minutes: 60, color: '#2F80ED', percent: 19 },
      { categoryId: 'b', name: 'Work', minutes: 180, color: '', percent: 56 },
      { categoryId: 'c', name: 'Sport', minutes: 30, color: '#D9468F', percent: 9 },
      { categoryId: '', name: 'No category', minutes: 50, color: '#8A94A6', percent: 16 },
    ]);
    expect(top.map(({ categoryId, name, percent }) => `${categoryId}:${name} ${percent}%`)).toEqual([
      'b:Work 56%',
      'a:Study 19%',
      ':No category 16%',
    ]);
    expect(top[0].color).toBe(DEFAULT_CATEGORY_COLOR);
    expect(top[2].color).toBe('#8A94A6');
  });

  it('pads with No data after the categories that have time', () => {
    const top = topCategories([
      { categoryId: 'a', name: 'Study', minutes: 90, color: '', percent: 100 },
      { categoryId: 'b', name: 'Idle', minutes: 0, color: '', percent: 0 },
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
