import {
  addDays,
  browserTimeZone,
  formatHHMM24,
  formatMinutes,
  formatTime12,
  fromDateTimeLocalValue,
  hhmmToMinutes,
  isDateKey,
  isEndAfterStart,
  toDateTimeLocalValue,
  toLocalDateKey,
} from './time';

// Dates are built with the local-time constructor so the expectations hold in any TZ the tests run in.
const localDate = (year: number, month: number, day: number, hours = 0, minutes = 0) =>
  new Date(year, month - 1, day, hours, minutes);

describe('formatHHMM24', () => {
  it('shows a date as zero-padded local 24-hour time', () => {
    expect(formatHHMM24(localDate(2025, 3, 9, 7, 5))).toBe('07:05');
    expect(formatHHMM24(localDate(2025, 3, 9, 23, 59))).toBe('23:59');
  });

  it('reads ISO strings in local time', () => {
    const iso = localDate(2025, 3, 9, 18, 30).toISOString();
    expect(formatHHMM24(iso)).toBe('18:30');
  });

  it('shows nothing for an unreadable date', () => {
    expect(formatHHMM24('not a date')).toBe('');
  });
});

describe('formatTime12', () => {
  it.each([
    ['00:00', '12:00 AM'],
    ['00:05', '12:05 AM'],
    ['09:30', '9:30 AM'],
    ['12:00', '12:00 PM'],
    ['13:07', '1:07 PM'],
    ['23:59', '11:59 PM'],
  ])('shows %s as %s', (hhmm, expected) => {
    expect(formatTime12(hhmm)).toBe(expected);
  });

  it('accepts dates and ISO date-times in local time', () => {
    expect(formatTime12(localDate(2025, 1, 1, 15, 45))).toBe('3:45 PM');
    expect(formatTime12(localDate(2025, 1, 1, 8, 0).toISOString())).toBe('8:00 AM');
  });

  it('shows nothing for an unreadable value', () => {
    expect(formatTime12('25:00')).toBe('');
  });
});

describe('isDateKey', () => {
  it('takes real days written YYYY-MM-DD', () => {
    for (const day of ['2026-11-27', '2028-02-29', '0050-01-01', '9999-12-31'])
      expect(isDateKey(day)).toBe(true);
  });
  it('refuses days that do not exist and other spellings', () => {
    for (const text of [
      '2026-02-29',
      '2027-02-30',
      '2026-13-01',
      '2026-00-10',
      '2026-1-5',
      '20261127',
      '',
      'x',
    ])
      expect(isDateKey(text)).toBe(false);
  });
});

describe('toLocalDateKey', () => {
  it('uses the local calendar day, zero-padded', () => {
    expect(toLocalDateKey(localDate(2025, 1, 2, 0, 30))).toBe('2025-01-02');
    expect(toLocalDateKey(localDate(2025, 12, 31, 23, 59))).toBe('2025-12-31');
  });
});

describe('addDays', () => {
  it('moves across month and year ends in both directions', () => {
    expect(addDays('2025-03-01', -1)).toBe('2025-02-28');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
    expect(addDays('2025-01-10', -7)).toBe('2025-01-03');
    expect(addDays('2025-01-10', 0)).toBe('2025-01-10');
  });

  it('refuses a value that is not a day key', () => {
    expect(() => addDays('10/01/2025', 1)).toThrow(RangeError);
  });
});

describe('datetime-local values', () => {
  it('formats a date for a datetime-local input in local time', () => {
    const date = localDate(2025, 6, 4, 9, 3);
    expect(toDateTimeLocalValue(date)).toBe('2025-06-04T09:03');
    expect(toDateTimeLocalValue(date.toISOString())).toBe('2025-06-04T09:03');
  });

  it('reads a datetime-local value as local time and returns ISO UTC', () => {
    expect(fromDateTimeLocalValue('2025-06-04T09:03')).toBe(localDate(2025, 6, 4, 9, 3).toISOString());
    expect(fromDateTimeLocalValue('2025-06-04T09:03')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000Z$/);
  });

  it('round-trips', () => {
    expect(toDateTimeLocalValue(fromDateTimeLocalValue('2025-11-02T01:30'))).toBe('2025-11-02T01:30');
  });

  it('rejects an empty value', () => {
    expect(() => fromDateTimeLocalValue('')).toThrow(RangeError);
  });
});

describe('hhmmToMinutes and isEndAfterStart', () => {
  it('counts minutes since midnight', () => {
    expect(hhmmToMinutes('00:00')).toBe(0);
    expect(hhmmToMinutes('09:15')).toBe(555);
    expect(hhmmToMinutes('23:59')).toBe(1439);
    expect(hhmmToMinutes('24:00')).toBeNaN();
    expect(hhmmToMinutes('')).toBeNaN();
  });

  it('accepts only an end strictly after the start', () => {
    expect(isEndAfterStart('09:00', '09:30')).toBe(true);
    expect(isEndAfterStart('09:30', '09:30')).toBe(false);
    expect(isEndAfterStart('10:00', '09:30')).toBe(false);
    expect(isEndAfterStart('', '09:30')).toBe(false);
  });
});

describe('browserTimeZone', () => {
  const withTemporal = (timeZoneId: () => string) =>
    Object.defineProperty(globalThis, 'Temporal', {
      configurable: true,
      value: { Now: { timeZoneId } },
    });
  afterEach(() => {
    jest.restoreAllMocks();
    delete (globalThis as { Temporal?: unknown }).Temporal;
  });

  it("takes Temporal's zone where the browser has it, without building an Intl formatter", () => {
    const formatter = jest.spyOn(Intl, 'DateTimeFormat');
    withTemporal(() => 'Asia/Kolkata');
    expect(browserTimeZone()).toBe('Asia/Kolkata');
    expect(formatter).not.toHaveBeenCalled();
  });

  it('asks Intl when Temporal fails or names no zone', () => {
    jest
      .spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions')
      .mockReturnValue({ timeZone: 'Europe/Paris' } as Intl.ResolvedDateTimeFormatOptions);
    withTemporal(() => {
      throw new RangeError('no zone');
    });
    expect(browserTimeZone()).toBe('Europe/Paris');
    withTemporal(() => '');
    expect(browserTimeZone()).toBe('Europe/Paris');
  });

  it('returns the IANA zone Intl reports', () => {
    jest
      .spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions')
      .mockReturnValue({ timeZone: 'Europe/Paris' } as Intl.ResolvedDateTimeFormatOptions);
    expect(browserTimeZone()).toBe('Europe/Paris');
  });

  it('falls back to UTC when Intl cannot tell', () => {
    jest.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(() => {
      throw new Error('no Intl');
    });
    expect(browserTimeZone()).toBe('UTC');
  });
});

describe('formatMinutes', () => {
  it.each([
    [0, '0 min'],
    [45, '45 min'],
    [60, '1 h'],
    [90, '1 h 30 min'],
    [125, '2 h 5 min'],
    [1440, '24 h'],
  ])('writes %i minutes as %p', (minutes, text) => {
    expect(formatMinutes(minutes)).toBe(text);
  });
});
