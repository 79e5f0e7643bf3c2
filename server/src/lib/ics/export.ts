import ICAL from 'ical.js';
import { textInBatches } from '../text-batches.js';
import { localDateAt, wallTimeAt } from '../time-zone.js';
import { ALL_DAY_FLAG, OWN_UID_SUFFIX } from './conventions.js';

type IcalTime = InstanceType<typeof ICAL.Time>;
type IcalComponent = InstanceType<typeof ICAL.Component>;

export interface ExportableEvent {
  id: string;
  title: string;
  startAt: number;
  endAt: number;
  allDay: boolean;
  icsKey: string | null;
}

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

function eventComponent(event: ExportableEvent, timeZone: string, stamp: IcalTime): IcalComponent {
  const component = new ICAL.Component('vevent');
  const [uid, recurrence] = event.icsKey
    ? [
        event.icsKey.slice(0, event.icsKey.lastIndexOf('#')),
        event.icsKey.slice(event.icsKey.lastIndexOf('#') + 1),
      ]
    : [`${event.id}${OWN_UID_SUFFIX}`, ''];
  component.updatePropertyWithValue('uid', uid);
  component.updatePropertyWithValue('dtstamp', stamp);
  if (recurrence) {
    component.updatePropertyWithValue(
      'recurrence-id',
      /^\d{4}-\d{2}-\d{2}$/.test(recurrence) ? dateTime(recurrence) : utcTime(Date.parse(recurrence)),
    );
  }
  component.updatePropertyWithValue('summary', event.title);
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
