/**
 * Checks an RRULE value before ical.js expands it. ical.js loops without end on some rules that can never produce an
 * occurrence (FREQ=DAILY;BYDAY=1MO, FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30), tests one candidate of the rule's frequency
 * at a time (a few microseconds each) through rules whose matches are rare (FREQ=SECONDLY;BYMONTH=2 walks 28 million
 * seconds to the next February), and reads some values RFC 5545 forbids its own way (INTERVAL=0 as 1, BYMONTHDAY=0,
 * BYSETPOS alone). Such rules are refused here, so their event is skipped instead of holding a worker.
 */

const SECONDS_PER_UNIT = {
  SECONDLY: 1,
  MINUTELY: 60,
  HOURLY: 3600,
  DAILY: 86_400,
  WEEKLY: 7 * 86_400,
  MONTHLY: 2_629_746,
  YEARLY: 31_556_952,
} as const;
type Frequency = keyof typeof SECONDS_PER_UNIT;

const DAY = 86_400;
/** The span of dates the API accepts (1900-2999): a step longer than this can never repeat an event. */
const LONGEST_STEP_SECONDS = 1100 * SECONDS_PER_UNIT.YEARLY;
/** About a second of ical.js: the most candidates a rule may need, to its next occurrence or to all of them. */
const CANDIDATE_BUDGET = 250_000;
const SUB_DAILY: ReadonlySet<string> = new Set(['SECONDLY', 'MINUTELY', 'HOURLY']);

const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
const BY_DAY = /^([+-]?)(\d{1,2})?(SU|MO|TU|WE|TH|FR|SA)$/;
const WHOLE_NUMBER = /^[+-]?\d{1,4}$/;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The allowed range of each numeric BYxxx part, and whether it may be negative (counting from the end). */
const NUMERIC_PARTS: Record<string, { min: number; max: number; negative: boolean }> = {
  BYSECOND: { min: 0, max: 60, negative: false },
  BYMINUTE: { min: 0, max: 59, negative: false },
  BYHOUR: { min: 0, max: 23, negative: false },
  BYMONTHDAY: { min: 1, max: 31, negative: true },
  BYYEARDAY: { min: 1, max: 366, negative: true },
  BYWEEKNO: { min: 1, max: 53, negative: true },
  BYMONTH: { min: 1, max: 12, negative: false },
  BYSETPOS: { min: 1, max: 366, negative: true },
};

function numbersOf(name: string, value: string): number[] | string {
  const range = NUMERIC_PARTS[name]!;
  const numbers: number[] = [];
  for (const item of value.split(',')) {
    if (!WHOLE_NUMBER.test(item)) return `${name} must list whole numbers`;
    const number = Number(item);
    const size = Math.abs(number);
    if ((number < 0 && !range.negative) || size < range.min || size > range.max) {
      return `${name} values must be ${range.negative ? `${range.min} to ${range.max} or -${range.max} to -${range.min}` : `${range.min} to ${range.max}`}`;
    }
    numbers.push(number);
  }
  return numbers;
}

/** Whether some month allowed by BYMONTH has some day listed in BYMONTHDAY (29 February counts: leap years). */
function someMonthHasTheDay(months: number[], monthDays: number[]): boolean {
  return months.some((month) => monthDays.some((day) => Math.abs(day) <= DAYS_IN_MONTH[month - 1]!));
}

interface Filters {
  frequency: Frequency;
  parts: Map<string, string>;
  months: number[] | null;
  monthDays: number[] | null;
  weekdays: Weekday[];
}

const isLeapDayOnly = ({ months, monthDays }: Filters) =>
  months !== null &&
  monthDays !== null &&
  months.every((month) => month === 2) &&
  monthDays.every((day) => day === 29 || day === -29);

