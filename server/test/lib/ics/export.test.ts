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
      series: null,
      seriesId: null,
      seriesKey: null,
      recurrenceAt: null,
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

describe('series in the export', () => {
  const written = async (events: ExportableEvent[]) => {
    let text = '';
    for await (const chunk of calendarChunks(pagesOf(events, 100, { pages: 0 }), ZONE, NOW)) text += chunk;
    return text.replace(/\r\n[ \t]/g, '').split('\r\n');
  };
  const base = {
    allDay: false,
    icsKey: null,
    series: null,
    seriesId: null,
    seriesKey: null,
    recurrenceAt: null,
  };

  test('a series once, in its zone, with its rule as stored and its skipped starts; its overrides under its UID', async () => {
    const master: ExportableEvent = {
      ...base,
      id: 'gym',
      title: 'Gym',
      startAt: Date.parse('2026-03-02T17:00:00Z'),
      endAt: Date.parse('2026-03-02T18:00:00Z'),
      // As stored (and as the API echoes it): written part for part, INTERVAL=1 included.
      series: {
        rrule: 'FREQ=WEEKLY;UNTIL=20260430T170000Z;INTERVAL=1;BYDAY=MO,WE;WKST=SU',
        zone: 'Europe/Berlin',
        exdates: [Date.parse('2026-03-04T17:00:00Z'), Date.parse('2026-04-01T16:00:00Z')],
      },
    };
    const moved: ExportableEvent = {
      ...base,
      id: 'gym_20260309T170000Z',
      title: 'Gym (late)',
      startAt: Date.parse('2026-03-09T19:00:00Z'),
      endAt: Date.parse('2026-03-09T20:00:00Z'),
      seriesId: 'gym',
      recurrenceAt: Date.parse('2026-03-09T17:00:00Z'),
    };
    // An occurrence edited here of an imported series: its row may carry any key, its series' UID is what counts.
    const editedImported: ExportableEvent = {
      ...moved,
      id: 'team_20260311T100000Z',
      title: 'Team call (short)',
      icsKey: 'team@example.com#',
      seriesId: 'team',
      seriesKey: 'team@example.com#',
      recurrenceAt: Date.parse('2026-03-11T10:00:00Z'),
    };
    const lines = await written([master, moved, editedImported]);
    const events = lines.join('\n').split('BEGIN:VEVENT').slice(1);
    assert.equal(events.length, 3);
    assert.deepEqual(
      events[0]!.split('\n').filter((line) => !line.startsWith('DTSTAMP')),
      [
        '',
        'UID:gym@time-wallet',
        'SUMMARY:Gym',
        'DTSTART;TZID=Europe/Berlin:20260302T180000',
        'DTEND;TZID=Europe/Berlin:20260302T190000',
        'RRULE:FREQ=WEEKLY;UNTIL=20260430T170000Z;INTERVAL=1;BYDAY=MO,WE;WKST=SU',
        'EXDATE:20260304T170000Z,20260401T160000Z',
        'END:VEVENT',
        '',
      ],
    );
    assert.ok(events[1]!.includes('\nUID:gym@time-wallet\n'), events[1]);
    assert.ok(events[1]!.includes('\nRECURRENCE-ID:20260309T170000Z\n'), events[1]);
    assert.ok(events[2]!.includes('\nUID:team@example.com\n'), events[2]);
    assert.ok(events[2]!.includes('\nRECURRENCE-ID:20260311T100000Z\n'), events[2]);
  });

  test('an all-day series repeats dates: DTSTART, DTEND and EXDATE as DATE values', async () => {
    const lines = await written([
      {
        ...base,
        id: 'birthday',
        title: 'Birthday',
        allDay: true,
        startAt: Date.parse('2026-03-19T23:00:00Z'),
        endAt: Date.parse('2026-03-20T23:00:00Z'),
        series: { rrule: 'FREQ=YEARLY', zone: 'Europe/Paris', exdates: [Date.parse('2027-03-19T23:00:00Z')] },
      },
    ]);
    for (const line of [
      'DTSTART;VALUE=DATE:20260320',
      'DTEND;VALUE=DATE:20260321',
      'RRULE:FREQ=YEARLY',
      'EXDATE;VALUE=DATE:20270320',
    ]) {
      assert.ok(lines.includes(line), `${line} in ${lines.join('\n')}`);
    }
  });
});
