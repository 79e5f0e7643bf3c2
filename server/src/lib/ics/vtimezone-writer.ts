import ICAL from 'ical.js';
import { LruCache } from '../lru-cache.js';
import { TIME_ZONES_KEPT } from '../time-zone.js';

/**
 * A VTIMEZONE for an IANA zone, built from the runtime's Intl data (RFC 5545 3.6.5 wants one for every TZID a file
 * uses). Offsets are probed every few days and each change is found to the second by bisection; changes that repeat
 * every year on the same weekday rule up to the end of the range become one observance with a yearly RRULE (which
 * also covers the years after it), the others one observance each, with DTSTART only: ical.js ignores DTSTART beside
 * RDATEs and reads only the first value of an RDATE list (see vtimezone.ts), so RDATE lists would be read wrong.
 */

/**
 * The years a VTIMEZONE may cover, and how many years past the latest instant it covers at least: a series in 1900
 * or 2999 cannot make the writer walk centuries.
 */
export const VTIMEZONE_RANGE = { earliestYear: 1970, latestYear: 2100, yearsAfter: 10 } as const;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/**
 * Offsets are probed this far apart: a change that is undone within this time would go unseen. The closest two
 * changes from 1970 to 2100 in Node 20's zone data are 7 days apart (Brazil in 2000, Palestine's predicted breaks).
 */
const PROBE_STEP_MS = 3 * DAY_MS;
/** A yearly rule is only read from at least this many years in a row that follow it. */
const RULE_MIN_YEARS = 3;

const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const;

interface Observance {
  daylight: boolean;
  /** The instant of the change; its DTSTART is that instant's wall clock in the offset before it. */
  at: number;
  fromMinutes: number;
  toMinutes: number;
  name: string | null;
  /** A yearly rule (without FREQ=YEARLY) its onsets follow from DTSTART on, or null for a single onset. */
  rule: string | null;
}

interface Transition {
  at: number;
  fromMinutes: number;
  toMinutes: number;
}

// A zone's offset as 'GMT+05:30' (or 'GMT' for none): format() is about 8 times as fast as the formatToParts that
// time-zone.ts's offsetMinutesAt reads wall-clock times with, and a scan of a century reads tens of thousands.
const offsetFormatters = new LruCache<string, Intl.DateTimeFormat>(TIME_ZONES_KEPT);
const OFFSET_TEXT = /GMT(?:([+-])(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?)?$/;

/** Reads the zone's offset from UTC in minutes at an instant; throws RangeError for a zone Intl does not know. */
function offsetReader(zone: string): (instant: number) => number {
  let formatter = offsetFormatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    offsetFormatters.set(zone, formatter);
  }
  const format = formatter;
  return (instant) => {
    const match = OFFSET_TEXT.exec(format.format(instant));
    if (!match?.[1]) return 0;
    const seconds = Number(match[2]) * 3600 + Number(match[3] ?? 0) * 60 + Number(match[4] ?? 0);
    // Rounded as offsetMinutesAt rounds (Monrovia's -00:44:30 until 1972 is -44).
    return Math.round((match[1] === '-' ? -seconds : seconds) / 60);
  };
}

type OffsetAt = ReturnType<typeof offsetReader>;

/** The changes of the zone's offset in [start, end], each at the first whole second of its new offset. */
function transitionsOf(offsetAt: OffsetAt, start: number, end: number): Transition[] {
  const found: Transition[] = [];
  let at = start;
  let offset = offsetAt(start);
  while (at < end) {
    const probe = Math.min(at + PROBE_STEP_MS, end);
    if (offsetAt(probe) === offset) {
      at = probe;
      continue;
    }
    let low = at;
    let high = probe;
    while (high - low > 1000) {
      const middle = low + Math.floor((high - low) / 2000) * 1000;
      if (offsetAt(middle) === offset) low = middle;
      else high = middle;
    }
    const toMinutes = offsetAt(high);
    found.push({ at: high, fromMinutes: offset, toMinutes });
    at = high;
    offset = toMinutes;
  }
  return found;
}

/** Summer time: the offset drops below this one again within a year (a permanent change never does). */
function isDaylight(offsetAt: OffsetAt, at: number, offsetMinutes: number): boolean {
  for (let month = 1; month <= 12; month += 1) {
    if (offsetAt(at + month * 30.5 * DAY_MS) < offsetMinutes) return true;
  }
  return false;
}

// en-US names New York's offsets (EST), en-GB Berlin's (CET), en-AU Sydney's (AEST), en-IN India's (IST); a zone
// none of them names gets en-US's 'GMT+9'.
const NAME_LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-IN'];
const nameFormatters = new LruCache<string, Intl.DateTimeFormat>(NAME_LOCALES.length * TIME_ZONES_KEPT);

