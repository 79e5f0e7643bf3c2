import ICAL from 'ical.js';
import { TITLE_MAX_LENGTH } from '../../schemas/product.js';
import {
  hasForbiddenControlCharacter,
  isForbiddenControlCharacter,
  isInstantInRange,
} from '../input-rules.js';
import { formatRule, ruleFields } from '../generated/rrule.js';
import {
  SERIES_NEVER_ENDS,
  SeriesRuleError,
  hasOccurrenceAt,
  normalizeSeriesRule,
  occurrenceStarts,
} from '../recurrence.js';
import {
  addDays,
  canonicalTimeZone,
  instantOfWallTime,
  localDateAt,
  offsetMinutesAt,
  startOfLocalDay,
} from '../time-zone.js';
import { ALL_DAY_FLAG } from './conventions.js';
import { type DefinedZone, readVTimezone } from './vtimezone.js';
import { MAIN_IANA_ZONES, ianaZoneOfWindowsName } from './windows-zones.js';

type IcalTime = InstanceType<typeof ICAL.Time>;
type IcalComponent = InstanceType<typeof ICAL.Component>;

export const PARSE_LIMITS = {
  eventsPerImport: 5000,
  /** Longer UIDs are skipped: the (user, UID) index has a row-size limit on PostgreSQL. */
  uidLength: 500,
  /** How many skipped events the answer names (with their reasons); the count covers them all. */
  reportedSkips: 20,
} as const;

/** A series' master as read from a VEVENT with an RRULE: stored once, expanded on every read. */
export interface ImportedSeries {
  rrule: string;
  /** The IANA zone whose wall clock the series keeps. */
  zone: string;
  /** EXDATEs and cancelled occurrences: the starts the series skips. */
  exdates: number[];
}

export interface ImportedEvent {
  /** UID plus '#' plus the occurrence's recurrence id ('' for a single event or a series): re-imports match on it. */
  key: string;
  title: string;
  startAt: number;
  endAt: number;
  allDay: boolean;
  series: ImportedSeries | null;
  /** An override of an occurrence of a series in the same file: the start it replaces. */
  recurrenceAt: number | null;
  /** Why its RRULE cannot be used here, when the event is imported once instead of as a series. */
  ruleProblem?: string;
}

export interface SkippedEvent {
  uid: string;
  summary: string;
  reason: string;
}

export interface ParsedCalendar {
  /** Each event once; one whose rule cannot be used (`ruleProblem`) is a single event. */
  events: ImportedEvent[];
  skipped: number;
  /** The first PARSE_LIMITS.reportedSkips skipped events, with why. */
  skippedEvents: SkippedEvent[];
}

export class InvalidCalendarError extends Error {}

/** What a worker thread is given to parse: the file's text, the zone of floating times and dates, and the time. */
export interface CalendarJob {
  text: string;
  timeZone: string;
  now: number;
}

/**
 * ical.js relates every override to its series by scanning all the calendar's VEVENTs for each event (quadratic in
 * the file size); overrides are matched here by UID and RECURRENCE-ID instead, so that scan is switched off.
 */
const eventOf = (component: IcalComponent) => new ICAL.Event(component, { exceptions: [] });

/**
 * The file's text with its folded lines joined (RFC 5545 3.1: a line break followed by a space or tab is removed).
 * It works on the bytes, before they are decoded: exporters that fold every 75 octets cut multi-byte UTF-8 characters
 * in two, and each half alone would decode as a replacement character.
 */
export function unfoldedText(bytes: Uint8Array): string {
  const kept: Uint8Array[] = [];
  let from = 0;
  for (let index = bytes.indexOf(0x0a); index !== -1; index = bytes.indexOf(0x0a, index + 1)) {
    const next = bytes[index + 1];
    if (next !== 0x20 && next !== 0x09) continue;
    kept.push(bytes.subarray(from, index > from && bytes[index - 1] === 0x0d ? index - 1 : index));
    from = index + 2;
  }
  kept.push(bytes.subarray(from));
  return Buffer.concat(kept).toString('utf8');
}

/** A content line's name and value: the value starts after the first colon outside a quoted parameter. */
function splitContentLine(line: string): [string, string] {
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const character = line[index];
    if (character === '"') quoted = !quoted;
    else if (character === ':' && !quoted) return [line.slice(0, index), line.slice(index + 1)];
  }
  return [line, ''];
}

