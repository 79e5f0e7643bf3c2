import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { addDays, localDaysBetween } from '../../src/lib/time-zone.js';
import type { ImportSummary } from '../../src/services/ics-import.js';
import { buildTestApp, importAnswer, signUp, send } from '../helpers.js';

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

/** A weekly series from Monday 2 November 2026, 10:00 to 10:30 in Berlin. */
const weeklyInBerlin = (uid: string, summary: string) => `
BEGIN:VEVENT
UID:${uid}
DTSTAMP:20261101T000000Z
DTSTART;TZID=Europe/Berlin:20261102T100000
DTEND;TZID=Europe/Berlin:20261102T103000
RRULE:FREQ=WEEKLY
SUMMARY:${summary}
END:VEVENT`;

/** A change to that series' occurrence of `day` (YYYYMMDD): renamed, and at `hour` (HH) for 30 minutes. */
const occurrenceChange = (uid: string, day: string, summary: string, hour = '12') => `
BEGIN:VEVENT
UID:${uid}
DTSTAMP:20261101T000000Z
RECURRENCE-ID;TZID=Europe/Berlin:${day}T100000
DTSTART;TZID=Europe/Berlin:${day}T${hour}0000
DTEND;TZID=Europe/Berlin:${day}T${hour}3000
SUMMARY:${summary}
END:VEVENT`;

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

// Stored once each: the sync series and its moved occurrence, the holiday, the UTC call, the Berlin lunch and the
// weekly review series (from 2020, no end). The cancelled event is skipped, with its reason.
const SAMPLE_EVENTS = 2 + 1 + 1 + 1 + 1;
const CANCELLED = {
  uid: 'cancelled@example.com',
  summary: 'Called off',
  reason: 'It is cancelled (STATUS:CANCELLED)',
};

/** Events of a period of any length, read in ranges of at most 62 days (the API's cap), each event once. */
async function eventsBetween(
  app: FastifyInstance,
  headers: Record<string, string>,
  from: string,
  to: string,
) {
  type Listed = {
    _id: string;
    title: string;
    start: string;
    end: string;
    allDay: boolean;
    source: string;
    seriesId: string;
    rrule: string;
    recurrenceId: string;
  };
  const events = new Map<string, Listed>();
  for (let partFrom = from; localDaysBetween(partFrom, to) > 0; partFrom = addDays(partFrom, 62)) {
    const partTo = localDaysBetween(partFrom, to) > 62 ? addDays(partFrom, 62) : to;
    const response = await send(app, headers, 'GET', `/api/events?from=${partFrom}&to=${partTo}`);
    assert.equal(response.statusCode, 200, response.body);
    for (const event of response.json() as Listed[]) events.set(event._id, event);
  }
  return [...events.values()].sort((a, b) => a.start.localeCompare(b.start) || a._id.localeCompare(b._id));
}

/** GET /events as sent, byte for byte, for each range: what "the import changed nothing" compares. */
async function eventsAsSent(
  app: FastifyInstance,
  headers: Record<string, string>,
  ranges: ReadonlyArray<readonly [string, string]>,
) {
  const bodies: string[] = [];
  for (const [from, to] of ranges) {
    const response = await send(app, headers, 'GET', `/api/events?from=${from}&to=${to}`);
    assert.equal(response.statusCode, 200, response.body);
    bodies.push(response.body);
  }
  return bodies;
}

/** The answer of an import that copies nothing: each of the file's `count` events is already in the own calendar. */
const allDuplicates = (count: number, skippedEvents: ImportSummary['skippedEvents'] = []) =>
  importAnswer({
    skipped: count + skippedEvents.length,
    duplicates: count,
    skippedEvents,
  });

