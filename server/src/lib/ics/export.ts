import { setImmediate as nextTurn } from 'node:timers/promises';
import ICAL from 'ical.js';
import { textInBatches } from '../text-batches.js';
import { addDays, localDateAt, wallTimeAt } from '../time-zone.js';
import { ALL_DAY_FLAG, OWN_UID_SUFFIX, TASK_UID_SUFFIX } from './conventions.js';
import { vtimezoneComponent } from './vtimezone-writer.js';

type IcalTime = InstanceType<typeof ICAL.Time>;
type IcalComponent = InstanceType<typeof ICAL.Component>;

/** A series' master: its rule as stored, the zone its wall clock keeps, and its skipped starts. */
export interface ExportableSeries {
  rrule: string;
  zone: string;
  exdates: number[];
}

export interface ExportableEvent {
  id: string;
  title: string;
  /** A series' first occurrence and its length, a single event's or an override's own span. */
  startAt: number;
  endAt: number;
  allDay: boolean;
  icsKey: string | null;
  series: ExportableSeries | null;
  /** An override: its series' id, the key its series was imported with (null for a series made here), and the start
   * it replaces. */
  seriesId: string | null;
  seriesKey: string | null;
  recurrenceAt: number | null;
}

/** An event in the feed: its DTSTAMP is when it last changed, so unchanged data is written byte for byte the same. */
export type FeedEvent = ExportableEvent & { updatedAt: number };

/** A task in the feed, written as a VEVENT (calendar apps subscribe to events; Google ignores VTODO). */
export interface ExportableTask {
  id: string;
  title: string;
  notes: string;
  done: boolean;
  /** false for a task without times yet: written as its whole day. */
  scheduled: boolean;
  /** As for events: a series' first occurrence and its length, a single task's or an override's own span. */
  startAt: number;
  endAt: number;
  series: ExportableSeries | null;
  /** An override: its series' id and the start it replaces. */
  seriesId: string | null;
  recurrenceAt: number | null;
  updatedAt: number;
}

/** What the feed route hands the writer: the account's events and tasks, a page at a time. */
export interface CalendarFeed {
  /** X-WR-CALNAME: the name calendar apps show for the subscription. */
  name: string;
  /** The account's zone: the dates of all-day items that are not series. */
  timeZone: string;
  events: AsyncIterable<FeedEvent[]>;
  tasks: AsyncIterable<ExportableTask[]>;
}

/** The categories and first description line of a task in the feed. */
export const TASK_CATEGORY = 'Time Wallet task';

const RECUR_VALUE = ICAL.design.icalendar.value.recur as {
  fromICAL(text: string): Record<string, unknown>;
};

// Each component is written as ical.js writes a calendar's subcomponents: with the calendar's design set, which here
// also knows X-WR-CALNAME as TEXT, so a feed name is escaped like any other text (ical.js writes unknown properties
// raw, and a name with a line break would end the calendar).
const VCALENDAR_DESIGN = ICAL.design.getDesignSet('vcalendar');
const DESIGN = {
  ...VCALENDAR_DESIGN,
  property: { ...VCALENDAR_DESIGN.property, 'x-wr-calname': { defaultType: 'text' } },
};

const CRLF_ONLY = (text: string) => text.replace(/\r?\n/g, '\r\n');
const textOf = (component: IcalComponent) =>
  `${CRLF_ONLY(ICAL.stringify.component(component.jCal, DESIGN))}\r\n`;

function utcTime(instant: number): IcalTime {
  return ICAL.Time.fromDateTimeString(new Date(instant).toISOString().replace(/\.\d{3}Z$/, 'Z'));
}

const stampOf = (instant: number) => utcTime(instant - (instant % 1000));

function dateTime(date: string): IcalTime {
  return ICAL.Time.fromDateString(date);
}

function isLocalMidnight(timeZone: string, instant: number): boolean {
  const wall = wallTimeAt(timeZone, instant);
  return wall.hour === 0 && wall.minute === 0 && wall.second === 0 && instant % 1000 === 0;
}

/**
 * The zones a file's TZIDs name, each with the first and last instant written in it: what its VTIMEZONEs cover. At
 * most one entry per zone name, so the memory a streamed file keeps does not grow with its events.
 */
class ZonesUsed {
  readonly #spans = new Map<string, { from: number; to: number }>();

  note(zone: string, instant: number) {
    const span = this.#spans.get(zone);
    if (!span) this.#spans.set(zone, { from: instant, to: instant });
    else {
      span.from = Math.min(span.from, instant);
      span.to = Math.max(span.to, instant);
    }
  }

