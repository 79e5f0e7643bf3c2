import { formatStopwatch, hoursOf } from './duration';

describe('formatStopwatch', () => {
  it.each([
    [0, '0:00:00'],
    [12, '0:00:12'],
    [61, '0:01:01'],
    [3600 + 45 * 60 + 9, '1:45:09'],
    [12 * 3600, '12:00:00'],
    [-5, '0:00:00'],
  ])('writes %i seconds as %p', (seconds, text) => {
    expect(formatStopwatch(seconds)).toBe(text);
  });
});

describe('hoursOf', () => {
  it('turns minutes into hours with one decimal at most', () => {
    expect(hoursOf(90)).toBe(1.5);
    expect(hoursOf(100)).toBe(1.7);
    expect(hoursOf(0)).toBe(0);
  });
});