describe('/api/events/import and /api/events/export.ics', () => {
  test('imports time zones, all-day events, recurrences with exceptions and overrides', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app, { timeZone: 'America/Chicago' });
    const response = await importCalendar(app, headers, SAMPLE);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(
      response.json(),
      importAnswer({
        created: SAMPLE_EVENTS,
        skipped: 1,
        skippedEvents: [CANCELLED],
      }),
    );

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
    // The sync series is one series: its occurrences and its moved one name it, with its rule.
    const sync = (await eventsBetween(app, headers, '2026-03-01', '2026-03-22')).filter((event) =>
      event.title.endsWith('sync'),
    );
    assert.deepEqual(
      sync.map(({ title, seriesId, rrule, recurrenceId }) => ({ title, seriesId, rrule, recurrenceId })),
      [
        {
          title: 'Weekly, sync',
          seriesId: sync[0]!.seriesId,
          rrule: 'FREQ=WEEKLY;COUNT=3',
          recurrenceId: '2026-03-02T14:00:00.000Z',
        },
        {
          title: 'Moved sync',
          seriesId: sync[0]!.seriesId,
          rrule: 'FREQ=WEEKLY;COUNT=3',
          recurrenceId: '2026-03-16T13:00:00.000Z',
        },
      ],
    );
    assert.notEqual(sync[0]!.seriesId, '');

    // The weekly review repeats from 2020 with no end, read for any range: no horizon at import.
    const reviewsIn = async (from: string, to: string) =>
      (await eventsBetween(app, headers, from, to))
        .filter((event) => event.title === 'Weekly review')
        .map((event) => event.start);
    const in2020 = await reviewsIn('2020-01-01', '2020-03-01');
    assert.deepEqual([in2020[0], in2020.length], ['2020-01-01T10:00:00.000Z', 9]);
    const in2025 = await reviewsIn('2025-01-01', '2026-01-01');
    assert.deepEqual(
      [in2025[0], in2025.at(-1), in2025.length],
      ['2025-01-01T10:00:00.000Z', '2025-12-31T10:00:00.000Z', 53],
    );
    assert.deepEqual(await reviewsIn('2028-06-01', '2028-07-01'), [
      '2028-06-07T10:00:00.000Z',
      '2028-06-14T10:00:00.000Z',
      '2028-06-21T10:00:00.000Z',
      '2028-06-28T10:00:00.000Z',
    ]);
  });

  test('the same file again, or a changed copy of it, creates and changes nothing: its events are duplicates', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app);
    assert.equal((await importCalendar(app, headers, SAMPLE)).statusCode, 200);
    const ranges = [
      ['2020-01-01', '2020-02-01'],
      ['2026-03-01', '2026-04-01'],
    ] as const;
    const before = await eventsAsSent(app, headers, ranges);
    assert.deepEqual(
      (await importCalendar(app, headers, SAMPLE)).json(),
      allDuplicates(SAMPLE_EVENTS, [CANCELLED]),
    );
    // A single event renamed and moved, the series' changed occurrence renamed: the same UIDs, so duplicates.
    const changed = SAMPLE.replace('SUMMARY:UTC call', 'SUMMARY:UTC call (moved)')
      .replace('DTSTART:20260311T120000Z', 'DTSTART:20260311T130000Z')
      .replace('SUMMARY:Moved sync', 'SUMMARY:Moved sync again');
    assert.deepEqual(
      (await importCalendar(app, headers, changed)).json(),
      allDuplicates(SAMPLE_EVENTS, [CANCELLED]),
    );
    assert.deepEqual(await eventsAsSent(app, headers, ranges), before);
  });

  test('a series edited and split here is untouched by a changed file: its new title, time and exceptions are duplicates', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app, { timeZone: 'Europe/Berlin' });
    const file = calendar(
      weeklyInBerlin('team@example.com', 'Team') +
        occurrenceChange('team@example.com', '20261109', 'Team (week 2)'),
    );
    assert.deepEqual((await importCalendar(app, headers, file)).json(), importAnswer({ created: 2 }));
    // Here: week 3 moved alone to 14:00, and from week 5 on the series split off at 11:00 (Berlin, UTC+1).
    const weeks = await eventsBetween(app, headers, '2026-11-01', '2026-12-21');
    const moved = await send(app, headers, 'PATCH', `/api/events/${weeks[2]!._id}?scope=this`, {
      start: '2026-11-16T14:00:00',
      end: '2026-11-16T14:30:00',
    });
    assert.equal(moved.statusCode, 200, moved.body);
    const split = await send(app, headers, 'PATCH', `/api/events/${weeks[4]!._id}?scope=following`, {
      start: '2026-11-30T11:00:00',
      end: '2026-11-30T11:30:00',
    });
    assert.equal(split.statusCode, 200, split.body);
    const range = [['2026-11-01', '2026-12-21']] as const;
    const before = await eventsAsSent(app, headers, range);
    const listed = JSON.parse(before[0]!) as Array<{ title: string; start: string; seriesId: string }>;
    assert.deepEqual(
      listed.map(({ title, start }) => [title, start.slice(5, 16)]),
      [
        ['Team', '11-02T09:00'],
        ['Team (week 2)', '11-09T11:00'],
        ['Team', '11-16T13:00'],
        ['Team', '11-23T09:00'],
        ['Team', '11-30T10:00'],
        ['Team', '12-07T10:00'],
        ['Team', '12-14T10:00'],
      ],
    );
    assert.notEqual(listed[4]!.seriesId, listed[0]!.seriesId);

    // The other calendar renames the series, moves it to 10:30, skips week 4, changes week 2 again and week 6 too.
    const changed = calendar(
      weeklyInBerlin('team@example.com', 'Team sync')
        .replace('DTEND;TZID=Europe/Berlin:20261102T103000', 'DTEND;TZID=Europe/Berlin:20261102T110000')
        .replace('DTSTART;TZID=Europe/Berlin:20261102T100000', 'DTSTART;TZID=Europe/Berlin:20261102T103000')
        .replace('RRULE:FREQ=WEEKLY', 'RRULE:FREQ=WEEKLY\nEXDATE;TZID=Europe/Berlin:20261123T103000') +
        occurrenceChange('team@example.com', '20261109', 'Team sync (week 2)', '13') +
        occurrenceChange('team@example.com', '20261207', 'Team sync (week 6)', '15'),
    );
    assert.deepEqual((await importCalendar(app, headers, changed)).json(), allDuplicates(3));
    assert.deepEqual(await eventsAsSent(app, headers, range), before);
  });

  test('an event deleted here comes back as a new copy; an occurrence deleted from a series still here does not', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app, { timeZone: 'Europe/Berlin' });
    // Four weeks, the third skipped (EXDATE) and changed too: stored as it comes, the change where the week was.
    const series = weeklyInBerlin('yoga@example.com', 'Yoga').replace(
      'RRULE:FREQ=WEEKLY',
      'RRULE:FREQ=WEEKLY;COUNT=4\nEXDATE;TZID=Europe/Berlin:20261116T100000',
    );
    const file = calendar(`${series}${occurrenceChange('yoga@example.com', '20261116', 'Yoga (week 3)')}
BEGIN:VEVENT
UID:dentist@example.com
DTSTAMP:20261101T000000Z
DTSTART;TZID=Europe/Berlin:20261104T080000
DTEND;TZID=Europe/Berlin:20261104T090000
SUMMARY:Dentist
END:VEVENT`);
    assert.deepEqual((await importCalendar(app, headers, file)).json(), importAnswer({ created: 3 }));
    const listed = async () =>
      (await eventsBetween(app, headers, '2026-11-01', '2026-12-01')).map(({ title, start }) => [
        title,
        start.slice(5, 16),
      ]);
    const [, dentist, week2] = await eventsBetween(app, headers, '2026-11-01', '2026-12-01');
    assert.deepEqual(await listed(), [
      ['Yoga', '11-02T09:00'],
      ['Dentist', '11-04T07:00'],
      ['Yoga', '11-09T09:00'],
      ['Yoga (week 3)', '11-16T11:00'],
      ['Yoga', '11-23T09:00'],
    ]);

    assert.equal((await send(app, headers, 'DELETE', `/api/events/${dentist!._id}`)).statusCode, 204);
    const occurrence = `/api/events/${week2!.seriesId}?occurrence=${week2!.recurrenceId}`;
    assert.equal((await send(app, headers, 'DELETE', occurrence)).statusCode, 204);
    // The series (with its change) is here: both duplicates. The dentist is not: a copy, with an id of its own.
    assert.deepEqual(
      (await importCalendar(app, headers, file)).json(),
      importAnswer({
        created: 1,
        skipped: 2,
        duplicates: 2,
      }),
    );
    assert.deepEqual(await listed(), [
      ['Yoga', '11-02T09:00'],
      ['Dentist', '11-04T07:00'],
      ['Yoga (week 3)', '11-16T11:00'],
      ['Yoga', '11-23T09:00'],
    ]);
    const [copy] = await eventsBetween(app, headers, '2026-11-04', '2026-11-05');
    assert.notEqual(copy!._id, dentist!._id);
  });

  test('a start alone is a point in time (a date: the whole day), and so is an end at or before it; a point costs nothing', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app, { timeZone: 'Europe/Berlin' });
    const event = (uid: string, summary: string, times: string) => `
BEGIN:VEVENT
UID:${uid}@example.com
DTSTAMP:20260301T000000Z
SUMMARY:${summary}
${times}
END:VEVENT`;
    const file = calendar(
      [
        event('reminder', 'Reminder', 'DTSTART:20260312T080000Z'),
        event('meeting', 'Meeting', 'DTSTART:20260312T090000Z\nDTEND:20260312T093000Z'),
        event('deadline', 'Deadline', 'DTSTART:20260312T120000Z\nDTEND:20260312T120000Z'),
        event('backwards', 'Backwards', 'DTSTART:20260312T150000Z\nDTEND:20260312T140000Z'),
        event('day-off', 'Day off', 'DTSTART;VALUE=DATE:20260313'),
      ].join(''),
    );
    assert.deepEqual((await importCalendar(app, headers, file)).json(), importAnswer({ created: 5 }));
    const point = (title: string, at: string) => ({ title, start: at, end: at, allDay: false });
    assert.deepEqual(
      (await eventsBetween(app, headers, '2026-03-12', '2026-03-14')).map(
        ({ title, start, end, allDay }) => ({
          title,
          start,
          end,
          allDay,
        }),
      ),
      [
        point('Reminder', '2026-03-12T08:00:00.000Z'),
        {
          title: 'Meeting',
          start: '2026-03-12T09:00:00.000Z',
          end: '2026-03-12T09:30:00.000Z',
          allDay: false,
        },
        point('Deadline', '2026-03-12T12:00:00.000Z'),
        point('Backwards', '2026-03-12T15:00:00.000Z'),
        {
          title: 'Day off',
          start: '2026-03-12T23:00:00.000Z',
          end: '2026-03-13T23:00:00.000Z',
          allDay: true,
        },
      ],
    );
    // Only the meeting's half hour is planned; the points and the all-day event cost nothing.
    const ledger = await send(app, headers, 'GET', '/api/ledger?from=2026-03-12&to=2026-03-14');
    assert.equal(ledger.statusCode, 200, ledger.body);
    assert.deepEqual(
      ledger
        .json()
        .days.map((day: { date: string; plannedMinutes: number }) => [day.date, day.plannedMinutes]),
      [
        ['2026-03-12', 30],
        ['2026-03-13', 0],
      ],
    );
  });

  test('the export imports back as duplicates, manual events included, and into another account as copies', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const owner = await signUp(app, { timeZone: 'Europe/Paris' });
    await importCalendar(app, owner.headers, SAMPLE);
    await send(app, owner.headers, 'POST', '/api/events', {
      title: 'Dentist; then gym, maybe\nnew line',
      start: '2026-03-13T08:00:00Z',
      end: '2026-03-13T09:00:00Z',
      allDay: false,
    });
    await send(app, owner.headers, 'POST', '/api/events', {
      title: 'Odd all-day',
      start: '2026-03-14T10:00:00Z',
      end: '2026-03-14T12:00:00Z',
      allDay: true,
    });
    const exported = await send(app, owner.headers, 'GET', '/api/events/export.ics');
    assert.equal(exported.statusCode, 200);
    assert.match(String(exported.headers['content-type']), /^text\/calendar/);
    assert.match(exported.body, /^BEGIN:VCALENDAR\r\n/);
    assert.ok(
      exported.body.split('\r\n').every((line) => Buffer.byteLength(line) <= 75),
      'lines are folded at 75 octets',
    );

    // Each series once, with its rule and skipped starts; the moved occurrence under its series' UID.
    const unfolded = exported.body.replace(/\r\n[ \t]/g, '');
    assert.equal(unfolded.match(/^BEGIN:VEVENT$/gm)?.length, SAMPLE_EVENTS + 2);
    assert.match(unfolded, /^RRULE:FREQ=WEEKLY\r$/m);
    assert.match(unfolded, /^RRULE:FREQ=WEEKLY;COUNT=3\r$/m);
    assert.match(unfolded, /^DTSTART;TZID=America\/New_York:20260302T090000\r$/m);
    assert.match(unfolded, /^EXDATE:20260309T130000Z\r$/m);
    assert.match(
      unfolded,
      /^UID:sync@example\.com\r\nDTSTAMP:[0-9TZ]+\r\nRECURRENCE-ID:20260316T130000Z\r$/m,
    );

    const reimport = await importCalendar(app, owner.headers, exported.body);
    assert.deepEqual(reimport.json(), allDuplicates(SAMPLE_EVENTS + 2));

    const copy = await signUp(app, { timeZone: 'Europe/Paris' });
    const copied = await importCalendar(app, copy.headers, exported.body);
    assert.deepEqual(copied.json(), importAnswer({ created: SAMPLE_EVENTS + 2 }));
    const project = (list: Array<{ title: string; start: string; end: string; allDay: boolean }>) =>
      list.map(({ title, start, end, allDay }) => ({ title, start, end, allDay }));
    for (const [from, to] of [
      ['2020-01-01', '2020-03-01'],
      ['2025-03-01', '2026-03-01'],
      ['2026-03-01', '2027-04-01'],
      ['2028-06-01', '2028-07-01'],
    ] as const) {
      const copiedEvents = project(await eventsBetween(app, copy.headers, from, to));
      assert.ok(copiedEvents.length > 0);
      assert.deepEqual(copiedEvents, project(await eventsBetween(app, owner.headers, from, to)));
    }
  });

  test('refuses runaway recurrences: a series repeats at most daily, at its start time', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app);
    const started = Date.now();
    const tick = (uid: string, rule: string) => `
BEGIN:VEVENT
UID:${uid}
DTSTAMP:20260301T000000Z
SUMMARY:Tick
DTSTART:20260311T000000Z
DTEND:20260311T000030Z
RRULE:${rule}
END:VEVENT`;
    // Alone, the event is imported once (its first occurrence), and the answer says why.
    const alone = await importCalendar(
      app,
      headers,
      calendar(tick('every-minute@example.com', 'FREQ=MINUTELY')),
    );
    assert.equal(alone.statusCode, 200, alone.body);
    assert.deepEqual(
      alone.json(),
      importAnswer({
        created: 1,
        importedOnce: [
          {
            uid: 'every-minute@example.com',
            summary: 'Tick',
            reason: 'A series repeats at most daily: FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY',
          },
        ],
      }),
    );
    assert.equal((await eventsBetween(app, headers, '2026-03-11', '2026-03-12')).length, 1);
    // Beside a readable series, each runaway rule is imported once with its reason.
    const other = await signUp(app);
    const mixed = await importCalendar(
      app,
      other.headers,
      calendar(
        [
          tick('every-minute@example.com', 'FREQ=MINUTELY'),
          tick(
            'every-hour@example.com',
            `FREQ=DAILY;BYHOUR=${Array.from({ length: 24 }, (_, hour) => hour).join(',')}`,
          ),
          tick('many@example.com', 'FREQ=DAILY;COUNT=100000'),
          tick('daily@example.com', 'FREQ=DAILY'),
        ].join('\r\n'),
      ),
    );
    assert.equal(mixed.statusCode, 200, mixed.body);
    assert.deepEqual(
      mixed.json(),
      importAnswer({
        created: 4,
        importedOnce: [
          {
            uid: 'every-minute@example.com',
            summary: 'Tick',
            reason: 'A series repeats at most daily: FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY',
          },
          {
            uid: 'every-hour@example.com',
            summary: 'Tick',
            reason: 'BYHOUR is not supported: a series repeats at its start time',
          },
          { uid: 'many@example.com', summary: 'Tick', reason: 'COUNT must be from 1 to 1000' },
        ],
      }),
    );
    // The daily one is read, a day at a time, whatever the range; the three others are one event each, on its day.
    const ticks = await eventsBetween(app, other.headers, '2026-03-11', '2026-05-11');
    assert.equal(ticks.length, 61 + 3);
    assert.ok(Date.now() - started < 10_000);
  });

  test('series made here export once each; the export imports back as duplicates, into another account with its UIDs', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const owner = await signUp(app, { timeZone: 'Europe/Berlin' });
    const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: object) => {
      const response = await send(app, owner.headers, method, url, body as Record<string, unknown>);
      assert.ok(response.statusCode < 300, `${method} ${url}: ${response.statusCode} ${response.body}`);
      return response.body ? response.json() : undefined;
    };
    const inMarch = async (title: string) =>
      (await eventsBetween(app, owner.headers, '2026-03-01', '2026-04-01')).filter((event) =>
        event.title.startsWith(title),
      );

    // A weekly series with one occurrence skipped and one moved and renamed.
    const gym = await call('POST', '/api/events', {
      title: 'Gym',
      start: '2026-03-02T18:00:00',
      end: '2026-03-02T19:00:00',
      rrule: 'FREQ=WEEKLY;BYDAY=MO,WE',
    });
    const [, second, third] = await inMarch('Gym');
    await call('DELETE', `/api/events/${gym._id}?occurrence=${second!.recurrenceId}`);
    await call('PATCH', `/api/events/${third!._id}`, {
      title: 'Gym (late)',
      start: '2026-03-09T20:00:00',
      end: '2026-03-09T21:00:00',
    });
    // An all-day yearly series, a COUNT series changed from its third occurrence on, and a single event.
    await call('POST', '/api/events', {
      title: 'Anniversary',
      start: '2026-03-20T00:00:00',
      end: '2026-03-21T00:00:00',
      allDay: true,
      rrule: 'FREQ=YEARLY',
    });
    await call('POST', '/api/events', {
      title: 'Course',
      start: '2026-03-03T09:00:00',
      end: '2026-03-03T10:00:00',
      rrule: 'FREQ=DAILY;COUNT=5',
    });
    const course = await inMarch('Course');
    await call('PATCH', `/api/events/${course[2]!._id}?scope=following`, {
      title: 'Course (afternoon)',
      start: '2026-03-05T14:00:00',
      end: '2026-03-05T15:00:00',
    });
    const dentist = await call('POST', '/api/events', {
      title: 'Dentist',
      start: '2026-03-12T08:00:00',
      end: '2026-03-12T09:00:00',
    });
    const ranges = [
      ['2026-03-01', '2026-04-01'],
      ['2027-03-01', '2027-04-01'],
      ['2030-03-01', '2030-04-01'],
    ] as const;
    const project = (list: Array<{ title: string; start: string; end: string; allDay: boolean }>) =>
      list.map(({ title, start, end, allDay }) => ({ title, start, end, allDay }));
    const readAll = async (headers: Record<string, string>) => {
      const read = [];
      for (const [from, to] of ranges) read.push(...project(await eventsBetween(app, headers, from, to)));
      return read;
    };
    const before = await readAll(owner.headers);
    assert.deepEqual(
      before.filter((event) => event.start < '2026-03-13').map((event) => [event.title, event.start]),
      [
        ['Gym', '2026-03-02T17:00:00.000Z'],
        ['Course', '2026-03-03T08:00:00.000Z'],
        ['Course', '2026-03-04T08:00:00.000Z'],
        ['Course (afternoon)', '2026-03-05T13:00:00.000Z'],
        ['Course (afternoon)', '2026-03-06T13:00:00.000Z'],
        ['Course (afternoon)', '2026-03-07T13:00:00.000Z'],
        ['Gym (late)', '2026-03-09T19:00:00.000Z'],
        ['Gym', '2026-03-11T17:00:00.000Z'],
        ['Dentist', '2026-03-12T07:00:00.000Z'],
      ].sort((a, b) => a[1]!.localeCompare(b[1]!)),
    );

    const exported = await send(app, owner.headers, 'GET', '/api/events/export.ics');
    assert.equal(exported.statusCode, 200);
    const unfolded = exported.body.replace(/\r\n[ \t]/g, '');
    // Four series (Gym, Anniversary, the two parts of Course), the moved occurrence and the single event.
    assert.equal(unfolded.match(/^BEGIN:VEVENT$/gm)?.length, 6);
    assert.match(unfolded, /^RRULE:FREQ=WEEKLY;BYDAY=MO,WE\r$/m);
    assert.match(unfolded, /^EXDATE:20260304T170000Z\r$/m);
    assert.match(unfolded, /^DTSTART;VALUE=DATE:20260320\r$/m);
    assert.match(
      unfolded,
      new RegExp(
        `^UID:${gym._id}@time-wallet\\r\\nDTSTAMP:[0-9TZ]+\\r\\nRECURRENCE-ID:20260309T170000Z\\r$`,
        'm',
      ),
    );

    // Back here, each event is a duplicate, known by its id; one deleted here since comes back as a new copy.
    const back = await importCalendar(app, owner.headers, exported.body);
    assert.deepEqual(back.json(), allDuplicates(6));
    assert.deepEqual(await readAll(owner.headers), before);
    await call('DELETE', `/api/events/${dentist._id}`);
    const dentistBack = await importCalendar(app, owner.headers, exported.body);
    assert.deepEqual(
      dentistBack.json(),
      importAnswer({
        created: 1,
        skipped: 5,
        duplicates: 5,
      }),
    );
    assert.deepEqual(await readAll(owner.headers), before);
    const [dentistCopy] = await inMarch('Dentist');
    assert.notEqual(dentistCopy!._id, dentist._id);

    const copy = await signUp(app, { timeZone: 'Europe/Berlin' });
    const copied = await importCalendar(app, copy.headers, exported.body);
    assert.deepEqual(copied.json(), importAnswer({ created: 6 }));
    assert.deepEqual(await readAll(copy.headers), before);
    // There too the moved occurrence belongs to its series, which repeats by the same rule.
    const copiedGym = (await eventsBetween(app, copy.headers, '2026-03-01', '2026-03-12')).filter((event) =>
      event.title.startsWith('Gym'),
    );
    assert.deepEqual(
      copiedGym.map(({ title, seriesId, rrule }) => [title, seriesId, rrule]),
      ['Gym', 'Gym (late)', 'Gym'].map((title) => [title, copiedGym[0]!.seriesId, 'FREQ=WEEKLY;BYDAY=MO,WE']),
    );
    assert.notEqual(copiedGym[0]!.seriesId, '');
    // The copy exports the UIDs it was imported with, and its export is all duplicates there too.
    const again = await send(app, copy.headers, 'GET', '/api/events/export.ics');
    const uidsOf = (text: string) =>
      [...text.replace(/\r\n[ \t]/g, '').matchAll(/^UID:(.*)\r$/gm)].map((match) => match[1]).sort();
    assert.deepEqual(uidsOf(again.body), uidsOf(exported.body));
    const copyBack = await importCalendar(app, copy.headers, again.body);
    assert.deepEqual(copyBack.json(), allDuplicates(6));
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

    const json = await send(app, headers, 'POST', '/api/events/import', { file: SAMPLE });
    assert.equal(json.statusCode, 415);

    const anonymous = await app.inject({ method: 'GET', url: '/api/events/export.ics' });
    assert.equal(anonymous.statusCode, 401);
  });
});