/** The longest wait, in seconds, between two moments the rule's BYxxx filters all let through. */
function longestGapSeconds(filters: Filters): number {
  const { parts } = filters;
  if (isLeapDayOnly(filters)) return 8 * 366 * DAY;
  if (parts.has('BYMONTH') || parts.has('BYWEEKNO') || parts.has('BYYEARDAY')) return 366 * DAY;
  if (parts.has('BYMONTHDAY')) return 62 * DAY;
  if (parts.has('BYDAY')) return 7 * DAY;
  if (parts.has('BYHOUR')) return DAY;
  if (parts.has('BYMINUTE')) return 3600;
  if (parts.has('BYSECOND')) return 60;
  return 0;
}

/**
 * About how many candidates ical.js tests per occurrence: the inverse of the share of candidates the limiting filters
 * let through. A filter limits when it is coarser than the frequency (BYMONTH on a daily rule); finer ones expand.
 */
function candidatesPerOccurrence(filters: Filters): number {
  const { frequency, parts } = filters;
  const unit = SECONDS_PER_UNIT[frequency];
  const count = (name: string) => parts.get(name)!.split(',').length;
  let share = 1;
  if (isLeapDayOnly(filters) && unit <= DAY) {
    share /= 1461;
  } else {
    if (parts.has('BYMONTH') && unit < SECONDS_PER_UNIT.YEARLY) share *= count('BYMONTH') / 12;
    if (parts.has('BYMONTHDAY') && unit <= DAY) share *= Math.min(1, count('BYMONTHDAY') / 30.4);
  }
  if (parts.has('BYYEARDAY') && unit < DAY) share *= count('BYYEARDAY') / 365;
  if (filters.weekdays.length > 0 && unit <= DAY) share *= new Set(filters.weekdays).size / 7;
  if (parts.has('BYHOUR') && unit < DAY) share *= count('BYHOUR') / 24;
  if (parts.has('BYMINUTE') && unit < 3600) share *= count('BYMINUTE') / 60;
  if (parts.has('BYSECOND') && unit < 60) share *= count('BYSECOND') / 60;
  return Math.max(1, 1 / share);
}

/** What the importer knows of the series: DTSTART's weekday, how far ical.js walks, how many occurrences it asks. */
export interface SeriesContext {
  startWeekday: Weekday;
  /** From DTSTART to the end of the import horizon, where the importer stops asking. */
  secondsToWalk: number;
  maxOccurrences: number;
}

/**
 * Why ical.js must not expand this RRULE value, or null when it may. Without a series (a VTIMEZONE's rules) only the
 * rule itself is judged; with one, also DTSTART's weekday (a daily rule stepping whole weeks never leaves it) and the
 * work of walking to the horizon.
 */
