/**
 * Checks an RRULE value before ical.js expands it. The rule is read and checked against RFC 5545 by the one reader of
 * rules, shared with the client (../generated/rrule.ts, a copy of shared-ui's lib/rrule.ts). What is added here is
 * about ical.js: it loops without end on some rules that can never produce an occurrence (FREQ=DAILY;BYDAY=1MO,
 * FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30), tests one candidate of the rule's frequency at a time (a few microseconds each)
 * through rules whose matches are rare (FREQ=SECONDLY;BYMONTH=2 walks 28 million seconds to the next February), and
 * reads some values RFC 5545 forbids its own way (INTERVAL=0 as 1, BYMONTHDAY=0, BYSETPOS alone). Such rules are
 * refused, so their event is skipped instead of holding a worker.
 */
import { WEEKDAYS, readRule, ruleProblem, type RecurrenceRule, type Weekday } from '../generated/rrule.js';

export type { Weekday };

const SECONDS_PER_UNIT = {
  SECONDLY: 1,
  MINUTELY: 60,
  HOURLY: 3600,
  DAILY: 86_400,
  WEEKLY: 7 * 86_400,
  MONTHLY: 2_629_746,
  YEARLY: 31_556_952,
} as const;

const DAY = 86_400;
/** The span of dates the API accepts (1900-2999): a step longer than this can never repeat an event. */
const LONGEST_STEP_SECONDS = 1100 * SECONDS_PER_UNIT.YEARLY;
/** About a second of ical.js: the most candidates a rule may need, to its next occurrence or to all of them. */
const CANDIDATE_BUDGET = 250_000;
const SUB_DAILY: ReadonlySet<string> = new Set(['SECONDLY', 'MINUTELY', 'HOURLY']);

const isLeapDayOnly = ({ byMonth, byMonthDay }: RecurrenceRule) =>
  byMonth !== null &&
  byMonthDay !== null &&
  byMonth.every((month) => month === 2) &&
  byMonthDay.every((day) => day === 29 || day === -29);

/** The longest wait, in seconds, between two moments the rule's BYxxx filters all let through. */
function longestGapSeconds(rule: RecurrenceRule): number {
  if (isLeapDayOnly(rule)) return 8 * 366 * DAY;
  if (rule.byMonth || rule.byWeekNo || rule.byYearDay) return 366 * DAY;
  if (rule.byMonthDay) return 62 * DAY;
  if (rule.byDay) return 7 * DAY;
  if (rule.byHour) return DAY;
  if (rule.byMinute) return 3600;
  if (rule.bySecond) return 60;
  return 0;
}

/**
 * About how many candidates ical.js tests per occurrence: the inverse of the share of candidates the limiting filters
 * let through. A filter limits when it is coarser than the frequency (BYMONTH on a daily rule); finer ones expand.
 */
function candidatesPerOccurrence(rule: RecurrenceRule): number {
  const unit = SECONDS_PER_UNIT[rule.freq];
  let share = 1;
  if (isLeapDayOnly(rule) && unit <= DAY) {
    share /= 1461;
  } else {
    if (rule.byMonth && unit < SECONDS_PER_UNIT.YEARLY) share *= rule.byMonth.length / 12;
    if (rule.byMonthDay && unit <= DAY) share *= Math.min(1, rule.byMonthDay.length / 30.4);
  }
  if (rule.byYearDay && unit < DAY) share *= rule.byYearDay.length / 365;
  if (rule.byDay && unit <= DAY) share *= new Set(rule.byDay.map((day) => day.weekday)).size / 7;
  if (rule.byHour && unit < DAY) share *= rule.byHour.length / 24;
  if (rule.byMinute && unit < 3600) share *= rule.byMinute.length / 60;
  if (rule.bySecond && unit < 60) share *= rule.bySecond.length / 60;
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
 * Why ical.js must not expand this RRULE value, or null when it may: what the rule reader finds wrong with it, then
 * what ical.js cannot walk. Without a series (a VTIMEZONE's rules) only the rule itself is judged; with one, also
 * DTSTART's weekday (a daily rule stepping whole weeks never leaves it) and the work of walking to the horizon.
 */
export function recurrenceRuleProblem(text: string, series?: SeriesContext): string | null {
  const reading = readRule(text);
  if (reading.problem !== null) return reading.problem;
  const { rule } = reading;
  const problem = ruleProblem(rule);
  if (problem) return problem;

  const { freq } = rule;
  const step = SECONDS_PER_UNIT[freq] * rule.interval;
  if (step > LONGEST_STEP_SECONDS) return 'INTERVAL is so large that the event can never repeat';
  // It picks within one second, minute or hour, where there is hardly a set to pick from; ical.js loops on it.
  if (rule.bySetPos && SUB_DAILY.has(freq)) return `BYSETPOS is not read with FREQ=${freq}`;
  if (
    series &&
    freq === 'DAILY' &&
    rule.interval % 7 === 0 &&
    rule.byDay &&
    !rule.byDay.some((day) => day.weekday === series.startWeekday)
  ) {
    return 'every step lands on the weekday of DTSTART, which BYDAY leaves out';
  }

  const tooFine = `FREQ=${freq} is too fine for its BYxxx filters: occurrences are too rare to find in time`;
  if (longestGapSeconds(rule) / step > CANDIDATE_BUDGET) return tooFine;
  if (series) {
    const occurrences = Math.min(series.maxOccurrences, rule.count ?? Infinity);
    const walked = Math.min(
      occurrences * candidatesPerOccurrence(rule),
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
