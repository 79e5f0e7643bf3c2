import { isValidHours, overAmount, remainingHours } from './wallet';

describe('isValidHours', () => {
  it('accepts non-negative numbers only', () => {
    expect(isValidHours(0)).toBe(true);
    expect(isValidHours(7.5)).toBe(true);
    expect(isValidHours(-0.1)).toBe(false);
    expect(isValidHours(Number.NaN)).toBe(false);
    expect(isValidHours('3')).toBe(false);
    expect(isValidHours(null)).toBe(false);
    expect(isValidHours(undefined)).toBe(false);
  });
});

describe('remainingHours', () => {
  it('is the budget minus the spent hours, to one decimal', () => {
    expect(remainingHours(15, 4.7)).toBe(10.3);
    expect(remainingHours(15, 0)).toBe(15);
    expect(remainingHours(10, 3.33)).toBe(6.7);
  });

  it('never goes below zero', () => {
    expect(remainingHours(15, 16)).toBe(0);
  });

  it('counts an invalid spent figure as zero', () => {
    expect(remainingHours(15, Number.NaN)).toBe(15);
  });
});

describe('overAmount', () => {
  it('says minutes under an hour, so one minute over reads as over, and hours at one decimal from an hour', () => {
    expect([0, -5, 1, 0.4, 59, 60, 61, 125].map(overAmount)).toEqual([
      '',
      '',
      '1 min',
      '1 min',
      '59 min',
      '1 h',
      '1 h',
      '2.1 h',
    ]);
  });
});