/** The file's VTIMEZONEs by TZID; one that cannot be read is left out, and times naming it read as an unknown zone's. */
function timezonesOf(blocks: Block[]): Map<string, DefinedZone> {
  const zones = new Map<string, DefinedZone>();
  for (const block of blocks) {
    const zone = readVTimezone(block.lines);
    if (zone && !zones.has(zone.tzid)) zones.set(zone.tzid, zone);
  }
  return zones;
}

/**
 * IANA name for a TZID, including vendor forms such as '/mozilla.org/20050126_1/America/New_York' and Windows names
 * ('W. Europe Standard Time').
 */
function ianaZoneOf(tzid: string): string | null {
  const iana = canonicalTimeZone(tzid);
  if (iana) return iana;
  const windows = ianaZoneOfWindowsName(tzid);
  if (windows) return windows;
  const segments = tzid.split('/').filter(Boolean);
  for (let take = Math.min(3, segments.length); take >= 2; take -= 1) {
    const candidate = canonicalTimeZone(segments.slice(-take).join('/'));
    if (candidate) return candidate;
  }
  return null;
}

interface TimeReader {
  /** `tzid` is the property's TZID parameter: ical.js drops zones the file does not define. */
  instantOf(time: IcalTime, tzid?: string | null): number;
}

function timeReader(zones: Map<string, DefinedZone>, fallbackZone: string): TimeReader {
  return {
    instantOf(time, tzidParameter) {
      const wall = {
        year: time.year,
        month: time.month,
        day: time.day,
        hour: time.hour,
        minute: time.minute,
        second: time.second,
      };
      if (time.isDate) return startOfLocalDay(fallbackZone, formatDate(time));
      const zoneName = time.zone?.tzid;
      if (zoneName === 'UTC')
        return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
      const tzid = tzidParameter || zoneName;
      if (!tzid || tzid === 'floating') return instantOfWallTime(fallbackZone, wall);
      const iana = ianaZoneOf(tzid);
      if (iana) return instantOfWallTime(iana, wall);
      const defined = zones.get(tzid);
      if (defined) return defined.instantOf(wall);
      return instantOfWallTime(fallbackZone, wall);
    },
  };
}

function formatDate(time: IcalTime): string {
  return `${String(time.year).padStart(4, '0')}-${String(time.month).padStart(2, '0')}-${String(time.day).padStart(2, '0')}`;
}

function tzidOf(component: IcalComponent, property: string): string | null {
  const value = component.getFirstProperty(property)?.getParameter('tzid');
  return typeof value === 'string' ? value : null;
}

function recurrenceKey(time: IcalTime, reader: TimeReader, tzid: string | null): string {
  return time.isDate ? formatDate(time) : new Date(reader.instantOf(time, tzid)).toISOString();
}

function titleOf(summary: string | null | undefined): string {
  const title = [...(summary ?? '')]
    .filter((character) => !isForbiddenControlCharacter(character.charCodeAt(0)))
    .join('')
    .trim();
  return (title || '(No title)').slice(0, TITLE_MAX_LENGTH);
}

