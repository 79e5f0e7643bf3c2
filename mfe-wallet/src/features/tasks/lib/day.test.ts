import { isDayKey, longDay, relativeDay } from './day';

describe('isDayKey', () => {
  it.each(['2026-11-20', '2028-02-29', '1900-01-01', '9999-12-31'])('accepts %p', (text) => {
    expect(isDayKey(text)).toBe(true);
  });

  it.each(['', 'tomorrow', '2026-11-31', '2027-02-29', '2026-13-01', '2026-1-05', '0002-11-20', '20261120'])(
    'refuses %p',
    (text) => {
      expect(isDayKey(text)).toBe(false);
    },
  );
});

describe('relativeDay', () => {
  it.each([
    ['2026-11-20', 'today'],
    ['2026-11-21', 'tomorrow'],
    ['2026-11-19', 'yesterday'],
    ['2026-11-25', 'in 5 days'],
    ['2026-11-17', '3 days ago'],
    ['2026-12-01', 'in 11 days'],
  ])('calls %s "%s" on 2026-11-20', (day, text) => {
    expect(relativeDay(day, '2026-11-20')).toBe(text);
  });

  it('writes every distance as Intl.RelativeTimeFormat does in English', () => {
    const intl = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
    const differences = [];
    const distances = [
      ...Array.from({ length: 2100 }, (_, index) => index - 1050),
      12_345,
      -999_999,
      2_900_000,
    ];
    for (const days of distances) {
      const today = days < 0 ? '9000-01-01' : '1901-01-01';
      const day = new Date(Date.parse(today) + days * 86_400_000).toISOString().slice(0, 10);
      const ours = relativeDay(day, today);
      if (ours !== intl.format(days, 'day')) differences.push({ days, ours, intl: intl.format(days, 'day') });
    }
    expect(differences).toEqual([]);
  });

  it('counts whole days across a change of daylight saving time', () => {
    expect(relativeDay('2026-03-30', '2026-03-28')).toBe('in 2 days');
  });
});

describe('longDay', () => {
  it('names the weekday, the day, the month and the year of the calendar day itself', () => {
    const text = longDay('2026-11-21');
    expect(text).toMatch(/Saturday/);
    expect(text).toMatch(/21/);
    expect(text).toMatch(/November/);
    expect(text).toMatch(/2026/);
  });
});