export function recurrenceRuleProblem(rule: string, series?: SeriesContext): string | null {
  const parts = new Map<string, string>();
  for (const part of rule.split(';')) {
    if (part === '') continue;
    const separator = part.indexOf('=');
    if (separator <= 0) return `"${part.slice(0, 40)}" is not a rule part`;
    const name = part.slice(0, separator).toUpperCase();
    if (parts.has(name)) return `${name} appears twice`;
    parts.set(name, part.slice(separator + 1));
  }

  const frequency = parts.get('FREQ')?.toUpperCase();
  if (!frequency || !(frequency in SECONDS_PER_UNIT)) return 'FREQ is missing or unknown';
  const unit = SECONDS_PER_UNIT[frequency as Frequency];

  let interval = 1;
  if (parts.has('INTERVAL')) {
    const written = parts.get('INTERVAL')!;
    if (!/^\d{1,12}$/.test(written) || Number(written) < 1) return 'INTERVAL must be a positive whole number';
    interval = Number(written);
    if (interval * unit > LONGEST_STEP_SECONDS) return 'INTERVAL is so large that the event can never repeat';
  }
  if (parts.has('COUNT') && !/^\d{1,12}$/.test(parts.get('COUNT')!)) return 'COUNT must be a whole number';
  if (parts.has('COUNT') && Number(parts.get('COUNT')) < 1) return 'COUNT must be at least 1';
  if (parts.has('COUNT') && parts.has('UNTIL')) return 'COUNT and UNTIL must not both be given';

  const numbers = new Map<string, number[]>();
  for (const name of Object.keys(NUMERIC_PARTS)) {
    const value = parts.get(name);
    if (value === undefined) continue;
    const read = numbersOf(name, value);
    if (typeof read === 'string') return read;
    numbers.set(name, read);
  }

  const weekdays: Weekday[] = [];
  if (parts.has('BYDAY')) {
    for (const item of parts.get('BYDAY')!.toUpperCase().split(',')) {
      const match = BY_DAY.exec(item);
      if (!match) return `BYDAY value "${item.slice(0, 20)}" is not a weekday`;
      weekdays.push(match[3] as Weekday);
      if (match[2] === undefined) continue;
      const ordinal = Number(match[2]);
      if (frequency !== 'MONTHLY' && frequency !== 'YEARLY') {
        return 'BYDAY with a number (such as 1MO) needs FREQ=MONTHLY or FREQ=YEARLY';
      }
      if (ordinal === 0) return 'BYDAY numbers start at 1';
      // With BYMONTH, a yearly rule's BYDAY number counts within the month.
      if ((frequency === 'MONTHLY' || parts.has('BYMONTH')) && ordinal > 5) {
        return 'a month has at most 5 of each weekday';
      }
      if (ordinal > 53) return 'a year has at most 53 of each weekday';
      if (parts.has('BYWEEKNO')) return 'BYDAY with a number must not be combined with BYWEEKNO';
    }
  }

  if (parts.has('BYWEEKNO') && frequency !== 'YEARLY') return 'BYWEEKNO needs FREQ=YEARLY';
  if (parts.has('BYYEARDAY') && ['DAILY', 'WEEKLY', 'MONTHLY'].includes(frequency)) {
    return `BYYEARDAY must not be used with FREQ=${frequency}`;
  }
  if (parts.has('BYMONTHDAY') && frequency === 'WEEKLY')
    return 'BYMONTHDAY must not be used with FREQ=WEEKLY';
  const byParts = [...parts.keys()].filter((name) => name.startsWith('BY') && name !== 'BYSETPOS');
  if (parts.has('BYSETPOS') && byParts.length === 0) return 'BYSETPOS needs another BYxxx rule part';
  // It picks within one second, minute or hour, where there is hardly a set to pick from; ical.js loops on it.
  if (parts.has('BYSETPOS') && SUB_DAILY.has(frequency)) return `BYSETPOS is not read with FREQ=${frequency}`;

  const months = numbers.get('BYMONTH') ?? null;
  const monthDays = numbers.get('BYMONTHDAY') ?? null;
  if (monthDays && !someMonthHasTheDay(months ?? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], monthDays)) {
    return 'no month in BYMONTH has any of the days in BYMONTHDAY';
  }
  if (
    series &&
    frequency === 'DAILY' &&
    interval % 7 === 0 &&
    weekdays.length > 0 &&
    !weekdays.includes(series.startWeekday)
  ) {
    return 'every step lands on the weekday of DTSTART, which BYDAY leaves out';
  }

  const filters: Filters = { frequency: frequency as Frequency, parts, months, monthDays, weekdays };
  const step = unit * interval;
  const tooFine = `FREQ=${frequency} is too fine for its BYxxx filters: occurrences are too rare to find in time`;
  if (longestGapSeconds(filters) / step > CANDIDATE_BUDGET) return tooFine;
  if (series) {
    const occurrences = Math.min(series.maxOccurrences, Number(parts.get('COUNT') ?? Infinity));
    const walked = Math.min(
      occurrences * candidatesPerOccurrence(filters),
      Math.max(0, series.secondsToWalk) / step,
    );
    if (walked > CANDIDATE_BUDGET) return tooFine;
  }
  return null;
}

/** The BYDAY name of a weekday numbered as ical.js does (1 = Sunday). */
export function weekdayName(icalDayOfWeek: number): Weekday | undefined {
  return WEEKDAYS[icalDayOfWeek - 1];
}