  /** One VTIMEZONE per zone used, by name, with a turn of the event loop after each (a zone costs some Intl work). */
  async *texts(): AsyncGenerator<string> {
    for (const [zone, { from, to }] of [...this.#spans].sort(([a], [b]) => (a < b ? -1 : 1))) {
      yield textOf(vtimezoneComponent(zone, from, to));
      await nextTurn();
    }
  }
}

/** How a file is being written: the reader's zone (the dates of all-day items that are not series), its zones. */
interface Writing {
  timeZone: string;
  zones: ZonesUsed;
}

/** A series' time: a local date, or its zone's wall-clock time with the zone's IANA name as TZID. */
function setZonedTime(
  component: IcalComponent,
  name: string,
  value: { instant: number; zone: string; allDay: boolean; date?: string },
  writing: Writing,
) {
  if (value.allDay) {
    component.updatePropertyWithValue(name, dateTime(value.date ?? localDateAt(value.zone, value.instant)));
    return;
  }
  const wall = wallTimeAt(value.zone, value.instant);
  const property = component.updatePropertyWithValue(name, ICAL.Time.fromData(wall));
  property.setParameter('tzid', value.zone);
  writing.zones.note(value.zone, value.instant);
}

/** An all-day item's last date (exclusive): its end's date, and at least the day after its start's. */
function endDateOf(zone: string, startAt: number, endAt: number): string {
  const start = localDateAt(zone, startAt);
  const end = localDateAt(zone, endAt);
  return end > start ? end : addDays(start, 1);
}

/** DTSTART, DTEND, the rule as stored and the skipped starts of a series' master. */
function writeSeries(
  component: IcalComponent,
  item: { startAt: number; endAt: number; allDay: boolean; series: ExportableSeries },
  writing: Writing,
  endDate?: string,
) {
  const { series, allDay } = item;
  setZonedTime(component, 'dtstart', { instant: item.startAt, zone: series.zone, allDay }, writing);
  setZonedTime(
    component,
    'dtend',
    { instant: item.endAt, zone: series.zone, allDay, date: endDate },
    writing,
  );
  // The stored rule as written, part for part: ICAL.Recur would reorder its parts and drop INTERVAL=1, and the
  // re-import would then see a changed rule.
  component.addProperty(new ICAL.Property(['rrule', {}, 'recur', RECUR_VALUE.fromICAL(series.rrule)]));
  if (series.exdates.length > 0) {
    const property = new ICAL.Property('exdate');
    property.setValues(
      series.exdates.map((start) => (allDay ? dateTime(localDateAt(series.zone, start)) : utcTime(start))),
    );
    component.addProperty(property);
  }
}

/** RECURRENCE-ID: a date ('2026-03-20') or an instant (ISO text). */
function setRecurrenceId(component: IcalComponent, recurrence: string) {
  component.updatePropertyWithValue(
    'recurrence-id',
    /^\d{4}-\d{2}-\d{2}$/.test(recurrence) ? dateTime(recurrence) : utcTime(Date.parse(recurrence)),
  );
}

/** The occurrence an override replaces, as its RECURRENCE-ID names it: a date for an all-day one. */
const replacedOccurrence = (recurrenceAt: number, allDay: boolean, timeZone: string) =>
  allDay ? localDateAt(timeZone, recurrenceAt) : new Date(recurrenceAt).toISOString();

function eventComponent(event: ExportableEvent, writing: Writing, stamp: IcalTime): IcalComponent {
  const { timeZone } = writing;
  const component = new ICAL.Component('vevent');
  const separator = event.icsKey?.lastIndexOf('#') ?? -1;
  const imported = event.icsKey
    ? { uid: event.icsKey.slice(0, separator), recurrence: event.icsKey.slice(separator + 1) }
    : null;
  const override = event.seriesId !== null && event.recurrenceAt !== null;
  // An override is written under its series' UID (also one edited here in an imported series), and names the
  // occurrence it replaces now (a series edit may have moved it since it was imported). Other imported rows keep the
  // UID and recurrence id they came with (an RDATE's event).
  const uid = override
    ? event.seriesKey
      ? event.seriesKey.slice(0, event.seriesKey.lastIndexOf('#'))
      : `${event.seriesId}${OWN_UID_SUFFIX}`
    : (imported?.uid ?? `${event.id}${OWN_UID_SUFFIX}`);
  const recurrence = override
    ? replacedOccurrence(event.recurrenceAt!, event.allDay, timeZone)
    : (imported?.recurrence ?? '');
  component.updatePropertyWithValue('uid', uid);
  component.updatePropertyWithValue('dtstamp', stamp);
  if (recurrence) setRecurrenceId(component, recurrence);
  component.updatePropertyWithValue('summary', event.title);
  if (event.series) {
    writeSeries(component, { ...event, series: event.series }, writing);
    return component;
  }
  const wholeDays =
    event.allDay && isLocalMidnight(timeZone, event.startAt) && isLocalMidnight(timeZone, event.endAt);
  if (wholeDays) {
    component.updatePropertyWithValue('dtstart', dateTime(localDateAt(timeZone, event.startAt)));
    component.updatePropertyWithValue('dtend', dateTime(localDateAt(timeZone, event.endAt)));
  } else {
    component.updatePropertyWithValue('dtstart', utcTime(event.startAt));
    component.updatePropertyWithValue('dtend', utcTime(event.endAt));
    if (event.allDay) component.updatePropertyWithValue(ALL_DAY_FLAG, 'TRUE');
  }
  return component;
}

/**
 * A task as a VEVENT: UID '<id>@tasks.time-wallet' (an override under its series' UID, with the RECURRENCE-ID of the
 * occurrence it replaces), a done one's title after a check mark, CATEGORIES and the description's first line saying
 * it is a Time Wallet task, its notes after it. A task without times is its whole day.
 */
function taskComponent(task: ExportableTask, writing: Writing): IcalComponent {
  const { timeZone } = writing;
  const component = new ICAL.Component('vevent');
  const allDay = !task.scheduled;
  const override = task.seriesId !== null && task.recurrenceAt !== null;
  component.updatePropertyWithValue('uid', `${override ? task.seriesId : task.id}${TASK_UID_SUFFIX}`);
  component.updatePropertyWithValue('dtstamp', stampOf(task.updatedAt));
  if (override) setRecurrenceId(component, replacedOccurrence(task.recurrenceAt!, allDay, timeZone));
  component.updatePropertyWithValue('summary', task.done ? `✓ ${task.title}` : task.title);
  const kind = task.done ? `${TASK_CATEGORY} (done)` : TASK_CATEGORY;
  component.updatePropertyWithValue('description', task.notes ? `${kind}\n\n${task.notes}` : kind);
  component.updatePropertyWithValue('categories', TASK_CATEGORY);
  if (task.series) {
    const endDate = allDay ? endDateOf(task.series.zone, task.startAt, task.endAt) : undefined;
    writeSeries(component, { ...task, allDay, series: task.series }, writing, endDate);
  } else if (allDay) {
    component.updatePropertyWithValue('dtstart', dateTime(localDateAt(timeZone, task.startAt)));
    component.updatePropertyWithValue('dtend', dateTime(endDateOf(timeZone, task.startAt, task.endAt)));
  } else {
    component.updatePropertyWithValue('dtstart', utcTime(task.startAt));
    component.updatePropertyWithValue('dtend', utcTime(task.endAt));
  }
  return component;
}

/** The calendar's text before its components, and its END line. */
function calendarFrame(properties: Array<[string, string]>): { head: string; end: string } {
  const calendar = new ICAL.Component(['vcalendar', [], []]);
  for (const [name, value] of properties) {
    // Every calendar property written here is TEXT (VERSION and PRODID are too, in ical.js's design).
    calendar.addProperty(new ICAL.Property([name, {}, 'text', value]));
  }
  const text = textOf(calendar);
  const end = text.lastIndexOf('END:VCALENDAR');
  return { head: text.slice(0, end), end: text.slice(end) };
}

/**
 * A VCALENDAR that re-imports to the same events: imported events keep their UID and RECURRENCE-ID, others get
 * '<id>@time-wallet'. All-day events become DATE values when they span whole local days, otherwise UTC times with a
 * flag that keeps them all-day. A series is written once in its zone (TZID), with a VTIMEZONE for each zone after
 * the events (RFC 5545 orders no components; what the file uses is only known once its events are written). The
 * text comes in chunks (see textInBatches): a streamed export keeps one page of events and one entry per zone.
 */
export async function* calendarChunks(
  pages: AsyncIterable<ExportableEvent[]>,
  timeZone: string,
  now: number,
): AsyncGenerator<string> {
  const { head, end } = calendarFrame([
    ['version', '2.0'],
    ['prodid', '-//Time Wallet//Calendar export//EN'],
    ['calscale', 'GREGORIAN'],
  ]);
  yield head;
  const writing: Writing = { timeZone, zones: new ZonesUsed() };
  const stamp = stampOf(now);
  yield* textInBatches(pages, (event) => textOf(eventComponent(event, writing, stamp)));
  yield* writing.zones.texts();
  yield end;
}

/**
 * The private feed: the account's events (as the export writes them) and then its tasks (see taskComponent), under
 * X-WR-CALNAME, with a VTIMEZONE for each zone used. Each item's DTSTAMP is when it last changed, so the same data is
 * the same bytes (an ETag of the text stays valid until something changes).
 */
export async function* feedChunks(feed: CalendarFeed): AsyncGenerator<string> {
  const { head, end } = calendarFrame([
    ['version', '2.0'],
    ['prodid', '-//Time Wallet//Calendar feed//EN'],
    ['calscale', 'GREGORIAN'],
    ['x-wr-calname', feed.name],
  ]);
  yield head;
  const writing: Writing = { timeZone: feed.timeZone, zones: new ZonesUsed() };
  yield* textInBatches(feed.events, (event) =>
    textOf(eventComponent(event, writing, stampOf(event.updatedAt))),
  );
  yield* textInBatches(feed.tasks, (task) => textOf(taskComponent(task, writing)));
  yield* writing.zones.texts();
  yield end;
}
