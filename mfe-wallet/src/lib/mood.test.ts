import { MOOD_THRESHOLDS, moodForHours } from './mood';

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
