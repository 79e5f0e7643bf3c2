import type { FieldError } from './validation';
import { ENGLISH_MONTHS, ENGLISH_WEEKDAYS, formatDate } from './date-format';
import { isDateKey, toLocalDateKey } from './time';
import { WEEKDAYS, readRule, type RecurrenceRule, type RuleDay, type RuleUntil, type Weekday } from './rrule';

/*
 * The "Repeat" choices of the event and task forms, and the RFC 5545 RRULE values (without "RRULE:") they stand
 * for. A rule is read against its series' start (DTSTART): 'FREQ=MONTHLY' repeats on the start's day of the month,
 * so moving the start moves the pattern. The rule string is the one state a form keeps: a choice the user has not
 * finished (no day picked, an empty count) still makes a rule, and ruleProblems() says what is wrong with it. Rules
 * are read by lib/rrule, the one reader of RRULE values, which the server runs too.
 */

export const WEEKDAY_NAMES = Object.fromEntries(
  WEEKDAYS.map((day, index) => [day, ENGLISH_WEEKDAYS[index]]),
) as Readonly<Record<Weekday, string>>;
const WORKDAYS: readonly Weekday[] = ['MO', 'TU', 'WE', 'TH', 'FR'];

export type RepeatKind =
  'none' | 'daily' | 'weekdays' | 'weekly' | 'monthly-date' | 'monthly-weekday' | 'yearly' | 'custom';
export type RepeatUnit = 'day' | 'week' | 'month' | 'year';
export type RepeatEnds = { kind: 'never' } | { kind: 'on'; date: string } | { kind: 'after'; count: number };

export interface RepeatChoice {
  kind: RepeatKind;
  /** 'custom' repeats every `interval` units; the other kinds repeat every 1 and ignore both. */
  interval: number;
  unit: RepeatUnit;
  /** The days of 'weekly', and of 'custom' in weeks. */
  weekdays: Weekday[];
  /** 'monthly-weekday': the start's weekday counted from the month's end ('the last Monday'), not its start. */
  fromMonthEnd: boolean;
  /** 'on' is a local 'YYYY-MM-DD' day: the series' last possible day. */
  ends: RepeatEnds;
}

export type RepeatControl = 'interval' | 'weekdays' | 'until' | 'count';

export const REPEAT_INTERVAL_MAX = 99;
export const REPEAT_COUNT_MAX = 999;
export const REPEAT_MESSAGES = {
  interval: `Enter an interval from 1 to ${REPEAT_INTERVAL_MAX}`,
  weekdays: 'Pick at least one day',
  untilMissing: 'Enter an end date',
  untilBeforeStart: 'The end date must be on or after the start',
  count: `Enter a number of times from 1 to ${REPEAT_COUNT_MAX}`,
} as const;

const MONTH_NAMES = ENGLISH_MONTHS;
const ORDINAL_WORDS: Readonly<Record<string, string>> = {
  '1': 'first',
  '2': 'second',
  '3': 'third',
  '4': 'fourth',
  '5': 'fifth',
  '-1': 'last',
  '-2': 'second to last',
  '-3': 'third to last',
};
const FREQ_OF_UNIT: Readonly<Record<RepeatUnit, string>> = {
  day: 'DAILY',
  week: 'WEEKLY',
  month: 'MONTHLY',
  year: 'YEARLY',
};

export const weekdayOf = (date: Date): Weekday => WEEKDAYS[date.getDay()];

const daysInMonth = (year: number, monthIndex: number): number => new Date(year, monthIndex + 1, 0).getDate();

/** Which of its month's weekdays like it the start is: 4 for the fourth Thursday (1 to 5). */
export const weekOfMonth = (start: Date): number => Math.ceil(start.getDate() / 7);

/** True when no later day of the month has the start's weekday, so "the last Thursday" describes it too. */
export const isInLastWeekOfMonth = (start: Date): boolean =>
  start.getDate() + 7 > daysInMonth(start.getFullYear(), start.getMonth());

function sortedWeekdays(weekdays: readonly Weekday[]): Weekday[] {
  return WEEKDAYS.filter((day) => weekdays.includes(day));
}

const isWorkdays = (weekdays: readonly Weekday[]): boolean =>
  weekdays.length === WORKDAYS.length && WORKDAYS.every((day) => weekdays.includes(day));

/**
 * Whether "every N weeks" depends on the week's first day: with Sunday and another day, WKST=MO (the RFC's
 * default) pairs a Sunday with the Monday before it, whereas the user sees weeks that start on Sunday.
 */
