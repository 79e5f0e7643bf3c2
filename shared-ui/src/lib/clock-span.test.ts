import { endsNextDay } from './clock-span';
import { endsNextDay as fromPackageRoot } from '../index';

describe('endsNextDay', () => {
  it.each([
    ['23:00', '01:00'],
    ['09:30', '09:29'],
    ['12:00', '00:00'],
    ['9:00', '08:59'],
  ])('an end of %s -> %s, earlier than the start, ends the next day', (start, end) => {
    expect(endsNextDay(start, end)).toBe(true);
  });

  it.each([
    ['09:00', '10:00'],
    ['00:00', '23:59'],
    ['9:00', '10:00'],
  ])('an end of %s -> %s, later than the start, ends the same day', (start, end) => {
    expect(endsNextDay(start, end)).toBe(false);
  });

  it('equal times are no span, not a full day', () => {
    expect(endsNextDay('08:00', '08:00')).toBe(false);
  });

  it('decides nothing while a time is missing or unreadable', () => {
    expect(endsNextDay('', '01:00')).toBe(false);
    expect(endsNextDay('23:00', '')).toBe(false);
    expect(endsNextDay('23:00', '25:00')).toBe(false);
    expect(endsNextDay('later', '01:00')).toBe(false);
  });

  it('is exported from the package root for the task forms', () => {
    expect(fromPackageRoot).toBe(endsNextDay);
  });
});
