import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  InvalidCalendarError,
  parseCalendar,
  unfoldedText,
  type ImportedEvent,
} from '../../../src/lib/ics/parse.js';

const NOW = Date.parse('2026-03-11T15:00:00Z');
const calendar = (lines: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const parse = (text: string) => parseCalendar(text, 'Europe/Berlin', NOW);
const iso = (instant: number | null) => (instant === null ? null : new Date(instant).toISOString());
const brief = (event: ImportedEvent) => ({
  key: event.key,
  start: iso(event.startAt),
  end: iso(event.endAt),
  recurrenceAt: iso(event.recurrenceAt),
  rrule: event.series?.rrule ?? null,
});

describe('unfolding an upload', () => {
  test('joins folded lines on the bytes, so a fold inside a UTF-8 character leaves it whole', () => {
    const title = Buffer.from('SUMMARY:Caf\u00e9 \u2615');
    // A fold after the first byte of "é" (C3 A9) and one inside "☕" (E2 98 95), with CRLF and with LF alone.
    const bytes = Buffer.concat([
      title.subarray(0, 12),
      Buffer.from('\r\n '),
      title.subarray(12, 15),
      Buffer.from('\n\t'),
      title.subarray(15),
      Buffer.from('\r\nDTSTART:20260311T100000Z\r\n'),
    ]);
    assert.equal(bytes.toString('utf8').includes('\ufffd'), true);
    assert.equal(unfoldedText(bytes), 'SUMMARY:Caf\u00e9 \u2615\r\nDTSTART:20260311T100000Z\r\n');
  });
});

describe('parseCalendar', () => {
  const event = (uid: string, lines: string[]) => ['BEGIN:VEVENT', `UID:${uid}`, ...lines, 'END:VEVENT'];

  test('a RECURRENCE-ID the rule does not give is an event of its own, as RDATEs are', () => {
    const parsed = parse(
      calendar([
        ...event('series@example.com', [
          'DTSTART;TZID=Europe/Berlin:20260302T090000',
          'DTEND;TZID=Europe/Berlin:20260302T100000',
          'RRULE:FREQ=WEEKLY;COUNT=3',
          'RDATE;VALUE=PERIOD:20260305T120000Z/PT2H',
        ]),
        // Moves the occurrence of 9 March; the one of 6 March does not exist (the RDATE is on the 5th).
        ...event('series@example.com', [
          'RECURRENCE-ID;TZID=Europe/Berlin:20260309T090000',
          'DTSTART;TZID=Europe/Berlin:20260309T110000',
          'DTEND;TZID=Europe/Berlin:20260309T120000',
        ]),
        ...event('series@example.com', [
          'RECURRENCE-ID:20260306T080000Z',
          'DTSTART:20260306T150000Z',
          'DTEND:20260306T160000Z',
        ]),
      ]),
    );
    assert.deepEqual(parsed.events.map(brief), [
      {
        key: 'series@example.com#',
        start: '2026-03-02T08:00:00.000Z',
        end: '2026-03-02T09:00:00.000Z',
        recurrenceAt: null,
        rrule: 'FREQ=WEEKLY;COUNT=3',
      },
      {
        key: 'series@example.com#2026-03-05T12:00:00.000Z',
        start: '2026-03-05T12:00:00.000Z',
        end: '2026-03-05T14:00:00.000Z',
        recurrenceAt: null,
        rrule: null,
      },
      {
        key: 'series@example.com#2026-03-09T08:00:00.000Z',
        start: '2026-03-09T10:00:00.000Z',
        end: '2026-03-09T11:00:00.000Z',
        recurrenceAt: '2026-03-09T08:00:00.000Z',
        rrule: null,
      },
      {
        key: 'series@example.com#2026-03-06T08:00:00.000Z',
        start: '2026-03-06T15:00:00.000Z',
        end: '2026-03-06T16:00:00.000Z',
        recurrenceAt: null,
        rrule: null,
      },
    ]);
  });

  test('a series given in UTC repeats in UTC; one in a VTIMEZONE of its own, in the IANA zone that matches it', () => {
    const parsed = parse(
      calendar([
        'BEGIN:VTIMEZONE',
        'TZID:Office',
        'BEGIN:STANDARD',
        'DTSTART:19701025T040000',
        'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
        'TZOFFSETFROM:+0300',
        'TZOFFSETTO:+0200',
        'END:STANDARD',
        'BEGIN:DAYLIGHT',
        'DTSTART:19700329T030000',
        'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
        'TZOFFSETFROM:+0200',
        'TZOFFSETTO:+0300',
        'END:DAYLIGHT',
        'END:VTIMEZONE',
        ...event('utc@example.com', [
          'DTSTART:20260302T080000Z',
          'DTEND:20260302T090000Z',
          'RRULE:FREQ=DAILY',
        ]),
        ...event('office@example.com', [
          'DTSTART;TZID=Office:20260302T080000',
          'DTEND;TZID=Office:20260302T090000',
          'RRULE:FREQ=DAILY',
        ]),
      ]),
    );
    assert.deepEqual(
      parsed.events.map((parsedEvent) => parsedEvent.series?.zone),
      ['UTC', 'Europe/Bucharest'],
    );
  });

  test('text before BEGIN:VCALENDAR is passed over, bytes that are no text are refused', () => {
    const body = calendar(event('x@example.com', ['DTSTART:20260311T100000Z', 'DTEND:20260311T110000Z']));
    assert.equal(parse(`Warning: something in feed.php on line 12\r\n${body}`).events.length, 1);
    assert.throws(
      () => parse(`\u0089PNG\r\n\u001a\n${body}`),
      (error) => error instanceof InvalidCalendarError && /binary data/.test(error.message),
    );
  });

  test('END:VCALENDAR inside a VEVENT ends the calendar: the event is cut off', () => {
    const parsed = parse(
      [
        'BEGIN:VCALENDAR',
        ...event('whole@example.com', ['DTSTART:20260311T100000Z', 'DTEND:20260311T110000Z']),
        'BEGIN:VEVENT',
        'UID:cut@example.com',
        'SUMMARY:Cut',
        'DTSTART:20260312T100000Z',
        'END:VCALENDAR',
        ...event('after@example.com', ['DTSTART:20260313T100000Z', 'DTEND:20260313T110000Z']),
      ].join('\r\n'),
    );
    assert.deepEqual(
      parsed.events.map((parsedEvent) => parsedEvent.key),
      ['whole@example.com#'],
    );
    assert.deepEqual(parsed.skippedEvents, [
      {
        uid: 'cut@example.com',
        summary: 'Cut',
        reason: 'The event is cut off: the file ends before its END:VEVENT',
      },
    ]);
  });
});
