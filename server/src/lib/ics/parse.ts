import ICAL from 'ical.js';
import { TITLE_MAX_LENGTH } from '../../schemas/product.js';
import { isForbiddenControlCharacter, isInstantInRange } from '../input-rules.js';
import { addDays, instantOfWallTime, isValidTimeZone, localDateAt, startOfLocalDay } from '../time-zone.js';
import { ALL_DAY_FLAG } from './conventions.js';
import { recurrenceRuleProblem, weekdayName } from './recurrence-rules.js';

type IcalTime = InstanceType<typeof ICAL.Time>;
type IcalComponent = InstanceType<typeof ICAL.Component>;
type IcalTimezone = InstanceType<typeof ICAL.Timezone>;

export const PARSE_LIMITS = {
  /** Recurring events are expanded this far either side of the import time. */
  horizonMs: 366 * 24 * 3600 * 1000,
  occurrencesPerSeries: 1000,
  /** Bounds the work a hostile RRULE (say, every second since 1970) can cause. */
  iterationsPerSeries: 20_000,
  eventsPerImport: 5000,
  /** Longer UIDs are skipped: the (user, UID) index has a row-size limit on PostgreSQL. */
  uidLength: 500,
} as const;

export interface ImportedEvent {
  /** UID plus '#' plus the occurrence's recurrence id ('' for a single event): re-imports match on it. */
  key: string;
  title: string;
  startAt: number;
  endAt: number;
  allDay: boolean;
}

