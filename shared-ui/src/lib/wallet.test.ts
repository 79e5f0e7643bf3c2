import { DEFAULT_BUDGET_HOURS, MOOD_THRESHOLDS, isValidHours, moodForHours, remainingHours } from './wallet';

describe('moodForHours', () => {
  it.each([
    [0, 'neutral', "You're managing your time well!"],
    [4.9, 'neutral', "You're managing your time well!"],
    [5, 'happy', "You're working hard! Remember to take a break!"],
    [7.99, 'happy', "You're working hard! Remember to take a break!"],
    [8, 'angry', "You're overworking! Remember to rest well!"],
    [14, 'angry', "You're overworking! Remember to rest well!"],
  ])('at %p hours the mascot is %s', (hours, mood, message) => {
    expect(moodForHours(hours)).toEqual({ mood, message });
  });

  it('treats an invalid figure as no hours spent', () => {
    expect(moodForHours(Number.NaN).mood).toBe('neutral');
    expect(moodForHours(-3).mood).toBe('neutral');
  });

  it('uses the 5 and 8 hour thresholds', () => {
    expect(MOOD_THRESHOLDS).toEqual({ happyFrom: 5, angryFrom: 8 });
  });
});

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

  it('defaults the budget to 15 hours', () => {
    expect(DEFAULT_BUDGET_HOURS).toBe(15);
  });
});
