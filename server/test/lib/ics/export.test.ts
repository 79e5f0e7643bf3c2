import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import ICAL from 'ical.js';
import { calendarChunks, type ExportableEvent } from '../../../src/lib/ics/export.js';
import { localDateAt, wallTimeAt } from '../../../src/lib/time-zone.js';

const NOW = Date.parse('2026-03-11T15:00:00.250Z');
const ZONE = 'Europe/Paris';

/**
 * The export as it was written before it was streamed: one ical.js component holding every event, written at once.
 * The streamed chunks must join to exactly this text.
 */
function wholeCalendar(events: ExportableEvent[], timeZone: string, now: number): string {
  const utc = (instant: number) =>
    ICAL.Time.fromDateTimeString(new Date(instant).toISOString().replace(/\.\d{3}Z$/, 'Z'));
  const midnight = (instant: number) => {
    const wall = wallTimeAt(timeZone, instant);
    return wall.hour === 0 && wall.minute === 0 && wall.second === 0 && instant % 1000 === 0;
  };
  const calendar = new ICAL.Component(['vcalendar', [], []]);
  calendar.updatePropertyWithValue('version', '2.0');
  calendar.updatePropertyWithValue('prodid', '-//Time Wallet//Calendar export//EN');
  calendar.updatePropertyWithValue('calscale', 'GREGORIAN');
  const stamp = utc(now - (now % 1000));
  for (const event of events) {
    const component = new ICAL.Component('vevent');
    const hash = event.icsKey?.lastIndexOf('#') ?? -1;
    const [uid, recurrence] = event.icsKey
      ? [event.icsKey.slice(0, hash), event.icsKey.slice(hash + 1)]
      : [`${event.id}@time-wallet`, ''];
    component.updatePropertyWithValue('uid', uid);
    component.updatePropertyWithValue('dtstamp', stamp);
    if (recurrence) {
      component.updatePropertyWithValue(
        'recurrence-id',
        /^\d{4}-\d{2}-\d{2}$/.test(recurrence)
          ? ICAL.Time.fromDateString(recurrence)
          : utc(Date.parse(recurrence)),
      );
    }
    component.updatePropertyWithValue('summary', event.title);
    if (event.allDay && midnight(event.startAt) && midnight(event.endAt)) {
      component.updatePropertyWithValue(
        'dtstart',
        ICAL.Time.fromDateString(localDateAt(timeZone, event.startAt)),
      );
      component.updatePropertyWithValue(
        'dtend',
        ICAL.Time.fromDateString(localDateAt(timeZone, event.endAt)),
      );
    } else {
      component.updatePropertyWithValue('dtstart', utc(event.startAt));
      component.updatePropertyWithValue('dtend', utc(event.endAt));
      if (event.allDay) component.updatePropertyWithValue('x-time-wallet-all-day', 'TRUE');
    }
    calendar.addSubcomponent(component);
  }
  return calendar.toString().replace(/\r?\n/g, '\r\n') + '\r\n';
}

/** Every kind of event the export writes: own and imported, timed, whole-day and odd all-day, long and escaped titles. */
function sampleEvents(count: number): ExportableEvent[] {
  const titles = [
    'Standup',
    'Dentist; then gym, maybe\nnew line \\ backslash',
    'Ünïcødé ✓ and a title long enough to be folded at seventy-five octets, twice over: '.repeat(3),
    '<script>alert(1)</script>',
  ];
  return Array.from({ length: count }, (_, index) => {
    const day = Date.parse('2026-03-01T00:00:00Z') + index * 3_600_000;
    const kind = index % 5;
    return {
      id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      title: titles[index % titles.length]!,
      startAt: kind === 3 ? Date.parse('2026-03-09T23:00:00Z') : day,
      endAt: kind === 3 ? Date.parse('2026-03-11T23:00:00Z') : day + 1_800_500,
      allDay: kind === 3 || kind === 4,
      icsKey:
        kind === 1
          ? `series-${index}@example.com#2026-03-${String(1 + (index % 28)).padStart(2, '0')}T10:00:00.000Z`
          : kind === 2
            ? `holiday-${index}@example.com#2026-03-20`
            : kind === 4
              ? `single-${index}@example.com#`
              : null,
    };
  });
}

async function* pagesOf<T>(items: T[], pageSize: number, pulled: { pages: number }) {
  for (let index = 0; index < items.length; index += pageSize) {
    pulled.pages += 1;
    yield items.slice(index, index + pageSize);
  }
}

describe('the streamed .ics export', () => {
  test('its chunks join to exactly the text of the whole calendar written at once', async () => {
    for (const count of [0, 1, 7, 450]) {
      const events = sampleEvents(count);
      const chunks: string[] = [];
      for await (const chunk of calendarChunks(pagesOf(events, 120, { pages: 0 }), ZONE, NOW))
        chunks.push(chunk);
      assert.equal(chunks.join(''), wholeCalendar(events, ZONE, NOW), `${count} events`);
    }
  });

  test('it writes a few hundred events per chunk and reads the next page only when the chunks before are taken', async () => {
    const events = sampleEvents(2500);
    const pulled = { pages: 0 };
    const chunks = calendarChunks(pagesOf(events, 1000, pulled), ZONE, NOW);
    await chunks.next(); // the calendar's header
    await chunks.next(); // the first 200 events
    assert.equal(pulled.pages, 1);
    let eventChunks = 1;
    let largest = 0;
    for await (const chunk of chunks) {
      if (!chunk.startsWith('BEGIN:VEVENT')) continue;
      eventChunks += 1;
      largest = Math.max(largest, chunk.split('BEGIN:VEVENT').length - 1);
    }
    assert.equal(pulled.pages, 3);
    // 1000, 1000 and 500 events in batches of 200.
    assert.equal(eventChunks, 5 + 5 + 3);
    assert.equal(largest, 200);
  });
});