function zoneNameAt(zone: string, instant: number): string | null {
  let fallback: string | null = null;
  for (const locale of NAME_LOCALES) {
    const key = `${locale} ${zone}`;
    let formatter = nameFormatters.get(key);
    if (!formatter) {
      formatter = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' });
      nameFormatters.set(key, formatter);
    }
    const name = formatter
      .formatToParts(new Date(instant))
      .find((part) => part.type === 'timeZoneName')?.value;
    if (!name) continue;
    if (!/^GMT[+-]/.test(name)) return name;
    fallback ??= name;
  }
  return fallback;
}

interface Onset {
  transition: Transition;
  year: number;
  month: number;
  day: number;
  weekday: number;
  /** Seconds into the local day. */
  time: number;
  /** Which weekday of the month it is (1..5), and whether it is the month's last one. */
  nth: number;
  last: boolean;
}

function onsetOf(transition: Transition): Onset {
  const wall = new Date(transition.at + transition.fromMinutes * MINUTE_MS);
  const year = wall.getUTCFullYear();
  const month = wall.getUTCMonth() + 1;
  const day = wall.getUTCDate();
  return {
    transition,
    year,
    month,
    day,
    weekday: wall.getUTCDay(),
    time: wall.getUTCHours() * 3600 + wall.getUTCMinutes() * 60 + wall.getUTCSeconds(),
    nth: Math.ceil(day / 7),
    last: day + 7 > new Date(Date.UTC(year, month, 0)).getUTCDate(),
  };
}

/** The day of `year` a BYMONTH/BYDAY rule names: the nth (or with nth -1, the last) weekday of the month. */
function ruleDay(year: number, month: number, weekday: number, nth: number): number {
  if (nth > 0) {
    const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
    return 1 + ((weekday - first + 7) % 7) + (nth - 1) * 7;
  }
  const lastDay = new Date(Date.UTC(year, month, 0));
  return lastDay.getUTCDate() - ((lastDay.getUTCDay() - weekday + 7) % 7);
}

/**
 * The longest run of onsets at the end of `onsets` (one kind of change, in order) that a yearly BYMONTH/BYDAY rule
 * gives: one a year in consecutive years, same month, weekday, nth or last weekday and wall-clock time. Only a run
 * that the zone keeps following after `end` (its next change is where the rule says) is returned.
 */
function yearlyRun(offsetAt: OffsetAt, onsets: Onset[], end: number): { first: number; rule: string } | null {
  const lastOnset = onsets.at(-1);
  if (!lastOnset) return null;
  let byNth = lastOnset.nth <= 4;
  let byLast = lastOnset.last;
  let first = onsets.length - 1;
  while (first > 0) {
    const previous = onsets[first - 1]!;
    const next = onsets[first]!;
    const same =
      previous.year === next.year - 1 &&
      previous.month === lastOnset.month &&
      previous.weekday === lastOnset.weekday &&
      previous.time === lastOnset.time;
    const nth = byNth && previous.nth === lastOnset.nth;
    const last = byLast && previous.last;
    if (!same || (!nth && !last)) break;
    byNth = nth;
    byLast = last;
    first -= 1;
  }
  if (onsets.length - first < RULE_MIN_YEARS) return null;
  const nth = byNth && lastOnset.nth <= 3 ? lastOnset.nth : byLast ? -1 : lastOnset.nth;
  const { fromMinutes, toMinutes } = lastOnset.transition;
  const nextYear = lastOnset.year + 1;
  const nextAt =
    Date.UTC(nextYear, lastOnset.month - 1, ruleDay(nextYear, lastOnset.month, lastOnset.weekday, nth)) +
    lastOnset.time * 1000 -
    fromMinutes * MINUTE_MS;
  const continues = nextAt > end && offsetAt(nextAt - 1000) === fromMinutes && offsetAt(nextAt) === toMinutes;
  if (!continues) return null;
  return { first, rule: `BYMONTH=${lastOnset.month};BYDAY=${nth}${WEEKDAYS[lastOnset.weekday]}` };
}

const observancesKept = new LruCache<string, Observance[]>(TIME_ZONES_KEPT);