describe('hostile .ics files', () => {
  const vevent = (uid: string, lines: string) =>
    `BEGIN:VEVENT\r\nUID:${uid}\r\nDTSTAMP:20260301T000000Z\r\n${lines.trim()}\r\nEND:VEVENT`;

  test('files that are not calendars of events get a 400 with a clear message, never a 500', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app);
    const garbage = Buffer.alloc(4096);
    for (let index = 0; index < garbage.length; index += 1) garbage[index] = (index * 7919) % 256;
    const cases: Array<[string, string | Buffer, RegExp]> = [
      ['no VEVENT', calendar(''), /no events/],
      ['an empty file', '', /calendar/i],
      ['binary garbage', garbage, /not a valid iCalendar/],
      [
        'NUL inside a calendar',
        calendar(
          vevent('nul@example.com', 'SUMMARY:a\u0000b\r\nDTSTART:20260311T100000Z\r\nDTEND:20260311T110000Z'),
        ),
        /not a valid iCalendar/,
      ],
      ['a vCard', 'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Someone\r\nEND:VCARD\r\n', /not a valid iCalendar/],
      ['an unterminated calendar', 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\n', /no events/],
      [
        'only unreadable events',
        calendar(vevent('no-start@example.com', 'SUMMARY:No start') + '\r\n' + 'BEGIN:VEVENT\r\nUID:cut'),
        /^No event in the file could be read: /,
      ],
    ];
    for (const [name, content, message] of cases) {
      const response = await importCalendar(app, headers, content);
      assert.equal(response.statusCode, 400, `${name}: ${response.body}`);
      assert.deepEqual(Object.keys(response.json()), ['message'], name);
      assert.match(response.json().message, message, name);
    }
    const events = await eventsBetween(app, headers, '2026-01-01', '2027-01-01');
    assert.deepEqual(events, []);
  });

  test('odd events are imported safely or skipped: unknown TZID, huge COUNT, long UID, far future', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app, { timeZone: 'Europe/Paris' });
    const started = Date.now();
    const response = await importCalendar(
      app,
      headers,
      calendar(
        [
          vevent(
            'mars@example.com',
            'SUMMARY:On \u0001Mars\r\nDTSTART;TZID=Mars/Olympus:20260311T100000\r\nDTEND;TZID=Mars/Olympus:20260311T110000',
          ),
          vevent(
            'count@example.com',
            'SUMMARY:Tick\r\nDTSTART:20260311T000000Z\r\nDTEND:20260311T000001Z\r\nRRULE:FREQ=SECONDLY;COUNT=999999999',
          ),
          vevent('u'.repeat(5000), 'SUMMARY:Long UID\r\nDTSTART:20260312T100000Z\r\nDTEND:20260312T110000Z'),
          vevent('far@example.com', 'SUMMARY:Far\r\nDTSTART:99991231T100000Z\r\nDTEND:99991231T110000Z'),
          vevent(
            'backwards@example.com',
            'SUMMARY:Back\r\nDTSTART:20260312T100000Z\r\nDTEND:20260312T090000Z',
          ),
        ].join('\r\n'),
      ),
    );
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(
      response.json(),
      importAnswer({
        created: 3,
        skipped: 2,
        skippedEvents: [
          { uid: 'u'.repeat(200), summary: 'Long UID', reason: 'Its UID is too long' },
          { uid: 'far@example.com', summary: 'Far', reason: 'Its dates are outside the years 1900 to 2999' },
        ],
        importedOnce: [
          {
            uid: 'count@example.com',
            summary: 'Tick',
            reason: 'A series repeats at most daily: FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY',
          },
        ],
      }),
    );
    assert.ok(Date.now() - started < 15_000);
    // An unknown zone reads as the user's own: 10:00 in Paris. An end before the start is a point at the start.
    assert.deepEqual(
      (await eventsBetween(app, headers, '2026-03-11', '2026-03-13')).map(
        ({ title, start, end, source }) => ({
          title,
          start,
          end,
          source,
        }),
      ),
      [
        { title: 'Tick', start: '2026-03-11T00:00:00.000Z', end: '2026-03-11T00:00:01.000Z', source: 'ics' },
        {
          title: 'On Mars',
          start: '2026-03-11T09:00:00.000Z',
          end: '2026-03-11T10:00:00.000Z',
          source: 'ics',
        },
        { title: 'Back', start: '2026-03-12T10:00:00.000Z', end: '2026-03-12T10:00:00.000Z', source: 'ics' },
      ],
    );
  });

  test('an unreadable or unusable repeat rule imports its event once, saying why; an unreadable RDATE costs itself', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app);
    const times = 'DTSTART:20260311T100000Z\r\nDTEND:20260311T110000Z';
    const unreadable = await importCalendar(
      app,
      headers,
      calendar(
        [
          vevent('until@example.com', `${times}\r\nRRULE:FREQ=DAILY;UNTIL=garbage`),
          vevent('empty@example.com', `${times}\r\nRRULE:`),
          vevent('rdate@example.com', `SUMMARY:Extra day unreadable\r\n${times}\r\nRDATE:garbage`),
          vevent('fine@example.com', `SUMMARY:Fine\r\n${times}`),
        ].join('\r\n'),
      ),
    );
    assert.equal(unreadable.statusCode, 200, unreadable.body);
    // A rule that cannot be read leaves its other occurrences unknown: the event is imported as its first one (the
    // start the file gives), and listed with why. An RDATE value that cannot be read costs only that occurrence.
    assert.deepEqual(
      unreadable.json(),
      importAnswer({
        created: 4,
        importedOnce: [
          {
            uid: 'until@example.com',
            summary: '(No title)',
            reason:
              'UNTIL must be a real date (YYYYMMDD) or UTC date-time (YYYYMMDDTHHMMSSZ) from 1900-01-01 to 2999-12-31',
          },
          { uid: 'empty@example.com', summary: '(No title)', reason: 'Its RRULE is empty' },
        ],
      }),
    );
    assert.deepEqual(
      (await eventsBetween(app, headers, '2026-03-11', '2026-03-12')).map((event) => event.title).sort(),
      ['(No title)', '(No title)', 'Extra day unreadable', 'Fine'],
    );
    assert.deepEqual(await eventsBetween(app, headers, '2026-03-12', '2026-03-20'), []);

    // Each of these held a parse worker until its time limit (ical.js never returns from them); now they are read,
    // refused by the rule checks before ical.js expands them, and their events imported once.
    const neverEnding = [
      'FREQ=DAILY;BYDAY=1MO',
      'FREQ=HOURLY;BYDAY=-1FR',
      'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30',
      'FREQ=MINUTELY;BYMONTHDAY=31;BYMONTH=4,6',
      'FREQ=DAILY;INTERVAL=7;BYDAY=MO',
      'FREQ=SECONDLY;BYMONTH=2',
    ];
    const pool = app.icsParsePool;
    const startedBefore = pool.counts().started;
    const endless = await importCalendar(
      app,
      headers,
      calendar(
        [
          ...neverEnding.map((rule, index) =>
            vevent(`endless-${index}@example.com`, `${times}\r\nRRULE:${rule}`),
          ),
          vevent('weekly@example.com', `SUMMARY:Weekly\r\n${times}\r\nRRULE:FREQ=WEEKLY;COUNT=3`),
        ].join('\r\n'),
      ),
    );
    assert.equal(endless.statusCode, 200, endless.body);
    const answer = endless.json();
    assert.deepEqual(
      { created: answer.created, updated: answer.updated, skipped: answer.skipped },
      { created: 1 + neverEnding.length, updated: 0, skipped: 0 },
    );
    assert.deepEqual(
      answer.importedOnce.map((event: { uid: string }) => event.uid),
      neverEnding.map((_, index) => `endless-${index}@example.com`),
    );
    for (const event of answer.importedOnce) {
      assert.match(
        event.reason,
        /^(The repeat rule cannot be used: |A series repeats at most daily)/,
        event.reason,
      );
    }
    assert.equal(
      (await eventsBetween(app, headers, '2026-03-01', '2026-04-01')).filter(
        (event) => event.title === 'Weekly',
      ).length,
      3,
    );
    // One file, one worker, and it answered: none of the rules ran it to its time limit.
    assert.deepEqual(
      { started: pool.counts().started - startedBefore, timedOut: pool.counts().timedOut },
      { started: 1, timedOut: 0 },
    );
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    assert.equal(health.statusCode, 200);
  });

  test('imports running at once all finish; an account reads one file at a time and may have two waiting', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const single = (index: number) =>
      calendar(vevent(`parallel-${index}@example.com`, 'DTSTART:20260311T100000Z\r\nDTEND:20260311T110000Z'));
    const users = await Promise.all(Array.from({ length: 5 }, () => signUp(app)));
    const fromFive = await Promise.all(
      users.map((user, index) => importCalendar(app, user.headers, single(index))),
    );
    assert.deepEqual(
      fromFive.map((answer) => answer.json()),
      Array.from({ length: 5 }, () => importAnswer({ created: 1 })),
    );

    // One account sending five at once: one is read, two wait their turn, the other two are told to come back.
    const fromOne = await Promise.all(
      Array.from({ length: 5 }, (_, index) => importCalendar(app, users[0]!.headers, single(10 + index))),
    );
    // Which two depends on the order the uploads finish arriving in.
    assert.deepEqual(fromOne.map((answer) => answer.statusCode).sort(), [200, 200, 200, 429, 429]);
    for (const refused of fromOne.filter((answer) => answer.statusCode === 429)) {
      assert.equal(refused.headers['retry-after'], '5');
      assert.match(refused.json().message, /still being read/);
    }
  });

  test('a file with more events than the cap imports the cap and counts the rest as skipped', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app);
    const many = Array.from({ length: 5200 }, (_, index) =>
      vevent(`many-${index}@example.com`, 'DTSTART:20260311T100000Z\r\nDTEND:20260311T110000Z'),
    ).join('\r\n');
    const started = Date.now();
    const response = await importCalendar(app, headers, calendar(many));
    assert.equal(response.statusCode, 200, response.body);
    // The first 20 left out are named, with why.
    assert.deepEqual(
      response.json(),
      importAnswer({
        created: 5000,
        skipped: 200,
        skippedEvents: Array.from({ length: 20 }, (_, index) => ({
          uid: `many-${5000 + index}@example.com`,
          summary: '(No title)',
          reason: 'The file holds more than 5000 events: the rest are not imported',
        })),
      }),
    );
    assert.ok(Date.now() - started < 20_000, `took ${Date.now() - started} ms`);
  });
});
