/*
 * RFC 5545 recurrence rules (RRULE values, "RRULE:" optional): read and checked here once, for the Repeat field and
 * for the API. The server runs this file as a generated copy (server/src/lib/generated/rrule.ts, written by
 * `npm run server:copies`): docs/decisions/0001-one-rrule-parser.md says why. It imports nothing, so it runs
 * unchanged in the browser and in Node.
 */

export type Weekday = 'SU' | 'MO' | 'TU' | 'WE' | 'TH' | 'FR' | 'SA';
/** Indexed like Date#getDay(): Sunday first. */
export const WEEKDAYS: readonly Weekday[] = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

export const FREQUENCIES = [
  'SECONDLY',
  'MINUTELY',
  'HOURLY',
  'DAILY',
  'WEEKLY',
  'MONTHLY',
  'YEARLY',
] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/** The parts RFC 5545 defines, whose values are read in any case. Others (X-NAME, RSCALE) keep their values as written. */
const RULE_PARTS: ReadonlySet<string> = new Set([
  'FREQ',
  'UNTIL',
  'COUNT',
  'INTERVAL',
  'BYSECOND',
  'BYMINUTE',
  'BYHOUR',
  'BYDAY',
  'BYMONTHDAY',
  'BYYEARDAY',
  'BYWEEKNO',
  'BYMONTH',
  'BYSETPOS',
  'WKST',
]);

/** A rule's parts in the order written: upper-case names, the values of RFC 5545's parts upper-case. */
export type RuleFields = Map<string, string>;

/**
 * Splits a rule into its parts. Surrounding spaces, "RRULE:" and empty parts (a trailing ';') are left out; a part
 * without a name and '=', or a name given twice, is a problem.
 */
export function ruleFields(
  text: string,
): { fields: RuleFields; problem: null } | { fields: null; problem: string } {
  const fields: RuleFields = new Map();
  for (const part of text
    .trim()
    .replace(/^RRULE:/i, '')
    .split(';')) {
    if (part === '') continue;
    const separator = part.indexOf('=');
    if (separator <= 0) return { fields: null, problem: `"${part.slice(0, 40)}" is not a rule part` };
    const name = part.slice(0, separator).toUpperCase();
    if (fields.has(name)) return { fields: null, problem: `${name} appears twice` };
    const value = part.slice(separator + 1);
    fields.set(name, RULE_PARTS.has(name) ? value.toUpperCase() : value);
  }
  return { fields, problem: null };
}

/** The rule value of these parts, in their order. */
export const formatRule = (fields: ReadonlyMap<string, string>): string =>
  [...fields].map(([name, value]) => `${name}=${value}`).join(';');

/** An UNTIL value: a DATE, or a DATE-TIME in UTC (…Z) or floating (the series' own wall clock). */
export interface RuleUntil {
  /** 'YYYY-MM-DD' */
  date: string;
  year: number;
  month: number;
  day: number;
  /** null for a DATE: the whole day is the series' last. */
  time: { hour: number; minute: number; second: number } | null;
  utc: boolean;
}

const UNTIL_VALUE = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/;
const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const daysInMonth = (year: number, month: number): number =>
  month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1];

/** Reads an UNTIL value; null unless it is a real date (and time of day): no 30 February, no hour 24. */
export function readUntil(value: string): RuleUntil | null {
  const match = UNTIL_VALUE.exec(value.toUpperCase());
  if (!match) return null;
  const [year, month, day] = match.slice(1, 4).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  const date = `${match[1]}-${match[2]}-${match[3]}`;
  if (match[4] === undefined) return { date, year, month, day, time: null, utc: false };
  const [hour, minute, second] = match.slice(4, 7).map(Number);
  if (hour > 23 || minute > 59 || second > 59) return null;
  return { date, year, month, day, time: { hour, minute, second }, utc: match[7] === 'Z' };
}

/** A BYDAY item: 'MO', '4TH' (the fourth Thursday), '-1FR' (the last Friday). */
export interface RuleDay {
  /** null for a plain weekday. */
  ordinal: number | null;
  weekday: Weekday;
}