const needsSundayWeekStart = (interval: number, weekdays: readonly Weekday[]): boolean =>
  interval !== 1 && weekdays.includes('SU') && weekdays.length > 1;

/** The choice an option of the Repeat field starts from, repeating for ever. */
export function presetChoice(kind: RepeatKind, start: Date): RepeatChoice {
  return {
    kind,
    interval: 1,
    unit: 'week',
    weekdays: kind === 'weekdays' ? [...WORKDAYS] : [weekdayOf(start)],
    fromMonthEnd: false,
    ends: { kind: 'never' },
  };
}

/** UNTIL for a last day: a DATE for all-day series, else the end of that local day in UTC (RFC 5545 3.3.10). */
function untilValue(dateKey: string, allDay: boolean): string {
  if (!isDateKey(dateKey)) return '';
  if (allDay) return dateKey.replaceAll('-', '');
  const [year, month, day] = dateKey.split('-').map(Number);
  const endOfDay = new Date(year, month - 1, day, 23, 59, 59);
  return endOfDay
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** The local day an UNTIL value falls on: a DATE as it is, a UTC time in the browser's zone, a floating time as written. */
function untilDateKey(until: RuleUntil): string {
  if (!until.utc || !until.time) return until.date;
  const { year, month, day } = until;
  const { hour, minute, second } = until.time;
  return toLocalDateKey(new Date(Date.UTC(year, month - 1, day, hour, minute, second)));
}

const wholeOrZero = (value: number): number => (Number.isInteger(value) && value >= 0 ? value : 0);

/**
 * The RRULE value a choice stands for ('' for none), e.g. 'FREQ=WEEKLY;BYDAY=MO,WE;COUNT=6'. What DTSTART already
 * says is left out ('FREQ=MONTHLY' repeats on the start's date), so the rule follows the start when it moves.
 */
export function ruleOf(choice: RepeatChoice, start: Date, allDay: boolean): string {
  const parts: string[] = [];
  switch (choice.kind) {
    case 'none':
      return '';
    case 'daily':
      parts.push('FREQ=DAILY');
      break;
    case 'weekdays':
      parts.push('FREQ=WEEKLY', `BYDAY=${WORKDAYS.join(',')}`);
      break;
    case 'weekly':
      parts.push('FREQ=WEEKLY', `BYDAY=${sortedWeekdays(choice.weekdays).join(',')}`);
      break;
    case 'monthly-date':
      parts.push('FREQ=MONTHLY');
      break;
    case 'monthly-weekday': {
      const ordinal = choice.fromMonthEnd ? -1 : weekOfMonth(start);
      parts.push('FREQ=MONTHLY', `BYDAY=${ordinal}${weekdayOf(start)}`);
      break;
    }
    case 'yearly':
      parts.push('FREQ=YEARLY');
      break;
    case 'custom': {
      const interval = wholeOrZero(choice.interval);
      parts.push(`FREQ=${FREQ_OF_UNIT[choice.unit]}`);
      if (interval !== 1) parts.push(`INTERVAL=${interval}`);
      if (choice.unit === 'week') {
        const weekdays = sortedWeekdays(choice.weekdays);
        parts.push(`BYDAY=${weekdays.join(',')}`);
        if (needsSundayWeekStart(interval, weekdays)) parts.push('WKST=SU');
      }
      break;
    }
  }
  if (choice.ends.kind === 'on') parts.push(`UNTIL=${untilValue(choice.ends.date, allDay)}`);
  if (choice.ends.kind === 'after') parts.push(`COUNT=${wholeOrZero(choice.ends.count)}`);
  return parts.join(';');
}

/** The parts the Repeat field has controls for or describes; a rule with any other is described, never edited. */
const SHOWN_PARTS: ReadonlySet<string> = new Set([
  'FREQ',
  'INTERVAL',
  'COUNT',
  'UNTIL',
  'BYDAY',
  'BYMONTHDAY',
  'BYMONTH',
  'BYSETPOS',
  'WKST',
]);

/** A rule as lib/rrule reads it (values RFC 5545 forbids included, so an unfinished form still shows), or null. */
const readable = (rule: string): RecurrenceRule | null => readRule(rule).rule;

const hasOtherParts = (parts: RecurrenceRule): boolean =>
  [...parts.fields.keys()].some((name) => !SHOWN_PARTS.has(name));

const isOnly = (values: readonly number[] | null, value: number): boolean =>
  values !== null && values.length === 1 && values[0] === value;

/** The plain weekdays of BYDAY, or null when one has an ordinal ('2MO'). */
function plainWeekdays(byDay: readonly RuleDay[]): Weekday[] | null {
  return byDay.every((day) => day.ordinal === null) ? byDay.map((day) => day.weekday) : null;
}

/** What kind of repetition the rule's frequency and BYxxx parts make, or null when the field cannot show it. */
function patternOf(parts: RecurrenceRule, start: Date): Omit<RepeatChoice, 'ends'> | null {
  const { interval, byDay, byMonthDay, byMonth, bySetPos } = parts;
  const base = presetChoice('none', start);
  const custom = (unit: RepeatUnit, weekdays = base.weekdays): Omit<RepeatChoice, 'ends'> => ({
    ...base,
    kind: 'custom',
    interval,
    unit,
    weekdays,
  });
  switch (parts.freq) {
    case 'DAILY': {
      if (byMonthDay || byMonth || bySetPos) return null;
      if (!byDay) return interval === 1 ? { ...base, kind: 'daily' } : custom('day');
      const weekdays = plainWeekdays(byDay);
      // Some calendars write "every weekday" as a daily rule limited to Monday to Friday.
      return interval === 1 && weekdays && isWorkdays(weekdays) ? presetChoice('weekdays', start) : null;
    }
    case 'WEEKLY': {
      if (byMonthDay || byMonth || bySetPos) return null;
      const weekdays = byDay ? plainWeekdays(byDay) : [weekdayOf(start)];
      if (!weekdays) return null;
      if (interval === 1) {
        return byDay && isWorkdays(weekdays)
          ? presetChoice('weekdays', start)
          : { ...base, kind: 'weekly', weekdays: sortedWeekdays(weekdays) };
      }
      if (needsSundayWeekStart(interval, weekdays) && parts.weekStart !== 'SU') return null;
      return custom('week', sortedWeekdays(weekdays));
    }
    case 'MONTHLY': {
      if (byMonth) return null;
      if (!byDay) {
        if (bySetPos || (byMonthDay && !isOnly(byMonthDay, start.getDate()))) return null;
        return interval === 1 ? { ...base, kind: 'monthly-date' } : custom('month');
      }
      if (interval !== 1 || byMonthDay || byDay.length !== 1 || byDay[0].weekday !== weekdayOf(start))
        return null;
      // 'BYDAY=4TH' and 'BYDAY=TH;BYSETPOS=4' (Outlook's way) name the same day.
      let ordinal = byDay[0].ordinal;
      if (bySetPos) ordinal = ordinal === null && bySetPos.length === 1 ? bySetPos[0] : null;
      if (ordinal === weekOfMonth(start)) return { ...base, kind: 'monthly-weekday' };
      if (ordinal === -1 && isInLastWeekOfMonth(start))
        return { ...base, kind: 'monthly-weekday', fromMonthEnd: true };
      return null;
    }
    case 'YEARLY': {
      if (byDay || bySetPos) return null;
      if (byMonth && !isOnly(byMonth, start.getMonth() + 1)) return null;
      // Without BYMONTH, a BYMONTHDAY in a yearly rule means that day of every month.
      if (byMonthDay && !(byMonth && isOnly(byMonthDay, start.getDate()))) return null;
      return interval === 1 ? { ...base, kind: 'yearly' } : custom('year');
    }
    default:
      return null;
  }
}

/**
 * The choice that makes this rule for a series starting at `start` ('' gives 'none'), or null when the Repeat
 * field cannot edit it: parts it has no control for, a pattern that does not match the start, COUNT with UNTIL.
 */
export function choiceOf(rule: string, start: Date): RepeatChoice | null {
  if (rule.trim() === '') return presetChoice('none', start);
  const parts = readable(rule);
  if (!parts || hasOtherParts(parts) || (parts.count !== null && parts.until !== null)) return null;
  const pattern = patternOf(parts, start);
  if (!pattern) return null;
  let ends: RepeatEnds = { kind: 'never' };
  if (parts.count !== null) ends = { kind: 'after', count: parts.count };
  if (parts.until !== null) ends = { kind: 'on', date: parts.until === '' ? '' : untilDateKey(parts.until) };
  return { ...pattern, ends };
}

/** What is wrong with a choice, per control of the Repeat field; [] when it can be saved. */
export function repeatProblems(choice: RepeatChoice, start: Date): FieldError<RepeatControl>[] {
  if (choice.kind === 'none') return [];
  const problems: FieldError<RepeatControl>[] = [];
  const isCustom = choice.kind === 'custom';
  if (
    isCustom &&
    !(Number.isInteger(choice.interval) && choice.interval >= 1 && choice.interval <= REPEAT_INTERVAL_MAX)
  ) {
    problems.push({ field: 'interval', message: REPEAT_MESSAGES.interval });
  }
  if ((choice.kind === 'weekly' || (isCustom && choice.unit === 'week')) && choice.weekdays.length === 0) {
    problems.push({ field: 'weekdays', message: REPEAT_MESSAGES.weekdays });
  }
  const { ends } = choice;
  if (ends.kind === 'on' && !isDateKey(ends.date)) {
    problems.push({ field: 'until', message: REPEAT_MESSAGES.untilMissing });
  } else if (ends.kind === 'on' && ends.date < toLocalDateKey(start)) {
    problems.push({ field: 'until', message: REPEAT_MESSAGES.untilBeforeStart });
  }
  if (
    ends.kind === 'after' &&
    !(Number.isInteger(ends.count) && ends.count >= 1 && ends.count <= REPEAT_COUNT_MAX)
  ) {
    problems.push({ field: 'count', message: REPEAT_MESSAGES.count });
  }
  return problems;
}

/** What is wrong with a rule the Repeat field made, for a form to check before it saves; [] for rules it did not make. */
export function ruleProblems(rule: string, start: Date): FieldError<RepeatControl>[] {
  const choice = choiceOf(rule, start);
  return choice ? repeatProblems(choice, start) : [];
}

/**
 * The rule once its series' start moves (or turns all-day): a weekly rule on the old start's weekday takes the
 * new one, 'the fourth Thursday' is recounted, and UNTIL takes the form the new start needs. Rules the field cannot
 * edit are kept as they are.
 */
export function ruleForNewStart(rule: string, previousStart: Date, start: Date, allDay: boolean): string {
  const choice = choiceOf(rule, previousStart);
  if (!choice || choice.kind === 'none') return rule;
  const keepsStartDay = choice.weekdays.length === 1 && choice.weekdays[0] === weekdayOf(previousStart);
  return ruleOf(
    {
      ...choice,
      weekdays: keepsStartDay ? [weekdayOf(start)] : choice.weekdays,
      fromMonthEnd: choice.fromMonthEnd && isInLastWeekOfMonth(start),
    },
    start,
    allDay,
  );
}

function joinWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/** 'Monday, Wednesday and Friday', in the calendar's order. */
export const weekdayList = (weekdays: readonly Weekday[]): string =>
  joinWords(sortedWeekdays(weekdays).map((day) => WEEKDAY_NAMES[day]));

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** 'fourth', 'last', 'second to last'; '10th', '21st to last' beyond the words. */
function ordinalWord(ordinal: number): string {
  const word = ORDINAL_WORDS[String(ordinal)];
  if (word) return word;
  const size = Math.abs(ordinal);
  const suffix = size % 100 >= 11 && size % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][size % 10] ?? 'th');
  return `${size}${suffix}${ordinal < 0 ? ' to last' : ''}`;
}

