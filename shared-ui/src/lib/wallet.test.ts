import { isValidHours, remainingHours } from './wallet';

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