export interface ParsedCalendar {
  events: ImportedEvent[];
  skipped: number;
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

/**
 * The RRULE values of each VEVENT of the first calendar as written, in file order. ical.js reads INTERVAL=0 and
 * negative intervals as 1, so the rule checks read the text; ical.js's own values serve when the two disagree.
 */
function writtenRulesOfEvents(text: string): string[][] {
  const events: string[][] = [];
  const open: string[] = [];
  for (const line of text.replace(/\r?\n[ \t]/g, '').split(/\r?\n/)) {
    const [nameAndParameters, value] = splitContentLine(line);
    const name = nameAndParameters.split(';')[0]!.trim().toUpperCase();
    if (name === 'BEGIN') {
      open.push(value.trim().toUpperCase());
      if (open.length === 2 && open[1] === 'VEVENT') events.push([]);
    } else if (name === 'END') {
      open.pop();
      if (open.length === 0) break;
    } else if (name === 'RRULE' && open.length === 2 && open[1] === 'VEVENT') {
      events.at(-1)!.push(value);
    }
  }
  return events;
}

/** Why the series must not be expanded (see recurrence-rules.ts), or null. */
function seriesProblem(
  component: IcalComponent,
  startDate: IcalTime,
  secondsToWalk: number,
  writtenRules: string[] | undefined,
): string | null {
  const properties = component.getAllProperties('rrule');
  const rules =
    writtenRules && writtenRules.length === properties.length
      ? writtenRules
      : properties.map((property) => String(property.getFirstValue()));
  const startWeekday = weekdayName(startDate.dayOfWeek());
  if (!startWeekday) return 'DTSTART has no weekday';
  const series = { startWeekday, secondsToWalk, maxOccurrences: PARSE_LIMITS.iterationsPerSeries };
  for (const rule of rules) {
    const problem = recurrenceRuleProblem(rule, series);
    if (problem) return problem;
  }
  return null;
}

function timezonesOf(calendar: IcalComponent): Map<string, IcalTimezone> {
  const zones = new Map<string, IcalTimezone>();
  for (const component of calendar.getAllSubcomponents('vtimezone')) {
    // ical.js expands a zone's own RRULEs to find its offsets: a zone with a rule it must not expand is not used,
    // and times that name it read as an unknown zone does.
    const rules = component
      .getAllSubcomponents()
      .flatMap((part) => part.getAllProperties('rrule'))
      .map((property) => String(property.getFirstValue()));
    if (rules.some((rule) => recurrenceRuleProblem(rule) !== null)) continue;
    const zone = new ICAL.Timezone(component);
    if (zone.tzid) zones.set(zone.tzid, zone);
  }
  return zones;
}

/** IANA name for a TZID, including vendor forms such as '/mozilla.org/20050126_1/America/New_York'. */
function ianaZoneOf(tzid: string): string | null {
  if (isValidTimeZone(tzid)) return tzid;
  const segments = tzid.split('/').filter(Boolean);
  for (let take = Math.min(3, segments.length); take >= 2; take -= 1) {
    const candidate = segments.slice(-take).join('/');
    if (isValidTimeZone(candidate)) return candidate;
  }
  return null;
}

interface TimeReader {
  /** `tzid` is the property's TZID parameter: ical.js drops zones the file does not define. */
  instantOf(time: IcalTime, tzid?: string | null): number;
}

function timeReader(zones: Map<string, IcalTimezone>, fallbackZone: string): TimeReader {
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
      if (defined) {
        const offsetSeconds = defined.utcOffset(time);
        return (
          Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second) -
          offsetSeconds * 1000
        );
      }
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

/**
 * Reads a VCALENDAR into events: TZIDs resolve through IANA names or the file's VTIMEZONEs, dates and floating times
 * are read in `timeZone`, and RRULE/RDATE/EXDATE series are expanded within the horizon around `now`, with
 * RECURRENCE-ID overrides replacing the occurrence they name.
 */
export function parseCalendar(text: string, timeZone: string, now: number): ParsedCalendar {
  // NUL never occurs in iCalendar text; it marks a binary file (and PostgreSQL could not store it anyway).
  if (text.includes('\u0000'))
    throw new InvalidCalendarError('The file is not a valid iCalendar (.ics) file: it contains binary data');
  let calendar: IcalComponent;
  try {
    const parsed = ICAL.parse(text);
    const root =
      Array.isArray(parsed) && typeof parsed[0] === 'string'
        ? parsed
        : Array.isArray(parsed)
          ? parsed[0]
          : null;
    if (!root) throw new InvalidCalendarError('No calendar in the file');
    calendar = new ICAL.Component(root);
  } catch (error) {
    if (error instanceof InvalidCalendarError) throw error;
    throw new InvalidCalendarError('The file is not a valid iCalendar (.ics) file');
  }
  if (calendar.name !== 'vcalendar')
    throw new InvalidCalendarError('The file is not a valid iCalendar (.ics) file');

  const reader = timeReader(timezonesOf(calendar), timeZone);
  const horizonStart = now - PARSE_LIMITS.horizonMs;
  const horizonEnd = now + PARSE_LIMITS.horizonMs;
  const events = new Map<string, ImportedEvent>();
  let skipped = 0;

  const components = calendar.getAllSubcomponents('vevent');
  if (components.length === 0) throw new InvalidCalendarError('The calendar contains no events (no VEVENT)');
  const writtenRules = writtenRulesOfEvents(text);
  const rulesAsWritten = writtenRules.length === components.length;
  const overrideKeys = new Set<string>();
  for (const component of components) {
    try {
      const event = eventOf(component);
      if (event.isRecurrenceException() && event.uid) {
        overrideKeys.add(
          `${event.uid}#${recurrenceKey(event.recurrenceId, reader, tzidOf(component, 'recurrence-id'))}`,
        );
      }
    } catch {
      // A broken component is counted as skipped in the main pass.
    }
  }

  const add = (entry: ImportedEvent) => {
    const outOfRange = !isInstantInRange(entry.startAt) || !isInstantInRange(entry.endAt);
    if (entry.endAt <= entry.startAt || outOfRange || entry.key.length > PARSE_LIMITS.uidLength) {
      skipped += 1;
      return;
    }
    events.set(entry.key, entry);
  };

  // One VEVENT's occurrences, or a throw: ical.js throws plain errors on values it cannot read (UNTIL=garbage,
  // RDATE:garbage, an empty RRULE), and such an event is skipped as a whole rather than failing the file.
  const occurrencesOf = (
    component: IcalComponent,
    rulesOfComponent: string[] | undefined,
  ): { entries: ImportedEvent[]; skipped: number } => {
    const event = eventOf(component);
    if (!event.startDate) throw new Error('no DTSTART');
    if (isCancelled(component)) return { entries: [], skipped: 1 };
    const allDay = event.startDate.isDate || readFlag(component);
    const title = titleOf(event.summary);
    const startTzid = tzidOf(component, 'dtstart');
    const startAt = reader.instantOf(event.startDate, startTzid);
    const endAt = event.endDate
      ? reader.instantOf(event.endDate, tzidOf(component, 'dtend') ?? startTzid)
      : startAt;
    const uid = event.uid || `generated-${startAt}-${title}`;

    if (event.isRecurrenceException()) {
      const key = `${uid}#${recurrenceKey(event.recurrenceId, reader, tzidOf(component, 'recurrence-id'))}`;
      return { entries: [{ key, title, startAt, endAt, allDay }], skipped: 0 };
    }
    if (!event.isRecurring())
      return { entries: [{ key: `${uid}#`, title, startAt, endAt, allDay }], skipped: 0 };

    // A rule that can never produce an occurrence (or that RFC 5545 forbids) never reaches ical.js's iterator.
    const secondsToWalk = (horizonEnd - startAt) / 1000;
    if (seriesProblem(component, event.startDate, secondsToWalk, rulesOfComponent))
      return { entries: [], skipped: 1 };

    const durationMs = endAt - startAt;
    const dayCount =
      event.startDate.isDate && event.endDate?.isDate ? Math.max(1, Math.round(durationMs / 86_400_000)) : 0;
    const iterator = event.iterator();
    const entries: ImportedEvent[] = [];
    let overCap = 0;
    for (let iteration = 0; iteration < PARSE_LIMITS.iterationsPerSeries; iteration += 1) {
      const occurrence = iterator.next();
      if (!occurrence) break;
      const occurrenceStart = reader.instantOf(occurrence, startTzid);
      if (occurrenceStart > horizonEnd) break;
      const occurrenceEnd = occurrence.isDate
        ? startOfLocalDay(timeZone, addDays(localDateAt(timeZone, occurrenceStart), dayCount))
        : occurrenceStart + durationMs;
      if (occurrenceEnd < horizonStart) continue;
      const key = `${uid}#${recurrenceKey(occurrence, reader, startTzid)}`;
      if (overrideKeys.has(key)) continue;
      if (entries.length >= PARSE_LIMITS.occurrencesPerSeries) {
        overCap += 1;
        continue;
      }
      entries.push({ key, title, startAt: occurrenceStart, endAt: occurrenceEnd, allDay });
    }
    return { entries, skipped: overCap };
  };

  for (const [index, component] of components.entries()) {
    let read: { entries: ImportedEvent[]; skipped: number };
    try {
      read = occurrencesOf(component, rulesAsWritten ? writtenRules[index] : undefined);
    } catch {
      skipped += 1;
      continue;
    }
    skipped += read.skipped;
    for (const entry of read.entries) add(entry);
  }

  const all = [...events.values()];
  if (all.length > PARSE_LIMITS.eventsPerImport) {
    skipped += all.length - PARSE_LIMITS.eventsPerImport;
    all.length = PARSE_LIMITS.eventsPerImport;
  }
  return { events: all, skipped };
}