/** 'day 23', 'days 1 and 15', 'day 1 and the last day'. */
function dayOfMonthWords(days: readonly number[]): string {
  if (days.every((day) => day > 0))
    return `${days.length === 1 ? 'day' : 'days'} ${joinWords(days.map(String))}`;
  return joinWords(days.map((day) => (day < 0 ? `the ${ordinalWord(day)} day` : `day ${day}`)));
}

function byDayWords(byDay: readonly RuleDay[], bySetPos: readonly number[] | null): string | null {
  const plain = plainWeekdays(byDay);
  if (bySetPos) {
    if (!plain || bySetPos.length !== 1) return null;
    const position = `the ${ordinalWord(bySetPos[0])}`;
    return isWorkdays(plain)
      ? `${position} weekday`
      : plain.length === 1
        ? `${position} ${WEEKDAY_NAMES[plain[0]]}`
        : null;
  }
  return joinWords(
    byDay.map((day) =>
      day.ordinal === null
        ? `every ${WEEKDAY_NAMES[day.weekday]}`
        : `the ${ordinalWord(day.ordinal)} ${WEEKDAY_NAMES[day.weekday]}`,
    ),
  );
}

const FREQ_WORDS: Readonly<Record<RecurrenceRule['freq'], { once: string; unit: string }>> = {
  SECONDLY: { once: 'Every second', unit: 'second' },
  MINUTELY: { once: 'Every minute', unit: 'minute' },
  HOURLY: { once: 'Hourly', unit: 'hour' },
  DAILY: { once: 'Daily', unit: 'day' },
  WEEKLY: { once: 'Weekly', unit: 'week' },
  MONTHLY: { once: 'Monthly', unit: 'month' },
  YEARLY: { once: 'Annually', unit: 'year' },
};

