import ICAL from 'ical.js';
import { textInBatches } from '../text-batches.js';
import { localDateAt, wallTimeAt } from '../time-zone.js';
import { ALL_DAY_FLAG, OWN_UID_SUFFIX } from './conventions.js';

type IcalTime = InstanceType<typeof ICAL.Time>;
type IcalComponent = InstanceType<typeof ICAL.Component>;

export interface ExportableEvent {
  id: string;
  title: string;
  /** A series' first occurrence and its length, a single event's or an override's own span. */
  startAt: number;
  endAt: number;
  allDay: boolean;
  icsKey: string | null;
  /** A series' master: its rule, zone and skipped starts. */
  series: { rrule: string; zone: string; exdates: number[] } | null;
  /** An override: its series' id, the key its series was imported with (null for a series made here), and the start
   * it replaces. */
  seriesId: string | null;
  seriesKey: string | null;
  recurrenceAt: number | null;
}

const RECUR_VALUE = ICAL.design.icalendar.value.recur as {
  fromICAL(text: string): Record<string, unknown>;
};

function utcTime(instant: number): IcalTime {
  return ICAL.Time.fromDateTimeString(new Date(instant).toISOString().replace(/\.\d{3}Z$/, 'Z'));
}

function dateTime(date: string): IcalTime {
  return ICAL.Time.fromDateString(date);
}

function isLocalMidnight(timeZone: string, instant: number): boolean {
  const wall = wallTimeAt(timeZone, instant);
  return wall.hour === 0 && wall.minute === 0 && wall.second === 0 && instant % 1000 === 0;
}

/** A series' start: a local date, or its zone's wall-clock time with the zone's IANA name as TZID. */
function setZonedTime(
  component: IcalComponent,
  name: string,
  instant: number,
  zone: string,
  allDay: boolean,
) {
  if (allDay) {
    component.updatePropertyWithValue(name, dateTime(localDateAt(zone, instant)));
    return;
  }
  const wall = wallTimeAt(zone, instant);
  const property = component.updatePropertyWithValue(name, ICAL.Time.fromData(wall));
  property.setParameter('tzid', zone);
}

function seriesComponent(
  component: IcalComponent,
  event: ExportableEvent,
  series: NonNullable<ExportableEvent['series']>,
) {
  setZonedTime(component, 'dtstart', event.startAt, series.zone, event.allDay);
  setZonedTime(component, 'dtend', event.endAt, series.zone, event.allDay);
  // The stored rule as written, part for part: ICAL.Recur would reorder its parts and drop INTERVAL=1, and the
  // re-import would then see a changed rule.
  component.addProperty(new ICAL.Property(['rrule', {}, 'recur', RECUR_VALUE.fromICAL(series.rrule)]));
  if (series.exdates.length > 0) {
    const property = new ICAL.Property('exdate');
    property.setValues(
      series.exdates.map((start) =>
        event.allDay ? dateTime(localDateAt(series.zone, start)) : utcTime(start),
      ),
    );
    component.addProperty(property);
  }
  return component;
}

function eventComponent(event: ExportableEvent, timeZone: string, stamp: IcalTime): IcalComponent {
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
    ? event.allDay
      ? localDateAt(timeZone, event.recurrenceAt!)
      : new Date(event.recurrenceAt!).toISOString()
    : (imported?.recurrence ?? '');
  component.updatePropertyWithValue('uid', uid);
  component.updatePropertyWithValue('dtstamp', stamp);
  if (recurrence) {
    component.updatePropertyWithValue(
      'recurrence-id',
      /^\d{4}-\d{2}-\d{2}$/.test(recurrence) ? dateTime(recurrence) : utcTime(Date.parse(recurrence)),
    );
  }
  component.updatePropertyWithValue('summary', event.title);
  if (event.series) return seriesComponent(component, event, event.series);
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

const CRLF_ONLY = (text: string) => text.replace(/\r?\n/g, '\r\n');

/**
 * A VCALENDAR that re-imports to the same events: imported events keep their UID and RECURRENCE-ID, others get
 * '<id>@time-wallet'. All-day events become DATE values when they span whole local days, otherwise UTC times with a
 * flag that keeps them all-day. The text comes in chunks (see textInBatches); joined, they are the text ical.js writes
 * for the whole calendar at once.
 */
export async function* calendarChunks(
  pages: AsyncIterable<ExportableEvent[]>,
  timeZone: string,
  now: number,
): AsyncGenerator<string> {
  const calendar = new ICAL.Component(['vcalendar', [], []]);
  calendar.updatePropertyWithValue('version', '2.0');
  calendar.updatePropertyWithValue('prodid', '-//Time Wallet//Calendar export//EN');
  calendar.updatePropertyWithValue('calscale', 'GREGORIAN');
  const empty = CRLF_ONLY(calendar.toString());
  const end = empty.lastIndexOf('END:VCALENDAR');
  yield empty.slice(0, end);
  // Each event is written as ical.js writes a calendar's subcomponents: with the calendar's design set.
  const design = ICAL.design.getDesignSet('vcalendar');
  const stamp = utcTime(now - (now % 1000));
  yield* textInBatches(
    pages,
    (event) =>
      `${CRLF_ONLY(ICAL.stringify.component(eventComponent(event, timeZone, stamp).jCal, design))}\r\n`,
  );
  yield `${empty.slice(end)}\r\n`;
}