interface NumberLists {
  bySecond: number[] | null;
  byMinute: number[] | null;
  byHour: number[] | null;
  byMonthDay: number[] | null;
  byYearDay: number[] | null;
  byWeekNo: number[] | null;
  byMonth: number[] | null;
  bySetPos: number[] | null;
}

/** The numeric BYxxx parts, the range of each and whether it may count from the end (negative). */
const NUMBER_LISTS: readonly [string, keyof NumberLists, { min: number; max: number; negative: boolean }][] =
  [
    ['BYSECOND', 'bySecond', { min: 0, max: 60, negative: false }],
    ['BYMINUTE', 'byMinute', { min: 0, max: 59, negative: false }],
    ['BYHOUR', 'byHour', { min: 0, max: 23, negative: false }],
    ['BYMONTHDAY', 'byMonthDay', { min: 1, max: 31, negative: true }],
    ['BYYEARDAY', 'byYearDay', { min: 1, max: 366, negative: true }],
    ['BYWEEKNO', 'byWeekNo', { min: 1, max: 53, negative: true }],
    ['BYMONTH', 'byMonth', { min: 1, max: 12, negative: false }],
    ['BYSETPOS', 'bySetPos', { min: 1, max: 366, negative: true }],
  ];

/** A rule as read: each part's value, or null (INTERVAL 1) where the rule has none. */
export interface RecurrenceRule extends NumberLists {
  fields: RuleFields;
  freq: Frequency;
  interval: number;
  count: number | null;
  /** '' when written empty: a form's end date not picked yet, which ruleProblem() refuses. */
  until: RuleUntil | '' | null;
  /** [] when written empty: a form's days not picked yet, which ruleProblem() refuses. */
  byDay: RuleDay[] | null;
  weekStart: Weekday | null;
}

const BY_DAY_ITEM = /^([+-]?)(\d{1,2})?(SU|MO|TU|WE|TH|FR|SA)$/;
const WHOLE_NUMBER = /^[+-]?\d{1,4}$/;
const DIGITS = /^\d{1,12}$/;

type RuleReading = { rule: RecurrenceRule; problem: null } | { rule: null; problem: string };
const unreadable = (problem: string): RuleReading => ({ rule: null, problem });

/**
 * Reads a rule: every part's value must have its form (a known FREQ, whole numbers, weekdays, a real UNTIL). Values
 * of the right form that RFC 5545 still forbids (INTERVAL=0, COUNT with UNTIL, BYMONTHDAY=32) are read, so a form
 * can show what it holds; ruleProblem() says what is wrong with them.
 */
export function readRule(text: string): RuleReading {
  const split = ruleFields(text);
  if (split.problem !== null) return unreadable(split.problem);
  const { fields } = split;
  const freq = FREQUENCIES.find((frequency) => frequency === fields.get('FREQ'));
  if (!freq) return unreadable('FREQ is missing or unknown');
  const interval = fields.get('INTERVAL');
  if (interval !== undefined && !DIGITS.test(interval)) {
    return unreadable('INTERVAL must be a positive whole number');
  }
  const count = fields.get('COUNT');
  if (count !== undefined && !DIGITS.test(count)) return unreadable('COUNT must be a whole number');
  const untilWritten = fields.get('UNTIL');
  const until = untilWritten ? readUntil(untilWritten) : untilWritten === '' ? '' : null;
  if (untilWritten && !until) {
    return unreadable('UNTIL must be a real date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS, with Z in UTC)');
  }
  const lists = {} as NumberLists;
  for (const [name, key] of NUMBER_LISTS) {
    const value = fields.get(name);
    const items = value?.split(',') ?? [];
    if (!items.every((item) => WHOLE_NUMBER.test(item))) return unreadable(`${name} must list whole numbers`);
    lists[key] = value === undefined ? null : items.map(Number);
  }
  let byDay: RuleDay[] | null = null;
  const byDayWritten = fields.get('BYDAY');
  if (byDayWritten !== undefined) {
    byDay = [];
    for (const item of byDayWritten === '' ? [] : byDayWritten.split(',')) {
      const match = BY_DAY_ITEM.exec(item);
      if (!match) return unreadable(`BYDAY value "${item.slice(0, 20)}" is not a weekday`);
      const size = match[2] === undefined ? null : Number(match[2]);
      byDay.push({
        ordinal: size === null ? null : match[1] === '-' ? -size : size,
        weekday: match[3] as Weekday,
      });
    }
  }
  const weekStart = fields.get('WKST');
  if (weekStart !== undefined && !WEEKDAYS.includes(weekStart as Weekday)) {
    return unreadable('WKST must be a weekday: SU, MO, TU, WE, TH, FR or SA');
  }
  return {
    rule: {
      fields,
      freq,
      interval: interval === undefined ? 1 : Number(interval),
      count: count === undefined ? null : Number(count),
      until,
      byDay,
      ...lists,
      weekStart: (weekStart as Weekday | undefined) ?? null,
    },
    problem: null,
  };
}