/** 'Dec 31, 2026' */
function shortDate(dateKey: string): string {
  const [year, month, day] = dateKey.split('-').map(Number);
  return formatDate(new Date(year, month - 1, day), 'en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
  });
}

/** The pattern of a rule without its end: 'Weekly on Monday and Wednesday', 'Monthly on the fourth Thursday'. */
function patternWords(parts: RecurrenceRule, start: Date): string | null {
  const { freq, interval, byDay, byMonthDay, byMonth, bySetPos } = parts;
  const words = FREQ_WORDS[freq];
  const head = interval === 1 ? words.once : `Every ${plural(interval, words.unit)}`;
  const weekdays = byDay ? plainWeekdays(byDay) : null;
  if (
    interval === 1 &&
    (freq === 'WEEKLY' || freq === 'DAILY') &&
    weekdays &&
    isWorkdays(weekdays) &&
    !bySetPos &&
    !byMonth &&
    !byMonthDay
  ) {
    return 'Every weekday';
  }
  const qualifiers: string[] = [];
  const monthNames = byMonth
    ? joinWords(byMonth.map((month) => MONTH_NAMES[month - 1] ?? String(month)))
    : null;
  switch (freq) {
    case 'WEEKLY':
    case 'DAILY':
      if (byDay) {
        if (!weekdays || bySetPos) return null;
        if (weekdays.length > 0) qualifiers.push(`on ${weekdayList(weekdays)}`);
      } else if (freq === 'WEEKLY') {
        qualifiers.push(`on ${WEEKDAY_NAMES[weekdayOf(start)]}`);
      }
      if (byMonthDay) qualifiers.push(`on ${dayOfMonthWords(byMonthDay)}`);
      if (monthNames) qualifiers.push(`in ${monthNames}`);
      break;
    case 'MONTHLY':
      if (byDay) {
        const dayWords = byDayWords(byDay, bySetPos);
        if (!dayWords) return null;
        qualifiers.push(`on ${dayWords}`);
      } else if (bySetPos) {
        return null;
      }
      if (byMonthDay || !byDay) qualifiers.push(`on ${dayOfMonthWords(byMonthDay ?? [start.getDate()])}`);
      if (monthNames) qualifiers.push(`in ${monthNames}`);
      break;
    case 'YEARLY': {
      const months = monthNames ?? MONTH_NAMES[start.getMonth()];
      if (byDay) {
        const dayWords = byDayWords(byDay, bySetPos);
        if (!dayWords) return null;
        qualifiers.push(`on ${dayWords} of ${months}`);
      } else if (bySetPos) {
        return null;
      } else if (byMonthDay && !byMonth) {
        qualifiers.push(`on ${dayOfMonthWords(byMonthDay)} of every month`);
      } else if (byMonth && byMonth.length > 1) {
        qualifiers.push(`on ${dayOfMonthWords(byMonthDay ?? [start.getDate()])} of ${months}`);
      } else {
        const days = byMonthDay ?? [start.getDate()];
        qualifiers.push(
          days.length === 1 && days[0] > 0
            ? `on ${months} ${days[0]}`
            : `on ${dayOfMonthWords(days)} of ${months}`,
        );
      }
      break;
    }
    default:
      if (byDay || byMonthDay || byMonth || bySetPos) return null;
  }
  return [head, ...qualifiers].join(' ');
}

/**
 * The rule in English for people: 'Every weekday', 'Weekly on Monday and Wednesday, 6 times',
 * 'Every 2 weeks on Friday, until Dec 31, 2026'. Parts it cannot put in words are admitted, not dropped.
 */
export function describeRule(rule: string, start: Date): string {
  if (rule.trim() === '') return 'Does not repeat';
  const parts = readable(rule);
  if (!parts) return 'Repeats by a rule this app cannot read';
  const pattern = patternWords(parts, start);
  const words = [pattern ?? `${FREQ_WORDS[parts.freq].once}, with further conditions`];
  if (pattern && hasOtherParts(parts)) words.push('with further conditions');
  if (parts.count !== null) words.push(parts.count === 1 ? 'once' : `${parts.count} times`);
  if (parts.until) words.push(`until ${shortDate(untilDateKey(parts.until))}`);
  return words.join(', ');
}

/** The default last day offered by "Ends on": three months after the start (the day clamped to the month's end). */
export function defaultUntilDate(start: Date): string {
  const year = start.getFullYear();
  const monthIndex = start.getMonth() + 3;
  const day = Math.min(start.getDate(), daysInMonth(year, monthIndex));
  return toLocalDateKey(new Date(year, monthIndex, day));
}
