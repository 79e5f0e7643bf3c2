/** How many formatters are kept: every app's distinct (locale, options) pairs, with room to spare. */
const KEPT = 32;
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The Intl.DateTimeFormat for a locale (undefined: the person's own) and options, built once and kept: building one
 * loads its locale's data, and Date's toLocaleDateString with options builds a new one on every call (a grid's title
 * drawn on each render was 109 ms of one task at 4x CPU). At most KEPT are kept; the oldest goes first.
 */
export function dateFormat(
  locale: string | undefined,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let format = formatters.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, options);
    if (formatters.size >= KEPT) formatters.delete(formatters.keys().next().value!);
    formatters.set(key, format);
  }
  return format;
}

/** The English names of the weekdays, Sunday first (Date's getDay), and of the months, January first. */
export const ENGLISH_WEEKDAYS: readonly string[] = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
];
export const ENGLISH_MONTHS: readonly string[] = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
/** What ICU puts between the two ends of a range in English: an en dash between thin spaces. */
const RANGE_DASH = '\u2009\u2013\u2009';
const NAME_WIDTHS = new Set<unknown>([undefined, 'long', 'short']);
const FIELDS = new Set(['weekday', 'month', 'day', 'year', 'timeZone']);

interface EnglishParts {
  weekday?: string;
  month?: string;
  day: number;
  year: number;
}

/**
 * The first Intl.DateTimeFormat a page builds loads ICU's locale data: 20-35 ms of main thread at full CPU speed
 * (Chromium 150), 4 times that in Lighthouse's mobile figures, and Today and the calendar draw a date in their first
 * frame. So dates in US English, the language of the pages' own words, are written here from the date's fields as ICU
 * writes them, and Intl is asked only for other locales or other fields. The shapes written are the ones the pages
 * use: a weekday alone, or a month with any of a weekday, a day and a year (a weekday only with a day), in short or
 * long names. Anything else (numeric months, a time, another time zone, a year before 1000) is null, for Intl.
 */
function englishParts(date: Date, locale: string | undefined, options: Intl.DateTimeFormatOptions) {
  if (!isUsEnglish(locale)) return null;
  if (!Object.keys(options).every((key) => FIELDS.has(key))) return null;
  const { weekday, month, day, year, timeZone } = options;
  if (timeZone !== undefined && timeZone !== 'UTC') return null;
  if (!NAME_WIDTHS.has(weekday) || !NAME_WIDTHS.has(month)) return null;
  if ((day !== undefined && day !== 'numeric') || (year !== undefined && year !== 'numeric')) return null;
  const shaped = month ? !weekday || day : weekday && !day && !year;
  if (!shaped || Number.isNaN(date.getTime())) return null;
  const utc = timeZone === 'UTC';
  const fullYear = utc ? date.getUTCFullYear() : date.getFullYear();
  if (fullYear < 1000 || fullYear > 9999) return null;
  const name = (names: readonly string[], index: number, width: string) =>
    width === 'long' ? names[index] : names[index].slice(0, 3);
  const parts: EnglishParts = { day: utc ? date.getUTCDate() : date.getDate(), year: fullYear };
  if (weekday) parts.weekday = name(ENGLISH_WEEKDAYS, utc ? date.getUTCDay() : date.getDay(), weekday);
  if (month) parts.month = name(ENGLISH_MONTHS, utc ? date.getUTCMonth() : date.getMonth(), month);
  return { parts, withDay: day !== undefined, withYear: year !== undefined };
}

/** The person's own locale (undefined) is theirs as the browser names it, the one Intl falls back to. */
function isUsEnglish(locale: string | undefined): boolean {
  const named = locale ?? (typeof navigator === 'undefined' ? undefined : navigator.language);
  return named === 'en-US';
}

type Shape = { withDay: boolean; withYear: boolean };

/** 'Sun', 'November 2026', 'Nov 29', 'Sunday, November 29, 2026'; without the year when `showYear` is false. */
function englishText(
  { weekday, month, day, year }: EnglishParts,
  { withDay, withYear }: Shape,
  showYear = withYear,
) {
  if (!month) return weekday!;
  const monthDay = withDay ? `${month} ${day}` : month;
  const dated = showYear ? (withDay ? `${monthDay}, ${year}` : `${monthDay} ${year}`) : monthDay;
  return weekday ? `${weekday}, ${dated}` : dated;
}

/** `date` as Date's toLocaleDateString(locale, options) writes it (options naming a date field), from a kept formatter. */
export function formatDate(
  date: Date | number,
  locale: string | undefined,
  options: Intl.DateTimeFormatOptions,
): string {
  const english = englishParts(new Date(date), locale, options);
  if (english) return englishText(english.parts, english);
  return dateFormat(locale, options).format(date);
}

/**
 * The months from `start` to `end` as Intl.DateTimeFormat's formatRange writes them for a month and a year: 'November
 * 2026' within one month, 'November – December 2026' across two, 'December 2026 – January 2027' across a year. Days
 * and weekdays in a range are Intl's (ICU shortens 'November 3 – 29' in ways not written here).
 */
export function formatDateRange(
  start: Date | number,
  end: Date | number,
  locale: string | undefined,
  options: Intl.DateTimeFormatOptions,
): string {
  const from = options.day || options.weekday ? null : englishParts(new Date(start), locale, options);
  const to = from && englishParts(new Date(end), locale, options);
  if (!from || !to) return dateFormat(locale, options).formatRange(start, end);
  const a = from.parts;
  const b = to.parts;
  if (a.month === b.month && a.year === b.year) return englishText(a, from);
  // A year both ends share is written once, at the end.
  return `${englishText(a, from, from.withYear && a.year !== b.year)}${RANGE_DASH}${englishText(b, to)}`;
}
