import { lastActiveText, localDateTimeText } from './session-times';

const NOW = Date.parse('2026-05-12T12:00:00.000Z');
const before = (ms: number) => new Date(NOW - ms).toISOString();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('lastActiveText', () => {
  it.each([
    [0, 'just now'],
    [59_999, 'just now'],
    [MINUTE, '1 minute ago'],
    [5 * MINUTE + 30_000, '5 minutes ago'],
    [59 * MINUTE, '59 minutes ago'],
    [HOUR, '1 hour ago'],
    [23 * HOUR, '23 hours ago'],
    [DAY, 'yesterday'],
    [6 * DAY, '6 days ago'],
  ])('says %p ms ago as "%s"', (ago, text) => {
    expect(lastActiveText(before(ago), NOW)).toBe(text);
  });

  it('gives the local date and time after a week', () => {
    const moment = before(8 * DAY);
    expect(lastActiveText(moment, NOW)).toBe(localDateTimeText(moment));
    expect(lastActiveText(moment, NOW)).toMatch(/2026/);
  });

  it('treats a moment a little ahead of the clock as just now', () => {
    expect(lastActiveText(new Date(NOW + 5_000).toISOString(), NOW)).toBe('just now');
  });

  it('says Unknown for a date it cannot read', () => {
    expect(lastActiveText('not a date', NOW)).toBe('Unknown');
    expect(localDateTimeText('')).toBe('Unknown');
  });
});

describe('localDateTimeText', () => {
  it("writes the moment on the person's own clock, with its date and time", () => {
    const moment = new Date(2026, 4, 12, 9, 41);
    const expected = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(
      moment,
    );
    expect(localDateTimeText(moment.toISOString())).toBe(expected);
    expect(expected).toMatch(/2026/);
    expect(expected).toMatch(/41/);
  });
});
