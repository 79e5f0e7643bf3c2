import { dateFormat, formatDate, formatDateRange } from './date-format';

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

describe('US English without Intl', () => {
  afterEach(() => jest.restoreAllMocks());

  const SHAPES: Intl.DateTimeFormatOptions[] = [];
  for (const weekday of [undefined, 'short', 'long'] as const)
    for (const month of [undefined, 'short', 'long'] as const)
      for (const day of [undefined, 'numeric'] as const)
        for (const year of [undefined, 'numeric'] as const)
          for (const timeZone of [undefined, 'UTC']) {
            const options = Object.fromEntries(
              Object.entries({ weekday, month, day, year, timeZone }).filter(
                ([, value]) => value !== undefined,
              ),
            ) as Intl.DateTimeFormatOptions;
            if (Object.keys(options).some((key) => key !== 'timeZone')) SHAPES.push(options);
          }
  // Every month and weekday, both ends of a year, and one late evening (local and UTC days differ somewhere).
  const DATES = Array.from(
    { length: 400 },
    (_, index) => new Date(2026, 0, 1 + index, index % 2 ? 23 : 0, 30),
  );
  DATES.push(new Date(1000, 0, 1), new Date(9999, 11, 31, 12));

  it('writes every date as Intl does, in every shape, for en-US and for a person whose browser is en-US', () => {
    expect(navigator.language).toBe('en-US');
    const differences = [];
    for (const options of SHAPES) {
      const intl = new Intl.DateTimeFormat('en-US', options);
      for (const date of DATES) {
        const written = intl.format(date);
        for (const ours of [
          formatDate(date, 'en-US', options),
          formatDate(date.getTime(), undefined, options),
        ])
          if (ours !== written) differences.push({ options, date, ours, written });
      }
    }
    expect(differences).toEqual([]);
  });

  it('builds no Intl formatter for the shapes the pages use, and asks Intl for the rest', () => {
    const built = jest.spyOn(Intl, 'DateTimeFormat');
    const date = new Date(2026, 10, 29);
    expect(formatDate(date, 'en-US', { weekday: 'short' })).toBe('Sun');
    expect(formatDate(date, 'en-US', { weekday: 'long', month: 'long', day: 'numeric' })).toBe(
      'Sunday, November 29',
    );
    expect(formatDate(date, undefined, { weekday: 'short', month: 'short', day: 'numeric' })).toBe(
      'Sun, Nov 29',
    );
    expect(formatDateRange(date, new Date(2026, 11, 5), 'en-US', { year: 'numeric', month: 'long' })).toBe(
      'November\u2009\u2013\u2009December 2026',
    );
    expect(built).not.toHaveBeenCalled();

    const asked = [
      () => formatDate(date, 'de-DE', { weekday: 'long' }),
      () => formatDate(date, 'en-GB', { weekday: 'short', month: 'short', day: 'numeric' }),
      () => formatDate(date, 'en-US', { month: 'numeric', day: 'numeric' }),
      () => formatDate(date, 'en-US', { weekday: 'short', hour: 'numeric' }),
      () => formatDate(date, 'en-US', { weekday: 'short', timeZone: 'Asia/Tokyo' }),
      () => formatDate(new Date(999, 0, 1), 'en-US', { year: 'numeric', month: 'long' }),
      () => formatDateRange(date, new Date(2026, 11, 5), 'en-US', { month: 'long', day: 'numeric' }),
    ];
    for (const [index, format] of asked.entries()) {
      format();
      expect([index, built.mock.calls.length]).toEqual([index, index + 1]);
    }
    expect(formatDate(date, 'de-DE', { weekday: 'long' })).toBe('Sonntag');
    expect(() => formatDate(new Date(Number.NaN), 'en-US', { weekday: 'long' })).toThrow(RangeError);
  });

  it('writes a range of months as Intl does, within a month, a year and across years, either way round', () => {
    const months = Array.from({ length: 30 }, (_, index) => new Date(2025, index, 1 + (index % 28), 12));
    for (const options of [
      { year: 'numeric', month: 'long' },
      { year: 'numeric', month: 'short', timeZone: 'UTC' },
      { month: 'long' },
    ] as Intl.DateTimeFormatOptions[]) {
      const intl = new Intl.DateTimeFormat('en-US', options);
      for (const start of months)
        for (const end of [start, ...months.filter((_, index) => index % 7 === 0)])
          expect([options, start, end, formatDateRange(start, end, 'en-US', options)]).toEqual([
            options,
            start,
            end,
            intl.formatRange(start, end),
          ]);
    }
  });
});
