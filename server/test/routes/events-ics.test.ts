import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, signUp } from '../helpers.js';

const NOW = Date.parse('2026-03-11T15:00:00Z');

function upload(content: string | Buffer, options: { field?: string; filename?: string } = {}) {
  const boundary = '----time-wallet-test-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? 'file'}"; filename="${options.filename ?? 'calendar.ics'}"\r\nContent-Type: text/calendar\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function importCalendar(
  app: FastifyInstance,
  headers: Record<string, string>,
  content: string | Buffer,
  options = {},
) {
  const body = upload(content, options);
  return app.inject({
    method: 'POST',
    url: '/api/events/import',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
}

const calendar = (events: string) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN', events.trim(), 'END:VCALENDAR', ''].join('\r\n');

const SAMPLE = calendar(`
BEGIN:VTIMEZONE
TZID:Custom Eastern
BEGIN:STANDARD
DTSTART:19701101T020000
RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU
TZOFFSETFROM:-0400
TZOFFSETTO:-0500
END:STANDARD
BEGIN:DAYLIGHT
DTSTART:19700308T020000
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU
TZOFFSETFROM:-0500
TZOFFSETTO:-0400
END:DAYLIGHT
END:VTIMEZONE
BEGIN:VEVENT
UID:sync@example.com
DTSTAMP:20260301T000000Z
SUMMARY:Weekly\\, sync
DTSTART;TZID=Custom Eastern:20260302T090000
DTEND;TZID=Custom Eastern:20260302T100000
RRULE:FREQ=WEEKLY;COUNT=3
EXDATE;TZID=Custom Eastern:20260309T090000
END:VEVENT
BEGIN:VEVENT
UID:sync@example.com
DTSTAMP:20260301T000000Z
RECURRENCE-ID;TZID=Custom Eastern:20260316T090000
SUMMARY:Moved sync
DTSTART;TZID=Custom Eastern:20260316T110000
DTEND;TZID=Custom Eastern:20260316T120000
END:VEVENT
BEGIN:VEVENT
UID:holiday@example.com
DTSTAMP:20260301T000000Z
SUMMARY:Holiday
DTSTART;VALUE=DATE:20260310
DTEND;VALUE=DATE:20260312
END:VEVENT
BEGIN:VEVENT
UID:utc@example.com
DTSTAMP:20260301T000000Z
SUMMARY:UTC call
DTSTART:20260311T120000Z
DURATION:PT30M
END:VEVENT
BEGIN:VEVENT
UID:berlin@example.com
DTSTAMP:20260301T000000Z
SUMMARY:Berlin lunch
DTSTART;TZID=Europe/Berlin:20260311T120000
DTEND;TZID=Europe/Berlin:20260311T130000
END:VEVENT
BEGIN:VEVENT
UID:cancelled@example.com
DTSTAMP:20260301T000000Z
STATUS:CANCELLED
SUMMARY:Called off
DTSTART:20260312T120000Z
DTEND:20260312T130000Z
END:VEVENT
BEGIN:VEVENT
UID:forever@example.com
DTSTAMP:20200101T000000Z
SUMMARY:Weekly review
DTSTART:20200101T100000Z
DTEND:20200101T110000Z
RRULE:FREQ=WEEKLY
END:VEVENT
`);

// Wednesdays at 10:00 UTC inside a year either side of NOW: 12 March 2025 to 10 March 2027.
const WEEKLY_REVIEWS_IN_HORIZON = 105;
const SAMPLE_EVENTS = 2 + 1 + 1 + 1 + WEEKLY_REVIEWS_IN_HORIZON;

async function eventsBetween(
  app: FastifyInstance,
  headers: Record<string, string>,
  from: string,
  to: string,
) {
  return (
    await app.inject({ method: 'GET', url: `/api/events?from=${from}&to=${to}`, headers })
  ).json() as Array<{
    title: string;
    start: string;
    end: string;
    allDay: boolean;
    source: string;
  }>;
}

describe('/api/events/import and /api/events/export.ics', () => {
  test('imports time zones, all-day events, recurrences with exceptions and overrides', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app, { timeZone: 'America/Chicago' });
    const response = await importCalendar(app, headers, SAMPLE);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), { created: SAMPLE_EVENTS, updated: 0, skipped: 1 });

    const march = (await eventsBetween(app, headers, '2026-03-01', '2026-03-22')).filter(
      (event) => event.title !== 'Weekly review',
    );
    assert.deepEqual(
      march.map(({ title, start, end, allDay, source }) => ({ title, start, end, allDay, source })),
      [
        {
          title: 'Weekly, sync',
          start: '2026-03-02T14:00:00.000Z',
          end: '2026-03-02T15:00:00.000Z',
          allDay: false,
          source: 'ics',
        },
        {
          title: 'Holiday',
          start: '2026-03-10T05:00:00.000Z',
          end: '2026-03-12T05:00:00.000Z',
          allDay: true,
          source: 'ics',
        },
        {
          title: 'Berlin lunch',
          start: '2026-03-11T11:00:00.000Z',
          end: '2026-03-11T12:00:00.000Z',
          allDay: false,
          source: 'ics',
        },
        {
          title: 'UTC call',
          start: '2026-03-11T12:00:00.000Z',
          end: '2026-03-11T12:30:00.000Z',
          allDay: false,
          source: 'ics',
        },
        {
          title: 'Moved sync',
          start: '2026-03-16T15:00:00.000Z',
          end: '2026-03-16T16:00:00.000Z',
          allDay: false,
          source: 'ics',
        },
      ],
    );
    const reviews = (await eventsBetween(app, headers, '2025-01-01', '2026-01-01')).filter(
      (event) => event.title === 'Weekly review',
    );
    assert.equal(reviews[0]!.start, '2025-03-12T10:00:00.000Z');
  });

  test('importing the same file twice changes nothing; a changed event is updated', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app);
    await importCalendar(app, headers, SAMPLE);
    const again = await importCalendar(app, headers, SAMPLE);
    assert.deepEqual(again.json(), { created: 0, updated: 0, skipped: SAMPLE_EVENTS + 1 });
    const changed = await importCalendar(
      app,
      headers,
      SAMPLE.replace('SUMMARY:UTC call', 'SUMMARY:UTC call (moved)'),
    );
    assert.deepEqual(changed.json(), { created: 0, updated: 1, skipped: SAMPLE_EVENTS });
    const titles = (await eventsBetween(app, headers, '2026-03-11', '2026-03-12')).map(
      (event) => event.title,
    );
    assert.ok(titles.includes('UTC call (moved)'));
    assert.equal(titles.filter((title) => title.startsWith('UTC call')).length, 1);
  });

  test('export re-imports to the same events, manual ones included', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const owner = await signUp(app, { timeZone: 'Europe/Paris' });
    await importCalendar(app, owner.headers, SAMPLE);
    await app.inject({
      method: 'POST',
      url: '/api/events',
      headers: owner.headers,
      payload: {
        title: 'Dentist; then gym, maybe\nnew line',
        start: '2026-03-13T08:00:00Z',
        end: '2026-03-13T09:00:00Z',
        allDay: false,
      },
    });
    await app.inject({
      method: 'POST',
      url: '/api/events',
      headers: owner.headers,
      payload: {
        title: 'Odd all-day',
        start: '2026-03-14T10:00:00Z',
        end: '2026-03-14T12:00:00Z',
        allDay: true,
      },
    });
    const exported = await app.inject({
      method: 'GET',
      url: '/api/events/export.ics',
      headers: owner.headers,
    });
    assert.equal(exported.statusCode, 200);
    assert.match(String(exported.headers['content-type']), /^text\/calendar/);
    assert.match(exported.body, /^BEGIN:VCALENDAR\r\n/);
    assert.ok(
      exported.body.split('\r\n').every((line) => Buffer.byteLength(line) <= 75),
      'lines are folded at 75 octets',
    );

    const reimport = await importCalendar(app, owner.headers, exported.body);
    assert.deepEqual(reimport.json(), { created: 0, updated: 0, skipped: SAMPLE_EVENTS + 2 });

    const copy = await signUp(app, { timeZone: 'Europe/Paris' });
    const copied = await importCalendar(app, copy.headers, exported.body);
    assert.deepEqual(copied.json(), { created: SAMPLE_EVENTS + 2, updated: 0, skipped: 0 });
    const project = (list: Array<{ title: string; start: string; end: string; allDay: boolean }>) =>
      list.map(({ title, start, end, allDay }) => ({ title, start, end, allDay }));
    for (const [from, to] of [
      ['2025-03-01', '2026-03-01'],
      ['2026-03-01', '2027-04-01'],
    ] as const) {
      const copiedEvents = project(await eventsBetween(app, copy.headers, from, to));
      assert.ok(copiedEvents.length > 0);
      assert.deepEqual(copiedEvents, project(await eventsBetween(app, owner.headers, from, to)));
    }
  });

  test('bounds runaway recurrences', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app);
    const started = Date.now();
    const response = await importCalendar(
      app,
      headers,
      calendar(`
BEGIN:VEVENT
UID:every-minute@example.com
DTSTAMP:20260301T000000Z
SUMMARY:Tick
DTSTART:20260311T000000Z
DTEND:20260311T000030Z
RRULE:FREQ=MINUTELY
END:VEVENT`),
    );
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().created, 1000);
    assert.ok(response.json().skipped > 0);
    assert.ok(Date.now() - started < 10_000);
  });

  test('rejects oversized, malformed and misplaced uploads', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app);
    const huge = await importCalendar(app, headers, Buffer.alloc(1024 * 1024 + 10, 'A'));
    assert.equal(huge.statusCode, 413);
    assert.equal(typeof huge.json().message, 'string');

    const notCalendar = await importCalendar(app, headers, 'hello, this is not a calendar');
    assert.equal(notCalendar.statusCode, 400);
    assert.match(notCalendar.json().message, /iCalendar/);

    const wrongField = await importCalendar(app, headers, SAMPLE, { field: 'upload' });
    assert.equal(wrongField.statusCode, 400);
    assert.match(wrongField.json().message, /"file"/);

    const json = await app.inject({
      method: 'POST',
      url: '/api/events/import',
      headers,
      payload: { file: SAMPLE },
    });
    assert.equal(json.statusCode, 415);

    const anonymous = await app.inject({ method: 'GET', url: '/api/events/export.ics' });
    assert.equal(anonymous.statusCode, 401);
  });
});