function isCancelled(component: IcalComponent): boolean {
  return String(component.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED';
}

function readFlag(component: IcalComponent): boolean {
  return String(component.getFirstPropertyValue(ALL_DAY_FLAG) ?? '').toUpperCase() === 'TRUE';
}

/** The zones a series' wall clock can be kept in when its TZID is a VTIMEZONE of the file's own making. */
let knownZones: string[] | null = null;

/**
 * The IANA zone a series repeats in: its TZID's, else a zone whose offsets match the file's VTIMEZONE for a year from
 * the start, at its changes too (the user's own zone first, then each region's main zone, then any), else the user's
 * zone (floating times and dates). Matching walks every zone the runtime knows: a VTIMEZONE's match is tried first
 * for its next series, and a year it matched none is not searched again.
 */
function seriesZones(
  zones: Map<string, DefinedZone>,
  fallbackZone: string,
): (tzid: string | null, startAt: number) => string {
  const matched = new Map<string, string>();
  const unmatched = new Set<string>();
  return (tzid, startAt) => {
    if (!tzid) return fallbackZone;
    const iana = ianaZoneOf(tzid);
    if (iana) return iana;
    const defined = zones.get(tzid);
    if (!defined) return fallbackZone;
    const yearKey = `${tzid}\n${new Date(startAt).getUTCFullYear()}`;
    if (unmatched.has(yearKey)) return fallbackZone;
    const samples = [
      ...[0, 91, 182, 273].map((days) => startAt + days * 86_400_000),
      ...defined.transitionsBetween(startAt, startAt + 366 * 86_400_000).flatMap((at) => [at - 60_000, at]),
    ];
    const wanted = samples.map((instant) => defined.offsetSecondsAt(instant) / 60);
    const matches = (zone: string) =>
      samples.every((instant, index) => offsetMinutesAt(zone, instant) === wanted[index]);
    const previous = matched.get(tzid);
    if (previous && matches(previous)) return previous;
    knownZones ??= Intl.supportedValuesOf('timeZone');
    const found = [fallbackZone, ...MAIN_IANA_ZONES, ...knownZones].find(matches);
    if (found) matched.set(tzid, found);
    else unmatched.add(yearKey);
    return found ?? fallbackZone;
  };
}

interface Block {
  lines: string[];
  /** The VEVENT ended (END:VEVENT was read). */
  complete: boolean;
}

/**
 * The first calendar's VTIMEZONEs and VEVENTs, as lines of their own, so that one that cannot be read costs itself
 * only: a VEVENT cut off, a line ical.js refuses, text after END:VCALENDAR. Lines are unfolded first.
 */
function blocksOf(text: string): { calendar: boolean; zones: Block[]; events: Block[] } {
  const zones: Block[] = [];
  const events: Block[] = [];
  let calendar = false;
  let current: Block | null = null;
  let depth = 0;
  for (const line of text.replace(/\r?\n[ \t]/g, '').split(/\r?\n|\r/)) {
    const [nameAndParameters, value] = splitContentLine(line);
    const name = nameAndParameters.split(';')[0]!.trim().toUpperCase();
    const what = value.trim().toUpperCase();
    if (name === 'BEGIN' && what === 'VCALENDAR' && !calendar) {
      calendar = true;
      continue;
    }
    if (!calendar) continue;
    // The calendar ends here, also inside a VEVENT without its END:VEVENT, which is then cut off.
    if (name === 'END' && what === 'VCALENDAR') break;
    // A VEVENT begun inside another one: the first was cut off there.
    if (current && name === 'BEGIN' && what === 'VEVENT') current = null;
    if (current) {
      current.lines.push(line);
      if (name === 'BEGIN') depth += 1;
      else if (name === 'END') {
        depth -= 1;
        if (depth === 0) {
          current.complete = true;
          current = null;
        }
      }
      continue;
    }
    if (name === 'BEGIN' && (what === 'VEVENT' || what === 'VTIMEZONE')) {
      current = { lines: [line], complete: false };
      depth = 1;
      (what === 'VEVENT' ? events : zones).push(current);
    }
  }
  return { calendar, zones, events };
}

/** A lone component parsed by ical.js: as written, or without the lines it cannot read. Throws when neither works. */
function componentOf(block: Block): IcalComponent {
  const parse = (lines: string[]) => {
    const parsed = ICAL.parse(['BEGIN:VCALENDAR', ...lines, 'END:VCALENDAR'].join('\r\n'));
    const root =
      Array.isArray(parsed) && typeof parsed[0] === 'string'
        ? parsed
        : Array.isArray(parsed)
          ? parsed[0]
          : null;
    const component = new ICAL.Component(root).getAllSubcomponents()[0];
    if (!component) throw new Error('empty');
    return component;
  };
  try {
    return parse(block.lines);
  } catch {
    const readable = block.lines.filter((line) => {
      // The component's own BEGIN/END lines (ical.js reads them apart from properties) stay.
      if (/^(BEGIN|END):/i.test(line)) return true;
      if (!/^[A-Za-z0-9-]+[;:]/.test(line)) return false;
      try {
        ICAL.parse.property(line);
        return true;
      } catch {
        return false;
      }
    });
    return parse(readable);
  }
}

/** An RRULE value as written, with an empty UNTIL (Exchange) read as none. */
function writtenRuleOf(component: IcalComponent, block: Block): string | null {
  const line = block.lines.find((candidate) => /^RRULE[;:]/i.test(candidate));
  const written = line ? splitContentLine(line)[1] : component.getFirstProperty('rrule')?.toICALString();
  if (!written) return null;
  const { fields } = ruleFields(written);
  // A rule that cannot be read goes on as written: normalizeSeriesRule says what is wrong with it.
  if (!fields) return written;
  if (fields.get('UNTIL')?.trim() === '') fields.delete('UNTIL');
  return formatRule(fields);
}

/**
 * The values of every property of that name (EXDATE, RDATE may repeat and each may list several); a PERIOD value
 * (RDATE) gives its start and end. Values ical.js cannot read as times are left out.
 */
interface TimeValue {
  time: IcalTime;
  tzid: string | null;
  end: IcalTime | null;
}

function timesOf(component: IcalComponent, name: string): TimeValue[] {
  return component.getAllProperties(name).flatMap((property) => {
    const written = property.getParameter('tzid');
    const tzid = typeof written === 'string' ? written : null;
    let values: unknown[];
    try {
      values = property.getValues();
    } catch {
      // ical.js reads the values when asked: a line of them it cannot read adds none.
      return [];
    }
    return values.flatMap((value): TimeValue[] => {
      try {
        if (value instanceof ICAL.Time) return [{ time: value, tzid, end: null }];
        if (value instanceof ICAL.Period) return [{ time: value.start, tzid, end: value.getEnd() }];
      } catch {
        // A period whose end cannot be read is left out with the unreadable values.
      }
      return [];
    });
  });
}

class SkipEvent extends Error {}

/** The UID of an event's key ('<uid>#<recurrence id>'). */
export const uidOfKey = (key: string) => key.slice(0, key.lastIndexOf('#'));

/**
 * Whether the series' rule gives an occurrence starting then (skipped ones too: an override may name one). A COUNT
 * series is walked from its start on every question, so its starts are listed once (at most SERIES_LIMITS.count);
 * other rules start their walk near the start asked about.
 */
function occurrenceTest(master: ImportedEvent): (start: number) => boolean {
  const { series } = master;
  if (!series) return () => false;
  const shape = {
    rrule: series.rrule,
    zone: series.zone,
    startAt: master.startAt,
    durationMs: master.endAt - master.startAt,
    allDay: master.allDay,
    exdates: [],
  };
  if (!/(^|;)COUNT=/i.test(series.rrule)) return (start) => hasOccurrenceAt(shape, start);
  const starts = new Set(occurrenceStarts(shape, shape.startAt, SERIES_NEVER_ENDS));
  return (start) => starts.has(start);
}

/**
 * Reads a VCALENDAR into events and series: TZIDs resolve through IANA names, Windows names or the file's VTIMEZONEs,
 * dates and floating times are read in `timeZone`. A VEVENT with an RRULE is a series, stored once (its EXDATEs and
 * cancelled occurrences skipped); one with a RECURRENCE-ID is an override of its series' occurrence. An event that
 * cannot be read is skipped with its reason; the file is refused only when it holds no readable event.
 */
export function parseCalendar(text: string, timeZone: string, _now: number): ParsedCalendar {
  // NUL never occurs in iCalendar text; it marks a binary file (and PostgreSQL could not store it anyway).
  if (text.includes('\u0000'))
    throw new InvalidCalendarError('The file is not a valid iCalendar (.ics) file: it contains binary data');
  const { calendar, zones: zoneBlocks, events: eventBlocks } = blocksOf(text.replace(/^\uFEFF/, ''));
  if (!calendar) throw new InvalidCalendarError('The file is not a valid iCalendar (.ics) file');
  // Text before BEGIN:VCALENDAR is passed over, but not bytes that are no text at all: that is another kind of file
  // (an image, an archive) that happens to hold a calendar's lines.
  const prefix = text.slice(0, Math.max(0, text.search(/^\s*BEGIN\s*:\s*VCALENDAR/im)));
  if (hasForbiddenControlCharacter(prefix) || prefix.includes('\uFFFD')) {
    throw new InvalidCalendarError(
      'The file is not a valid iCalendar (.ics) file: it starts with binary data',
    );
  }
  if (eventBlocks.length === 0) throw new InvalidCalendarError('The calendar contains no events (no VEVENT)');

  const zones = timezonesOf(zoneBlocks);
  const seriesZoneOf = seriesZones(zones, timeZone);
  const reader = timeReader(zones, timeZone);
  const skippedEvents: SkippedEvent[] = [];
  let skipped = 0;
  const skip = (uid: string, summary: string, reason: string) => {
    skipped += 1;
    if (skippedEvents.length < PARSE_LIMITS.reportedSkips) {
      skippedEvents.push({ uid: uid.slice(0, 200), summary: summary.slice(0, 200), reason });
    }
  };

  interface Read {
    component: IcalComponent;
    event: InstanceType<typeof ICAL.Event>;
    block: Block;
  }
  const read: Read[] = [];
  for (const block of eventBlocks) {
    const uidLine = block.lines.find((line) => /^UID[;:]/i.test(line));
    const summaryLine = block.lines.find((line) => /^SUMMARY[;:]/i.test(line));
    const uid = uidLine ? splitContentLine(uidLine)[1].trim() : '';
    const summary = summaryLine ? titleOf(splitContentLine(summaryLine)[1]) : '';
    if (!block.complete) {
      skip(uid, summary, 'The event is cut off: the file ends before its END:VEVENT');
      continue;
    }
    try {
      const component = componentOf(block);
      read.push({ component, event: eventOf(component), block });
    } catch {
      skip(uid, summary, 'The event is not valid iCalendar text');
    }
  }

  const instantOf = (time: IcalTime, tzid: string | null) => reader.instantOf(time, tzid);
  /** A start named by an EXDATE or RECURRENCE-ID, in the terms of the series' occurrences. */
  const occurrenceStartOf = (
    time: IcalTime,
    tzid: string | null,
    series: { allDay: boolean; zone: string; start: IcalTime },
  ) => {
    if (series.allDay) {
      const date = time.isDate ? formatDate(time) : localDateAt(series.zone, instantOf(time, tzid));
      return startOfLocalDay(series.zone, date);
    }
    if (time.isDate) {
      const { hour, minute, second } = series.start;
      return instantOfWallTime(series.zone, {
        year: time.year,
        month: time.month,
        day: time.day,
        hour,
        minute,
        second,
      });
    }
    return instantOf(time, tzid);
  };

  const events = new Map<string, ImportedEvent>();
  const masters = new Map<
    string,
    {
      entry: ImportedEvent;
      allDay: boolean;
      zone: string;
      start: IcalTime;
      isOccurrence?: (start: number) => boolean;
    }
  >();
  const overrides: {
    entry: ImportedEvent;
    uid: string;
    time: IcalTime;
    tzid: string | null;
    cancelled: boolean;
  }[] = [];

  for (const { component, event, block } of read) {
    const uidWritten = event.uid ?? '';
    const title = titleOf(event.summary);
    try {
      if (!component.hasProperty('dtstart')) throw new SkipEvent('It has no start (DTSTART)');
      let startDate: IcalTime;
      let startAt: number;
      const startTzid = tzidOf(component, 'dtstart');
      try {
        startDate = event.startDate;
        startAt = instantOf(startDate, startTzid);
      } catch {
        throw new SkipEvent('Its start (DTSTART) cannot be read');
      }
      if (Number.isNaN(startAt)) throw new SkipEvent('Its start (DTSTART) cannot be read');
      const allDay = startDate.isDate || readFlag(component);
      let endAt: number;
      try {
        endAt = event.endDate ? instantOf(event.endDate, tzidOf(component, 'dtend') ?? startTzid) : startAt;
      } catch {
        throw new SkipEvent('Its end (DTEND or DURATION) cannot be read');
      }
      if (startDate.isDate && endAt <= startAt) {
        endAt = startOfLocalDay(timeZone, addDays(formatDate(startDate), 1));
      }
      if (!isInstantInRange(startAt) || !isInstantInRange(endAt)) {
        throw new SkipEvent('Its dates are outside the years 1900 to 2999');
      }
      // A date-time start alone is a point in time (RFC 5545 3.6.1): shown on the grid, it costs no time. An end before
      // the start is read the same way rather than losing the event.
      if (endAt < startAt) endAt = startAt;
      const uid = uidWritten || `generated-${startAt}-${title}`;
      if (uid.length > PARSE_LIMITS.uidLength) throw new SkipEvent('Its UID is too long');

      if (component.hasProperty('recurrence-id')) {
        const recurrence = component.getFirstPropertyValue('recurrence-id');
        if (!(recurrence instanceof ICAL.Time)) throw new SkipEvent('Its RECURRENCE-ID cannot be read');
        const tzid = tzidOf(component, 'recurrence-id');
        const key = `${uid}#${recurrenceKey(recurrence, reader, tzid)}`;
        const entry = { key, title, startAt, endAt, allDay, series: null, recurrenceAt: null };
        overrides.push({ entry, uid, time: recurrence, tzid, cancelled: isCancelled(component) });
        continue;
      }
      if (isCancelled(component)) throw new SkipEvent('It is cancelled (STATUS:CANCELLED)');
      const rule = component.hasProperty('rrule') ? writtenRuleOf(component, block) : null;
      // An event whose repeat rule cannot be used is still an event: it is imported once, and the answer says why.
      let ruleProblem = component.hasProperty('rrule') && !rule ? 'Its RRULE is empty' : undefined;
      const rdates = timesOf(component, 'rdate');
      // The zone whose wall clock the event repeats in; a series given in UTC repeats in UTC (RFC 5545 3.3.5),
      // whatever zone the calendar's reader is in. Only series and RDATEs need it (matching a VTIMEZONE costs).
      const zone =
        allDay || (!rule && rdates.length === 0)
          ? timeZone
          : !startTzid && startDate.zone?.tzid === 'UTC'
            ? 'UTC'
            : seriesZoneOf(startTzid, startAt);
      const shape = { allDay, zone, start: startDate };
      const exdates = timesOf(component, 'exdate').map(({ time, tzid }) =>
        occurrenceStartOf(time, tzid, shape),
      );
      let series: ImportedSeries | null = null;
      if (rule) {
        try {
          series = { rrule: normalizeSeriesRule(rule, startAt, zone), zone, exdates };
        } catch (error) {
          if (!(error instanceof SeriesRuleError)) throw error;
          ruleProblem = error.message;
        }
      }
      const entry: ImportedEvent = {
        key: `${uid}#`,
        title,
        startAt,
        endAt,
        allDay,
        series,
        recurrenceAt: null,
        ...(ruleProblem === undefined ? {} : { ruleProblem }),
      };
      events.set(entry.key, entry);
      if (series) masters.set(uid, { entry, ...shape });
      // RDATEs: occurrences the rule does not give (or, without a rule, the event's other occurrences), each kept as
      // an event of its own under its recurrence id, the way this server exports it back. A PERIOD has its own end.
      const skippedStarts = new Set(exdates);
      for (const { time, tzid, end } of rdates) {
        const extraStart = occurrenceStartOf(time, tzid, shape);
        const extraEnd = end ? occurrenceStartOf(end, tzid, shape) : extraStart + (endAt - startAt);
        if (extraStart === startAt || skippedStarts.has(extraStart) || extraEnd <= extraStart) continue;
        if (!isInstantInRange(extraStart) || !isInstantInRange(extraEnd)) continue;
        const key = `${uid}#${recurrenceKey(time, reader, tzid)}`;
        events.set(key, {
          key,
          title,
          startAt: extraStart,
          endAt: extraEnd,
          allDay,
          series: null,
          recurrenceAt: null,
        });
      }
    } catch (error) {
      if (!(error instanceof SkipEvent) && !(error instanceof Error)) throw error;
      skip(uidWritten, title, error instanceof SkipEvent ? error.message : 'It cannot be read');
    }
  }

  for (const { entry, uid, time, tzid, cancelled } of overrides) {
    const master = masters.get(uid);
    if (!master) {
      // An override without its series in the file: the occurrence as an event of its own.
      if (cancelled)
        skip(uid, entry.title, 'It is a cancelled occurrence of a series the file does not hold');
      else events.set(entry.key, entry);
      continue;
    }
    const start = occurrenceStartOf(time, tzid, master);
    master.isOccurrence ??= occurrenceTest(master.entry);
    if (!master.isOccurrence(start)) {
      // A RECURRENCE-ID the rule does not give names an RDATE's occurrence (this server exports those so) or none:
      // the event is one of its own, as the series' RDATEs are; a cancelled one has nothing left to show.
      if (!cancelled) events.set(entry.key, entry);
      continue;
    }
    if (cancelled) master.entry.series!.exdates.push(start);
    else events.set(entry.key, { ...entry, recurrenceAt: start });
  }

  const all = [...events.values()];
  if (all.length === 0) {
    const reasons = skippedEvents.map((event) => event.reason);
    throw new InvalidCalendarError(
      `No event in the file could be read${reasons.length > 0 ? `: ${reasons[0]}` : ''}`,
    );
  }
  if (all.length > PARSE_LIMITS.eventsPerImport) {
    for (const event of all.slice(PARSE_LIMITS.eventsPerImport)) {
      skip(
        uidOfKey(event.key),
        event.title,
        `The file holds more than ${PARSE_LIMITS.eventsPerImport} events: the rest are not imported`,
      );
    }
    all.length = PARSE_LIMITS.eventsPerImport;
  }
  return { events: all, skipped, skippedEvents };
}
