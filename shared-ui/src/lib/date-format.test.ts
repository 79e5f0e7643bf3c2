import { dateFormat, formatDate } from './date-format';

describe('formatDate', () => {
  afterEach(() => jest.restoreAllMocks());

  it('writes what toLocaleDateString writes for the same locale and options', () => {
    const date = new Date(2026, 10, 28, 15, 30);
    for (const options of [
      { weekday: 'short' },
      { weekday: 'short', month: 'short', day: 'numeric' },
      { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' },
    ] as Intl.DateTimeFormatOptions[]) {
      expect(formatDate(date, 'en-US', options)).toBe(date.toLocaleDateString('en-US', options));
      expect(formatDate(date, undefined, options)).toBe(date.toLocaleDateString(undefined, options));
    }
  });

  it('builds one formatter per locale and options, and keeps at most 32', () => {
    const built = jest.spyOn(Intl, 'DateTimeFormat');
    const options: Intl.DateTimeFormatOptions = { month: 'narrow', day: '2-digit' };
    const first = dateFormat('en-GB', options);
    expect(dateFormat('en-GB', { ...options })).toBe(first);
    expect(built).toHaveBeenCalledTimes(1);
    expect(dateFormat('de-DE', options)).not.toBe(first);
    expect(built).toHaveBeenCalledTimes(2);
    // 32 other pairs (Intl ignores an option it does not know; the key does not) push the first out.
    for (let other = 0; other < 32; other += 1)
      dateFormat('en-GB', { ...options, other } as Intl.DateTimeFormatOptions);
    expect(built).toHaveBeenCalledTimes(34);
    expect(dateFormat('en-GB', options)).not.toBe(first);
    expect(built).toHaveBeenCalledTimes(35);
  });
});