/** Whether some month allowed by BYMONTH has some day listed in BYMONTHDAY (29 February counts: leap years). */
function someMonthHasTheDay(months: readonly number[], monthDays: readonly number[]): boolean {
  return months.some((month) => monthDays.some((day) => Math.abs(day) <= daysInMonth(2000, month)));
}

const ALL_MONTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/**
 * What RFC 5545 forbids in a rule read by readRule(), or that can never produce an occurrence; null when it is a
 * rule. The first problem found is said, in the order of the parts: INTERVAL, COUNT, UNTIL, the numeric BYxxx
 * parts, BYDAY, then how the parts go together.
 */
export function ruleProblem(rule: RecurrenceRule): string | null {
  const { freq, fields } = rule;
  if (rule.interval < 1) return 'INTERVAL must be a positive whole number';
  if (rule.count !== null && rule.count < 1) return 'COUNT must be at least 1';
  if (rule.count !== null && rule.until !== null) return 'COUNT and UNTIL must not both be given';
  if (rule.until === '') return 'UNTIL must not be empty';

  for (const [name, key, range] of NUMBER_LISTS) {
    for (const number of rule[key] ?? []) {
      const size = Math.abs(number);
      if ((number < 0 && !range.negative) || size < range.min || size > range.max) {
        return `${name} values must be ${range.negative ? `${range.min} to ${range.max} or -${range.max} to -${range.min}` : `${range.min} to ${range.max}`}`;
      }
    }
  }

  if (rule.byDay?.length === 0) return 'BYDAY must list at least one weekday';
  for (const { ordinal } of rule.byDay ?? []) {
    if (ordinal === null) continue;
    if (freq !== 'MONTHLY' && freq !== 'YEARLY') {
      return 'BYDAY with a number (such as 1MO) needs FREQ=MONTHLY or FREQ=YEARLY';
    }
    const size = Math.abs(ordinal);
    if (size === 0) return 'BYDAY numbers start at 1';
    // With BYMONTH, a yearly rule's BYDAY number counts within the month.
    if ((freq === 'MONTHLY' || rule.byMonth) && size > 5) return 'a month has at most 5 of each weekday';
    if (size > 53) return 'a year has at most 53 of each weekday';
    if (rule.byWeekNo) return 'BYDAY with a number must not be combined with BYWEEKNO';
  }

  if (rule.byWeekNo && freq !== 'YEARLY') return 'BYWEEKNO needs FREQ=YEARLY';
  if (rule.byYearDay && (freq === 'DAILY' || freq === 'WEEKLY' || freq === 'MONTHLY')) {
    return `BYYEARDAY must not be used with FREQ=${freq}`;
  }
  if (rule.byMonthDay && freq === 'WEEKLY') return 'BYMONTHDAY must not be used with FREQ=WEEKLY';
  const byParts = [...fields.keys()].filter((name) => name.startsWith('BY') && name !== 'BYSETPOS');
  if (rule.bySetPos && byParts.length === 0) return 'BYSETPOS needs another BYxxx rule part';
  if (rule.byMonthDay && !someMonthHasTheDay(rule.byMonth ?? ALL_MONTHS, rule.byMonthDay)) {
    return 'no month in BYMONTH has any of the days in BYMONTHDAY';
  }
  return null;
}