function observancesOf(zone: string, startYear: number, endYear: number): Observance[] {
  const key = `${zone}\n${startYear}\n${endYear}`;
  const known = observancesKept.get(key);
  if (known) return known;
  const start = Date.UTC(startYear, 0, 1);
  const end = Date.UTC(endYear, 0, 1);
  const offsetAt = offsetReader(zone);
  const startOffset = offsetAt(start);
  const transitions = transitionsOf(offsetAt, start, end);
  const observances: Observance[] = [];
  if (transitions.length === 0) {
    // One offset all along: the conventional 1970 onset.
    observances.push({
      daylight: false,
      at: Date.UTC(1970, 0, 1) - startOffset * MINUTE_MS,
      fromMinutes: startOffset,
      toMinutes: startOffset,
      name: zoneNameAt(zone, start),
      rule: null,
    });
  } else {
    // The offset before the first change: ical.js reads offset 0 before a zone's first onset.
    observances.push({
      daylight: isDaylight(offsetAt, start, startOffset),
      at: start,
      fromMinutes: startOffset,
      toMinutes: startOffset,
      name: zoneNameAt(zone, start),
      rule: null,
    });
    // Changes between the same two offsets are one kind, named and classed by the first of them.
    const kinds = new Map<string, { daylight: boolean; name: string | null; onsets: Onset[] }>();
    for (const transition of transitions) {
      const kind = `${transition.fromMinutes} ${transition.toMinutes}`;
      let group = kinds.get(kind);
      if (!group) {
        group = {
          daylight: isDaylight(offsetAt, transition.at, transition.toMinutes),
          name: zoneNameAt(zone, transition.at),
          onsets: [],
        };
        kinds.set(kind, group);
      }
      group.onsets.push(onsetOf(transition));
    }
    for (const { daylight, name, onsets } of kinds.values()) {
      const run = yearlyRun(offsetAt, onsets, end);
      onsets.forEach(({ transition }, index) => {
        if (run && index > run.first) return;
        observances.push({
          daylight,
          ...transition,
          name,
          rule: run && index === run.first ? run.rule : null,
        });
      });
    }
  }
  observances.sort((a, b) => a.at - b.at);
  observancesKept.set(key, observances);
  return observances;
}

const offsetValue = (minutes: number) => ICAL.UtcOffset.fromSeconds(minutes * 60);

/** The wall-clock time (floating) of an instant at an offset. */
function wallTimeAtOffset(instant: number, offsetMinutes: number) {
  const wall = new Date(instant + offsetMinutes * MINUTE_MS);
  return ICAL.Time.fromData({
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
    isDate: false,
  });
}

/** Years are covered in blocks of five: a file whose instants move a little keeps its VTIMEZONEs (and the cached ones). */
const YEARS_PER_BLOCK = 5;

/** The years [startYear, endYear) a VTIMEZONE covers for instants from `fromInstant` to `toInstant`. */
function coveredYears(fromInstant: number, toInstant: number): { startYear: number; endYear: number } {
  const { earliestYear, latestYear, yearsAfter } = VTIMEZONE_RANGE;
  const yearOf = (instant: number, otherwise: number) =>
    Number.isFinite(instant)
      ? new Date(
          Math.min(Math.max(instant, Date.UTC(earliestYear, 0, 1)), Date.UTC(latestYear, 0, 1)),
        ).getUTCFullYear()
      : otherwise;
  const blockStart = (year: number) => year - (year % YEARS_PER_BLOCK);
  const blockEnd = (year: number) => blockStart(year + YEARS_PER_BLOCK - 1);
  const startYear = Math.min(
    Math.max(blockStart(yearOf(fromInstant, earliestYear) - 1), earliestYear),
    latestYear - yearsAfter,
  );
  const endYear = Math.min(
    blockEnd(Math.max(yearOf(toInstant, startYear), startYear) + yearsAfter),
    latestYear,
  );
  return { startYear, endYear };
}

/**
 * The zone's VTIMEZONE (TZID and X-LIC-LOCATION its name as given) for instants from `fromInstant` (from the start
 * of the year before it) to at least `VTIMEZONE_RANGE.yearsAfter` years after `toInstant`, in whole blocks of years,
 * within VTIMEZONE_RANGE's years; a yearly rule still followed at the end keeps describing the zone after it. A zone
 * whose offset never changes in that range is one STANDARD from 1970-01-01. Throws RangeError for a zone Intl does
 * not know.
 */
export function vtimezoneComponent(
  zone: string,
  fromInstant: number,
  toInstant: number,
): InstanceType<typeof ICAL.Component> {
  const { startYear, endYear } = coveredYears(fromInstant, toInstant);
  const component = new ICAL.Component('vtimezone');
  component.addPropertyWithValue('tzid', zone);
  component.addPropertyWithValue('x-lic-location', zone);
  for (const observance of observancesOf(zone, startYear, endYear)) {
    const part = new ICAL.Component(observance.daylight ? 'daylight' : 'standard');
    part.addPropertyWithValue('dtstart', wallTimeAtOffset(observance.at, observance.fromMinutes));
    part.addPropertyWithValue('tzoffsetfrom', offsetValue(observance.fromMinutes));
    part.addPropertyWithValue('tzoffsetto', offsetValue(observance.toMinutes));
    if (observance.name) part.addPropertyWithValue('tzname', observance.name);
    if (observance.rule)
      part.addPropertyWithValue('rrule', ICAL.Recur.fromString(`FREQ=YEARLY;${observance.rule}`));
    component.addSubcomponent(part);
  }
  return component;
}
