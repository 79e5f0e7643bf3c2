import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { addDays, localDaysBetween } from '../../src/lib/time-zone.js';
import { buildTestApp, signUp, send } from '../helpers.js';

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

/** The file's change to that series' occurrence of `day` (YYYYMMDD): renamed, and at `hour` (HH) for 30 minutes. */
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

describe('/api/events/import and /api/events/export.ics', () => {
  test('imports time zones, all-day events, recurrences with exceptions and overrides', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app, { timeZone: 'America/Chicago' });
    const response = await importCalendar(app, headers, SAMPLE);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), {
      created: SAMPLE_EVENTS,
      updated: 0,
      skipped: 1,
      skippedEvents: [CANCELLED],
    });

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

  test("an imported series' occurrences can be edited one at a time and from one on, and re-import keeps them", async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app, { timeZone: 'Europe/Berlin' });
    const file = calendar(`
BEGIN:VEVENT
UID:team@example.com
DTSTAMP:20261101T000000Z
DTSTART;TZID=Europe/Berlin:20261102T100000
DTEND;TZID=Europe/Berlin:20261102T103000
RRULE:FREQ=WEEKLY
SUMMARY:Team
END:VEVENT`);
    assert.equal((await importCalendar(app, headers, file)).statusCode, 200);
    const [first, second, third] = await eventsBetween(app, headers, '2026-11-01', '2026-11-22');
    const one = await send(app, headers, 'PATCH', `/api/events/${second!._id}`, { title: 'Team (moved)' });
    assert.equal(one.statusCode, 200);
    const following = await send(app, headers, 'PATCH', `/api/events/${third!._id}?scope=following`, {
      title: 'Team v2',
    });
    assert.equal(following.statusCode, 200);
    const titles = async () =>
      (await eventsBetween(app, headers, '2026-11-01', '2026-11-22')).map((event) => event.title);
    assert.deepEqual(await titles(), [first!.title, 'Team (moved)', 'Team v2']);
    const again = await importCalendar(app, headers, file);
    assert.equal(again.statusCode, 200);
    assert.deepEqual([again.json().created, again.json().updated], [0, 0]);
    // The file did not change since it was imported, so the edits made here stand: the single edit, and the split
    // (the file's open rule does not come back to the half that 'following' ended, so no week shows twice).
    assert.deepEqual(await titles(), [first!.title, 'Team (moved)', 'Team v2']);

    // The other calendar renames the series: the new title arrives where the title was not edited here, the split
    // stays, since the file did not change the series' time.
    const renamed = await importCalendar(app, headers, file.replace('SUMMARY:Team', 'SUMMARY:Team sync'));
    assert.deepEqual([renamed.json().created, renamed.json().updated], [0, 1]);
    assert.deepEqual(await titles(), ['Team sync', 'Team (moved)', 'Team v2']);
    // Moved there to 11:00: the file's time wins over the times made here, in each part of the split, which stays at
    // the same week; the occurrence edited here moves with its series. Three events updated, none created.
    const moved = file
      .replace('SUMMARY:Team', 'SUMMARY:Team sync')
      .replace('DTSTART;TZID=Europe/Berlin:20261102T100000', 'DTSTART;TZID=Europe/Berlin:20261102T110000')
      .replace('DTEND;TZID=Europe/Berlin:20261102T103000', 'DTEND;TZID=Europe/Berlin:20261102T113000');
    const retimed = await importCalendar(app, headers, moved);
    assert.deepEqual([retimed.json().created, retimed.json().updated], [0, 3]);
    const weeks = async () =>
      (await eventsBetween(app, headers, '2026-11-01', '2026-11-29')).map(({ title, start, end }) => ({
        title,
        start,
        end,
      }));
    const atEleven = (day: string, title: string) => ({
      title,
      start: `2026-11-${day}T10:00:00.000Z`,
      end: `2026-11-${day}T10:30:00.000Z`,
    });
    const after = [
      atEleven('02', 'Team sync'),
      atEleven('09', 'Team (moved)'),
      atEleven('16', 'Team v2'),
      atEleven('23', 'Team v2'),
    ];
    assert.deepEqual(await weeks(), after);
    // Again: nothing changes.
    const again2 = await importCalendar(app, headers, moved);
    assert.deepEqual([again2.json().created, again2.json().updated], [0, 0]);
    assert.deepEqual(await weeks(), after);
  });

  test('an occurrence the file changes after a split made here lands on the half that holds its date', async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app, { timeZone: 'Europe/Berlin' });
    const series = weeklyInBerlin('standup@example.com', 'Standup');
    // The other calendar moves one week's meeting: weeks 2 (before the split made below) and 4 (after it).
    const movedWeek = (day: string, summary: string) => occurrenceChange('standup@example.com', day, summary);
    const withWeek2 = calendar(series + movedWeek('20261109', 'Standup (week 2)'));
    assert.equal((await importCalendar(app, headers, withWeek2)).statusCode, 200);
    const weeks = await eventsBetween(app, headers, '2026-11-01', '2026-11-29');
    assert.equal(weeks.length, 4);
    // Split here from week 3 on: weeks 3 and 4 become a series of their own.
    const split = await send(app, headers, 'PATCH', `/api/events/${weeks[2]!._id}?scope=following`, {
      title: 'Standup v2',
    });
    assert.equal(split.statusCode, 200);
    const secondHalf = (await eventsBetween(app, headers, '2026-11-16', '2026-11-22'))[0]!.seriesId;
    const week = async (from: string, to: string) =>
      (await eventsBetween(app, headers, from, to)).map(({ title, start, seriesId }) => ({
        title,
        start,
        seriesId,
      }));

    // The file now also moves week 4: that occurrence is the later half's, so the week shows it once, moved.
    const withWeek4 = calendar(
      series + movedWeek('20261109', 'Standup (week 2)') + movedWeek('20261123', 'Standup (week 4)'),
    );
    const imported = await importCalendar(app, headers, withWeek4);
    assert.equal(imported.statusCode, 200);
    assert.deepEqual([imported.json().created, imported.json().updated], [1, 0]);
    assert.deepEqual(await week('2026-11-23', '2026-11-29'), [
      { title: 'Standup (week 4)', start: '2026-11-23T11:00:00.000Z', seriesId: secondHalf },
    ]);
    // Week 2 stays the first half's; week 3 keeps the split's title.
    assert.notEqual((await week('2026-11-09', '2026-11-15'))[0]!.seriesId, secondHalf);
    assert.deepEqual(await week('2026-11-16', '2026-11-22'), [
      { title: 'Standup v2', start: '2026-11-16T09:00:00.000Z', seriesId: secondHalf },
    ]);

    // The same file again changes nothing, and no week shows twice.
    const again = await importCalendar(app, headers, withWeek4);
    assert.deepEqual([again.json().created, again.json().updated], [0, 0]);
    assert.deepEqual(
      (await eventsBetween(app, headers, '2026-11-01', '2026-12-06')).map((event) => event.title),
      ['Standup', 'Standup (week 2)', 'Standup v2', 'Standup (week 4)', 'Standup v2'],
    );

    // An occurrence the file had changed before the split went with it to the later half (keeping its own title: the
    // split renames the occurrences that had the series' title), and stays there, moved, once.
    const other = await signUp(app, { timeZone: 'Europe/Berlin' });
    assert.equal((await importCalendar(app, other.headers, withWeek4)).statusCode, 200);
    const [, , otherWeek3] = await eventsBetween(app, other.headers, '2026-11-01', '2026-11-29');
    const otherSplit = await send(
      app,
      other.headers,
      'PATCH',
      `/api/events/${otherWeek3!._id}?scope=following`,
      {
        title: 'Standup v2',
      },
    );
    assert.equal(otherSplit.statusCode, 200);
    const reimported = await importCalendar(app, other.headers, withWeek4);
    assert.deepEqual([reimported.json().created, reimported.json().updated], [0, 0]);
    const otherWeek4 = await eventsBetween(app, other.headers, '2026-11-23', '2026-11-29');
    assert.deepEqual(
      otherWeek4.map(({ title, start }) => ({ title, start })),
      [{ title: 'Standup (week 4)', start: '2026-11-23T11:00:00.000Z' }],
    );

    // The later half split again at week 5: a change to week 6 goes to the newest half.
    const week5 = (await eventsBetween(app, headers, '2026-11-30', '2026-12-06'))[0]!;
    const splitAgain = await send(app, headers, 'PATCH', `/api/events/${week5._id}?scope=following`, {
      title: 'Standup v3',
    });
    assert.equal(splitAgain.statusCode, 200);
    const thirdHalf = (await eventsBetween(app, headers, '2026-11-30', '2026-12-06'))[0]!.seriesId;
    assert.notEqual(thirdHalf, secondHalf);
    const withWeek6 = calendar(
      series +
        movedWeek('20261109', 'Standup (week 2)') +
        movedWeek('20261123', 'Standup (week 4)') +
        movedWeek('20261207', 'Standup (week 6)'),
    );
    assert.equal((await importCalendar(app, headers, withWeek6)).json().created, 1);
    assert.deepEqual(await week('2026-12-07', '2026-12-13'), [
      { title: 'Standup (week 6)', start: '2026-12-07T11:00:00.000Z', seriesId: thirdHalf },
    ]);
  });

  test("a split that moves the time: the file's occurrences still find their half and their moved slot", async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app, { timeZone: 'Europe/Berlin' });
    const series = weeklyInBerlin('retro@example.com', 'Retro');
    const movedWeek = (day: string, summary: string) => occurrenceChange('retro@example.com', day, summary);
    const withWeek4 = calendar(series + movedWeek('20261123', 'Retro (week 4)'));
    assert.equal((await importCalendar(app, headers, withWeek4)).statusCode, 200);
    const [, , week3] = await eventsBetween(app, headers, '2026-11-01', '2026-11-29');
    // From week 3 on, an hour later (10:00 UTC, 11:00 in Berlin).
    const split = await send(app, headers, 'PATCH', `/api/events/${week3!._id}?scope=following`, {
      start: '2026-11-16T10:00:00.000Z',
      end: '2026-11-16T10:30:00.000Z',
    });
    assert.equal(split.statusCode, 200);
    const laterHalf = (await eventsBetween(app, headers, '2026-11-16', '2026-11-22'))[0]!.seriesId;
    const weeks = async () =>
      (await eventsBetween(app, headers, '2026-11-01', '2026-12-06')).map(({ title, start, seriesId }) => ({
        title,
        start,
        later: seriesId === laterHalf,
      }));
    const before = await weeks();
    assert.deepEqual(before, [
      { title: 'Retro', start: '2026-11-02T09:00:00.000Z', later: false },
      { title: 'Retro', start: '2026-11-09T09:00:00.000Z', later: false },
      { title: 'Retro', start: '2026-11-16T10:00:00.000Z', later: true },
      // Moved in the file, so it keeps its time, and its own title.
      { title: 'Retro (week 4)', start: '2026-11-23T11:00:00.000Z', later: true },
      { title: 'Retro', start: '2026-11-30T10:00:00.000Z', later: true },
    ]);

    // The same file again: nothing changes (the week-4 change stays the later half's, at its slot there).
    const again = await importCalendar(app, headers, withWeek4);
    assert.deepEqual([again.json().created, again.json().updated], [0, 0]);
    assert.deepEqual(await weeks(), before);

    // The other calendar now moves week 3, named by its time in the file: it replaces the later half's week 3.
    const withWeek3 = calendar(
      series + movedWeek('20261116', 'Retro (week 3)') + movedWeek('20261123', 'Retro (week 4)'),
    );
    assert.equal((await importCalendar(app, headers, withWeek3)).json().created, 1);
    assert.deepEqual((await weeks()).slice(2, 4), [
      { title: 'Retro (week 3)', start: '2026-11-16T11:00:00.000Z', later: true },
      { title: 'Retro (week 4)', start: '2026-11-23T11:00:00.000Z', later: true },
    ]);
    assert.equal((await weeks()).length, 5);

    // A renamed week 5, left at its slot in the file: at its slot here, moved with the later half.
    const renamedWeek5 = occurrenceChange('retro@example.com', '20261130', 'Retro (week 5)', '10');
    const withWeek5 = calendar(
      series +
        movedWeek('20261116', 'Retro (week 3)') +
        movedWeek('20261123', 'Retro (week 4)') +
        renamedWeek5,
    );
    assert.equal((await importCalendar(app, headers, withWeek5)).json().created, 1);
    assert.deepEqual((await weeks()).slice(4), [
      { title: 'Retro (week 5)', start: '2026-11-30T10:00:00.000Z', later: true },
    ]);
    const unchanged = await importCalendar(app, headers, withWeek5);
    assert.deepEqual([unchanged.json().created, unchanged.json().updated], [0, 0]);
  });

  test('the other calendar retimes a series split here: each part takes the new time, the split stays at its week', async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app, { timeZone: 'Europe/Berlin' });
    const series = weeklyInBerlin('review@example.com', 'Review');
    assert.equal((await importCalendar(app, headers, calendar(series))).statusCode, 200);
    const [, , week3] = await eventsBetween(app, headers, '2026-11-01', '2026-11-22');
    // From week 3 on, renamed and an hour later here (11:00 in Berlin); week 4 is then renamed on its own.
    const split = await send(app, headers, 'PATCH', `/api/events/${week3!._id}?scope=following`, {
      title: 'Review v2',
      start: '2026-11-16T10:00:00.000Z',
      end: '2026-11-16T10:30:00.000Z',
    });
    assert.equal(split.statusCode, 200);
    const [week4] = await eventsBetween(app, headers, '2026-11-23', '2026-11-29');
    const one = await send(app, headers, 'PATCH', `/api/events/${week4!._id}`, { title: 'Review (here)' });
    assert.equal(one.statusCode, 200);
    const laterHalf = week4!.seriesId;
    const weeks = async () =>
      (await eventsBetween(app, headers, '2026-11-01', '2026-12-13')).map(({ title, start, seriesId }) => ({
        title,
        start: start.slice(5, 16),
        later: seriesId === laterHalf,
      }));

    // The other calendar moves the whole series to 10:30 (09:30 UTC): the weeks before the split take it, and so do
    // the split's (its own time was a time made here), each once; titles made here stay.
    const retimedSeries = series
      .replace('DTSTART;TZID=Europe/Berlin:20261102T100000', 'DTSTART;TZID=Europe/Berlin:20261102T103000')
      .replace('DTEND;TZID=Europe/Berlin:20261102T103000', 'DTEND;TZID=Europe/Berlin:20261102T110000');
    const retimed = await importCalendar(app, headers, calendar(retimedSeries));
    assert.equal(retimed.statusCode, 200);
    // The series, its later half, and the occurrence renamed here, which moves with it.
    assert.deepEqual([retimed.json().created, retimed.json().updated], [0, 3]);
    const expected = [
      { title: 'Review', start: '11-02T09:30', later: false },
      { title: 'Review', start: '11-09T09:30', later: false },
      { title: 'Review v2', start: '11-16T09:30', later: true },
      { title: 'Review (here)', start: '11-23T09:30', later: true },
      { title: 'Review v2', start: '11-30T09:30', later: true },
      { title: 'Review v2', start: '12-07T09:30', later: true },
    ];
    assert.deepEqual(await weeks(), expected);
    const again = await importCalendar(app, headers, calendar(retimedSeries));
    assert.deepEqual([again.json().created, again.json().updated], [0, 0]);
    assert.deepEqual(await weeks(), expected);

    // A change the file then makes to week 5, named by its new time there, lands on the later half, once.
    const week5 = occurrenceChange('review@example.com', '20261130', 'Review (week 5)').replace(
      'RECURRENCE-ID;TZID=Europe/Berlin:20261130T100000',
      'RECURRENCE-ID;TZID=Europe/Berlin:20261130T103000',
    );
    const withWeek5 = await importCalendar(app, headers, calendar(retimedSeries + week5));
    assert.deepEqual([withWeek5.json().created, withWeek5.json().updated], [1, 0]);
    assert.deepEqual((await weeks()).slice(4), [
      { title: 'Review (week 5)', start: '11-30T11:00', later: true },
      { title: 'Review v2', start: '12-07T09:30', later: true },
    ]);

    // Moved back to 10:00 with week 5's change still in it: once more, every week once, week 5 where the file has it.
    const back = occurrenceChange('review@example.com', '20261130', 'Review (week 5)');
    // Week 5's change is a new event of the file (its RECURRENCE-ID changed with the series), replacing the old one.
    const movedBack = await importCalendar(app, headers, calendar(series + back));
    assert.deepEqual([movedBack.json().created, movedBack.json().updated], [1, 3]);
    assert.deepEqual(await weeks(), [
      { title: 'Review', start: '11-02T09:00', later: false },
      { title: 'Review', start: '11-09T09:00', later: false },
      { title: 'Review v2', start: '11-16T09:00', later: true },
      { title: 'Review (here)', start: '11-23T09:00', later: true },
      { title: 'Review (week 5)', start: '11-30T11:00', later: true },
      { title: 'Review v2', start: '12-07T09:00', later: true },
    ]);
  });

  test("the file's new rule ends or thins a series split here: parts it no longer reaches go, every week shows once", async () => {
    const { app } = await buildTestApp();
    const series = weeklyInBerlin('plan@example.com', 'Plan');
    /** A fresh account with the series split here at week 3 ("Plan v2") and again at `secondSplit` ("Plan v3"). */
    async function splitTwice(secondSplit: string) {
      const { headers } = await signUp(app, { timeZone: 'Europe/Berlin' });
      assert.equal((await importCalendar(app, headers, calendar(series))).statusCode, 200);
      const splitAt = async (day: string, title: string) => {
        const [occurrence] = await eventsBetween(app, headers, day, addDays(day, 1));
        const split = await send(app, headers, 'PATCH', `/api/events/${occurrence!._id}?scope=following`, {
          title,
        });
        assert.equal(split.statusCode, 200);
      };
      await splitAt('2026-11-16', 'Plan v2');
      await splitAt(secondSplit, 'Plan v3');
      const weeks = async () =>
        (await eventsBetween(app, headers, '2026-11-01', '2027-02-01')).map(({ title, start }) => [
          title,
          start.slice(5, 10),
        ]);
      return { headers, weeks };
    }

    // Four occurrences now: week 5's part is past the end and goes; weeks 3 and 4 stay the first split's.
    const counted = await splitTwice('2026-11-30');
    const withCount = series.replace('RRULE:FREQ=WEEKLY', 'RRULE:FREQ=WEEKLY;COUNT=4');
    assert.equal((await importCalendar(app, counted.headers, calendar(withCount))).statusCode, 200);
    assert.deepEqual(await counted.weeks(), [
      ['Plan', '11-02'],
      ['Plan', '11-09'],
      ['Plan v2', '11-16'],
      ['Plan v2', '11-23'],
    ]);

    // Every fourth week: the parts from weeks 3 and 4 would both begin on 30 November; the later one does.
    const thinned = await splitTwice('2026-11-23');
    const everyFourth = series.replace('RRULE:FREQ=WEEKLY', 'RRULE:FREQ=WEEKLY;INTERVAL=4');
    assert.equal((await importCalendar(app, thinned.headers, calendar(everyFourth))).statusCode, 200);
    assert.deepEqual(await thinned.weeks(), [
      ['Plan', '11-02'],
      ['Plan v3', '11-30'],
      ['Plan v3', '12-28'],
      ['Plan v3', '01-25'],
    ]);
    const again = await importCalendar(app, thinned.headers, calendar(everyFourth));
    assert.deepEqual([again.json().created, again.json().updated], [0, 0]);
  });

  test('a series the file retimes keeps what was made here: an end, a single event, skipped weeks, edited weeks', async () => {
    const { app } = await buildTestApp();
    const series = weeklyInBerlin('desk@example.com', 'Desk');
    const at1030 = series
      .replace('DTSTART;TZID=Europe/Berlin:20261102T100000', 'DTSTART;TZID=Europe/Berlin:20261102T103000')
      .replace('DTEND;TZID=Europe/Berlin:20261102T103000', 'DTEND;TZID=Europe/Berlin:20261102T110000');
    async function imported() {
      const { headers } = await signUp(app, { timeZone: 'Europe/Berlin' });
      assert.equal((await importCalendar(app, headers, calendar(series))).statusCode, 200);
      const on = async (day: string) => (await eventsBetween(app, headers, day, addDays(day, 1)))[0]!;
      const weeks = async () =>
        (await eventsBetween(app, headers, '2026-11-01', '2026-12-21')).map(({ title, start }) => [
          title,
          start.slice(5, 16),
        ]);
      return { headers, on, weeks };
    }

    // Split at week 3, the later part deleted: the first part keeps its end, and the file's change to week 4 is
    // skipped with the reason.
    const ended = await imported();
    const split = await send(
      app,
      ended.headers,
      'PATCH',
      `/api/events/${(await ended.on('2026-11-16'))._id}?scope=following`,
      {
        title: 'Desk v2',
      },
    );
    assert.equal(split.statusCode, 200);
    assert.equal(
      (await send(app, ended.headers, 'DELETE', `/api/events/${split.json().seriesId}`)).statusCode,
      204,
    );
    const week4 = occurrenceChange('desk@example.com', '20261123', 'Desk (week 4)').replace(
      'T100000',
      'T103000',
    );
    const endedImport = await importCalendar(app, ended.headers, calendar(at1030 + week4));
    assert.equal(endedImport.statusCode, 200);
    assert.deepEqual(endedImport.json().skippedEvents, [
      { uid: 'desk@example.com', summary: 'Desk (week 4)', reason: 'It changes an occurrence deleted here' },
    ]);
    assert.deepEqual(await ended.weeks(), [
      ['Desk', '11-02T09:30'],
      ['Desk', '11-09T09:30'],
    ]);

    // Split at week 3 and made a single event from week 5: the part between takes the new time and still ends there;
    // the single event moves with its occurrence.
    const single = await imported();
    const v2 = await send(
      app,
      single.headers,
      'PATCH',
      `/api/events/${(await single.on('2026-11-16'))._id}?scope=following`,
      {
        title: 'Desk v2',
      },
    );
    assert.equal(v2.statusCode, 200);
    const once = await send(
      app,
      single.headers,
      'PATCH',
      `/api/events/${(await single.on('2026-11-30'))._id}?scope=following`,
      {
        title: 'Desk once',
        rrule: '',
      },
    );
    assert.equal(once.statusCode, 200);
    assert.equal((await importCalendar(app, single.headers, calendar(at1030))).statusCode, 200);
    assert.deepEqual(await single.weeks(), [
      ['Desk', '11-02T09:30'],
      ['Desk', '11-09T09:30'],
      ['Desk v2', '11-16T09:30'],
      ['Desk v2', '11-23T09:30'],
      ['Desk once', '11-30T09:30'],
    ]);

    // Weeks 2 and 5 deleted here, on both sides of a split at week 3, and weeks 3 and 4 renamed alone (an edit that
    // moves forward onto the other's week when the file starts the series a week later): all stay as made here.
    const kept = await imported();
    const split3 = await send(
      app,
      kept.headers,
      'PATCH',
      `/api/events/${(await kept.on('2026-11-16'))._id}?scope=following`,
      {
        title: 'Desk v2',
      },
    );
    assert.equal(split3.statusCode, 200);
    for (const day of ['2026-11-09', '2026-11-30']) {
      const occurrence = await kept.on(day);
      const deleted = await send(
        app,
        kept.headers,
        'DELETE',
        `/api/events/${occurrence.seriesId}?occurrence=${occurrence.recurrenceId}`,
      );
      assert.equal(deleted.statusCode, 204);
    }
    for (const [day, title] of [
      ['2026-11-16', 'A'],
      ['2026-11-23', 'B'],
    ] as const) {
      assert.equal(
        (await send(app, kept.headers, 'PATCH', `/api/events/${(await kept.on(day))._id}`, { title }))
          .statusCode,
        200,
      );
    }
    const retimed = await importCalendar(app, kept.headers, calendar(at1030));
    assert.equal(retimed.statusCode, 200);
    assert.deepEqual(await kept.weeks(), [
      ['Desk', '11-02T09:30'],
      ['A', '11-16T09:30'],
      ['B', '11-23T09:30'],
      ['Desk v2', '12-07T09:30'],
      ['Desk v2', '12-14T09:30'],
    ]);
    // A week later in the file: each edit moves a week on, B onto the week A leaves.
    const weekLater = at1030
      .replace('20261102T103000', '20261109T103000')
      .replace('20261102T110000', '20261109T110000');
    const later = await importCalendar(app, kept.headers, calendar(weekLater));
    assert.equal(later.statusCode, 200);
    assert.deepEqual(
      (await kept.weeks()).filter(([title]) => title === 'A' || title === 'B'),
      [
        ['A', '11-23T09:30'],
        ['B', '11-30T09:30'],
      ],
    );
  });

  test('a re-import after edits here and a new rule or time in the file: every week once, nothing made here undone', async () => {
    const { app } = await buildTestApp();
    const series = weeklyInBerlin('gym@example.com', 'Gym');
    const startingOn = (day: string) =>
      series.replace('20261102T100000', `${day}T100000`).replace('20261102T103000', `${day}T103000`);
    async function account(file: string) {
      const { headers } = await signUp(app, { timeZone: 'Europe/Berlin' });
      assert.equal((await importCalendar(app, headers, calendar(file))).statusCode, 200);
      const on = async (day: string) => (await eventsBetween(app, headers, day, addDays(day, 1)))[0]!;
      const edit = async (day: string, body: object, scope = '') => {
        const response = await send(
          app,
          headers,
          'PATCH',
          `/api/events/${(await on(day))._id}${scope}`,
          body,
        );
        assert.equal(response.statusCode, 200, response.body);
        return response.json() as { seriesId: string };
      };
      const reimport = async (again: string) => {
        const response = await importCalendar(app, headers, calendar(again));
        assert.equal(response.statusCode, 200, response.body);
        return response.json() as { created: number; updated: number };
      };
      const weeks = async () =>
        (await eventsBetween(app, headers, '2026-11-01', '2027-01-04')).map(({ title, start }) => [
          title,
          start.slice(5, 16),
        ]);
      return { headers, on, edit, reimport, weeks };
    }

    // An occurrence change the file's new rule no longer has an occurrence for: it becomes a single event.
    const exception = occurrenceChange('gym@example.com', '20261207', 'Gym (moved)', '13');
    const counted = await account(series + exception);
    await counted.reimport(series.replace('RRULE:FREQ=WEEKLY', 'RRULE:FREQ=WEEKLY;COUNT=4') + exception);
    assert.deepEqual((await counted.weeks()).slice(4), [['Gym (moved)', '12-07T12:00']]);

    // The file's own end, with the series moved a day later here: not an end made here.
    const until = (day: string) =>
      series.replace('RRULE:FREQ=WEEKLY', `RRULE:FREQ=WEEKLY;UNTIL=${day}T225959Z`);
    const ending = await account(until('20261130'));
    await ending.edit(
      '2026-11-02',
      { start: '2026-11-03T10:00:00', end: '2026-11-03T10:30:00' },
      '?scope=all',
    );
    await ending.reimport(until('20261228'));
    const longer = await ending.weeks();
    assert.deepEqual([longer.length, longer.at(-1)], [9, ['Gym', '12-28T09:00']]);

    // Renamed in the file: week 2, moved here with the series' title, takes the new one; then renamed here for all.
    const renamed = await account(series);
    await renamed.edit('2026-11-09', { start: '2026-11-09T11:00:00', end: '2026-11-09T11:30:00' });
    await renamed.reimport(series.replace('SUMMARY:Gym', 'SUMMARY:Workout'));
    assert.deepEqual((await renamed.weeks())[1], ['Workout', '11-09T10:00']);
    await renamed.edit('2026-11-02', { title: 'Mine' }, '?scope=all');
    assert.deepEqual((await renamed.weeks())[1], ['Mine', '11-09T10:00']);

    // Made a single event here: a new time in the file does not make it repeat again.
    const single = await account(series);
    await single.edit('2026-11-02', { rrule: '' }, '?scope=all');
    await single.reimport(startingOn('20261102').replace('T100000', 'T110000').replace('T103000', 'T113000'));
    assert.deepEqual(await single.weeks(), [['Gym', '11-02T09:00']]);

    // Made a single event from week 3 on, then the file starts a week later, twice: it moves with its week.
    const once = await account(series);
    await once.edit('2026-11-16', { title: 'Once', rrule: '' }, '?scope=following');
    await once.reimport(startingOn('20261109'));
    assert.deepEqual(await once.weeks(), [
      ['Gym', '11-09T09:00'],
      ['Gym', '11-16T09:00'],
      ['Once', '11-23T09:00'],
    ]);
    await once.reimport(startingOn('20261116'));
    assert.deepEqual(await once.weeks(), [
      ['Gym', '11-16T09:00'],
      ['Gym', '11-23T09:00'],
      ['Once', '11-30T09:00'],
    ]);

    // Split at week 3, and the part before it deleted here: a re-import does not bring it back.
    const firstGone = await account(series);
    const later = await firstGone.edit('2026-11-16', { title: 'Gym v2' }, '?scope=following');
    const firstPart = (await firstGone.on('2026-11-02')).seriesId;
    assert.notEqual(firstPart, later.seriesId);
    assert.equal((await send(app, firstGone.headers, 'DELETE', `/api/events/${firstPart}`)).statusCode, 204);
    assert.deepEqual((await firstGone.reimport(series)).created, 0);
    assert.deepEqual((await firstGone.weeks()).slice(0, 2), [
      ['Gym v2', '11-16T09:00'],
      ['Gym v2', '11-23T09:00'],
    ]);

    // The file's change to week 7, held by a part split here at week 5, and then a rule that ends at week 4: the
    // change becomes a single event, once, and the same file again changes nothing.
    const weekSeven = occurrenceChange('gym@example.com', '20261214', 'Gym (week 7)', '13');
    const beyond = await account(series + weekSeven);
    await beyond.edit('2026-11-30', { title: 'Gym v2' }, '?scope=following');
    const fourWeeks = series.replace('RRULE:FREQ=WEEKLY', 'RRULE:FREQ=WEEKLY;COUNT=4') + weekSeven;
    await beyond.reimport(fourWeeks);
    assert.deepEqual((await beyond.weeks()).slice(4), [['Gym (week 7)', '12-14T12:00']]);
    assert.deepEqual(await beyond.reimport(fourWeeks), {
      created: 0,
      updated: 0,
      skipped: 2,
      skippedEvents: [],
    });
    // Then weekly again from a week later, with week 4 renamed here (it moves onto week 5): no id is shown twice.
    await beyond.edit('2026-11-23', { title: 'Week 4 here' });
    await beyond.reimport(startingOn('20261109'));
    const listed = await eventsBetween(app, beyond.headers, '2026-11-01', '2027-01-04');
    assert.equal(new Set(listed.map((event) => event._id)).size, listed.length);
    assert.deepEqual(
      listed.filter((event) => event.start.startsWith('2026-11-30')).map((event) => event.title),
      ['Week 4 here'],
    );

    // The first part made a single event here, the rest split off at week 3: the rest still takes the file's new
    // time, and the file's change to week 4 lands there.
    const firstSingle = await account(series);
    await firstSingle.edit('2026-11-16', { title: 'Gym v2' }, '?scope=following');
    await firstSingle.edit('2026-11-02', { rrule: '' }, '?scope=all');
    const at11 = startingOn('20261102').replace('T100000', 'T110000').replace('T103000', 'T113000');
    const week4At11 = occurrenceChange('gym@example.com', '20261123', 'Gym (week 4)', '13').replace(
      'RECURRENCE-ID;TZID=Europe/Berlin:20261123T100000',
      'RECURRENCE-ID;TZID=Europe/Berlin:20261123T110000',
    );
    await firstSingle.reimport(at11 + week4At11);
    assert.deepEqual((await firstSingle.weeks()).slice(0, 4), [
      ['Gym', '11-02T09:00'],
      ['Gym v2', '11-16T10:00'],
      ['Gym (week 4)', '11-23T12:00'],
      ['Gym v2', '11-30T10:00'],
    ]);

    // Week 2 renamed here, then the file starts a week later and changes its new first week: each is kept.
    const shifted = await account(series);
    await shifted.edit('2026-11-09', { title: 'Local week 2' });
    const fileWeek = occurrenceChange('gym@example.com', '20261109', 'File week', '12');
    await shifted.reimport(startingOn('20261109') + fileWeek);
    assert.deepEqual((await shifted.weeks()).slice(0, 3), [
      ['File week', '11-09T11:00'],
      ['Local week 2', '11-16T09:00'],
      ['Gym', '11-23T09:00'],
    ]);
  });

  test('an occurrence deleted here stays deleted when the file changes it, and so does a part of a split deleted here', async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app, { timeZone: 'Europe/Berlin' });
    const series = weeklyInBerlin('sync@example.com', 'Sync');
    const change = (day: string, summary: string) => occurrenceChange('sync@example.com', day, summary);
    // The file changes week 2; week 2 is deleted here, the file's change with it.
    const withWeek2 = calendar(series + change('20261109', 'Sync (week 2)'));
    assert.equal((await importCalendar(app, headers, withWeek2)).statusCode, 200);
    const titles = async () =>
      (await eventsBetween(app, headers, '2026-11-01', '2026-12-13')).map(({ title, start }) => ({
        title,
        start: start.slice(5, 16),
      }));
    const [, week2] = await eventsBetween(app, headers, '2026-11-01', '2026-11-15');
    assert.equal(week2!.title, 'Sync (week 2)');
    const deleted = await send(
      app,
      headers,
      'DELETE',
      `/api/events/${week2!.seriesId}?occurrence=${week2!.recurrenceId}`,
    );
    assert.equal(deleted.statusCode, 204);
    const without2 = [
      { title: 'Sync', start: '11-02T09:00' },
      { title: 'Sync', start: '11-16T09:00' },
      { title: 'Sync', start: '11-23T09:00' },
      { title: 'Sync', start: '11-30T09:00' },
      { title: 'Sync', start: '12-07T09:00' },
    ];
    assert.deepEqual(await titles(), without2);
    // The same file again, and then one that renames week 2 once more: week 2 stays deleted, with the reason.
    const again = await importCalendar(app, headers, withWeek2);
    assert.deepEqual([again.json().created, again.json().updated], [0, 0]);
    assert.deepEqual(await titles(), without2);
    const renamed = await importCalendar(app, headers, calendar(series + change('20261109', 'Sync (moved)')));
    assert.equal(renamed.json().created, 0);
    assert.deepEqual(renamed.json().skippedEvents, [
      { uid: 'sync@example.com', summary: 'Sync (moved)', reason: 'It changes an occurrence deleted here' },
    ]);
    assert.deepEqual(await titles(), without2);

    // Split from week 4 on, and that later part deleted: the file's change to week 5 does not bring it back.
    const [week4] = await eventsBetween(app, headers, '2026-11-23', '2026-11-29');
    const split = await send(app, headers, 'PATCH', `/api/events/${week4!._id}?scope=following`, {
      title: 'Sync v2',
    });
    assert.equal(split.statusCode, 200);
    const [laterWeek4] = await eventsBetween(app, headers, '2026-11-23', '2026-11-29');
    assert.equal((await send(app, headers, 'DELETE', `/api/events/${laterWeek4!.seriesId}`)).statusCode, 204);
    const before4 = without2.slice(0, 2);
    assert.deepEqual(await titles(), before4);
    const withWeek5 = await importCalendar(
      app,
      headers,
      calendar(series + change('20261130', 'Sync (week 5)')),
    );
    assert.equal(withWeek5.json().created, 0);
    assert.deepEqual(await titles(), before4);

    // A file that skips an occurrence and changes it too is stored as it comes: nothing was deleted here.
    const other = await signUp(app, { timeZone: 'Europe/Berlin' });
    const skipsWeek3 = series.replace(
      'RRULE:FREQ=WEEKLY',
      'RRULE:FREQ=WEEKLY\nEXDATE;TZID=Europe/Berlin:20261116T100000',
    );
    const both = await importCalendar(
      app,
      other.headers,
      calendar(skipsWeek3 + change('20261116', 'Sync (week 3)')),
    );
    assert.deepEqual([both.json().created, both.json().skipped], [2, 0]);
    const [week3] = await eventsBetween(app, other.headers, '2026-11-16', '2026-11-22');
    assert.deepEqual([week3!.title, week3!.start], ['Sync (week 3)', '2026-11-16T11:00:00.000Z']);
  });

  test('a series split here that the file starts a week later, across the change from summer time: the split moves a week', async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app, { timeZone: 'Europe/Berlin' });
    // Mondays at 10:00 in Berlin from 19 October (summer time, 08:00 UTC); from 26 October it is 09:00 UTC.
    const series = weeklyInBerlin('dst@example.com', 'Call')
      .replace('20261102T100000', '20261019T100000')
      .replace('20261102T103000', '20261019T103000');
    assert.equal((await importCalendar(app, headers, calendar(series))).statusCode, 200);
    const [, , week3] = await eventsBetween(app, headers, '2026-10-18', '2026-11-15');
    const split = await send(app, headers, 'PATCH', `/api/events/${week3!._id}?scope=following`, {
      title: 'Call v2',
    });
    assert.equal(split.statusCode, 200);
    const [week4] = await eventsBetween(app, headers, '2026-11-09', '2026-11-15');
    assert.equal(
      (await send(app, headers, 'PATCH', `/api/events/${week4!._id}`, { title: 'Call (week 4)' })).statusCode,
      200,
    );
    const weekLater = series
      .replace('20261019T100000', '20261026T100000')
      .replace('20261019T103000', '20261026T103000');
    assert.equal((await importCalendar(app, headers, calendar(weekLater))).statusCode, 200);
    assert.deepEqual(
      (await eventsBetween(app, headers, '2026-10-18', '2026-11-22')).map(({ title, start }) => [
        title,
        start,
      ]),
      [
        ['Call', '2026-10-26T09:00:00.000Z'],
        ['Call', '2026-11-02T09:00:00.000Z'],
        ['Call v2', '2026-11-09T09:00:00.000Z'],
        ['Call (week 4)', '2026-11-16T09:00:00.000Z'],
      ],
    );
  });

  test('an imported series made a single event from one week on: the earlier weeks stay a series, a re-import keeps it', async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app, { timeZone: 'Europe/Berlin' });
    const file = calendar(weeklyInBerlin('one@example.com', 'One'));
    assert.equal((await importCalendar(app, headers, file)).statusCode, 200);
    const [, , week3] = await eventsBetween(app, headers, '2026-11-01', '2026-11-22');
    const single = await send(app, headers, 'PATCH', `/api/events/${week3!._id}?scope=following`, {
      title: 'One last time',
      rrule: '',
    });
    assert.equal(single.statusCode, 200, single.body);
    const weeks = async () =>
      (await eventsBetween(app, headers, '2026-11-01', '2026-12-13')).map((event) => event.title);
    const expected = ['One', 'One', 'One last time'];
    assert.deepEqual(await weeks(), expected);
    const again = await importCalendar(app, headers, file);
    assert.deepEqual([again.json().created, again.json().updated], [0, 0]);
    assert.deepEqual(await weeks(), expected);
  });

  test("a series made a single event here: the file's changes to its occurrences are skipped, with the reason", async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app, { timeZone: 'Europe/Berlin' });
    const file = calendar(
      weeklyInBerlin('planning@example.com', 'Planning') +
        occurrenceChange('planning@example.com', '20261109', 'Planning (moved)'),
    );
    assert.equal((await importCalendar(app, headers, file)).statusCode, 200);
    const [first] = await eventsBetween(app, headers, '2026-11-01', '2026-11-08');
    const single = await send(app, headers, 'PATCH', `/api/events/${first!._id}?scope=all`, { rrule: '' });
    assert.equal(single.statusCode, 200);
    const listed = async () =>
      (await eventsBetween(app, headers, '2026-11-01', '2026-12-01')).map(({ title, start }) => ({
        title,
        start,
      }));
    const before = await listed();
    assert.deepEqual(before, [{ title: 'Planning', start: '2026-11-02T09:00:00.000Z' }]);

    const again = await importCalendar(app, headers, file);
    assert.equal(again.statusCode, 200);
    assert.equal(again.json().created, 0);
    assert.deepEqual(again.json().skippedEvents, [
      {
        uid: 'planning@example.com',
        summary: 'Planning (moved)',
        reason: 'It changes an occurrence of a series that no longer repeats here',
      },
    ]);
    assert.deepEqual(await listed(), before);
  });

  test('importing the same file twice changes nothing; a changed event is updated', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app);
    await importCalendar(app, headers, SAMPLE);
    const again = await importCalendar(app, headers, SAMPLE);
    assert.deepEqual(again.json(), {
      created: 0,
      updated: 0,
      skipped: SAMPLE_EVENTS + 1,
      skippedEvents: [CANCELLED],
    });
    const changed = await importCalendar(
      app,
      headers,
      SAMPLE.replace('SUMMARY:UTC call', 'SUMMARY:UTC call (moved)'),
    );
    assert.deepEqual(changed.json(), {
      created: 0,
      updated: 1,
      skipped: SAMPLE_EVENTS,
      skippedEvents: [CANCELLED],
    });
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
    assert.deepEqual(reimport.json(), {
      created: 0,
      updated: 0,
      skipped: SAMPLE_EVENTS + 2,
      skippedEvents: [],
    });

    const copy = await signUp(app, { timeZone: 'Europe/Paris' });
    const copied = await importCalendar(app, copy.headers, exported.body);
    assert.deepEqual(copied.json(), {
      created: SAMPLE_EVENTS + 2,
      updated: 0,
      skipped: 0,
      skippedEvents: [],
    });
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
    // Alone, the file holds no event that can be read: refused, with the reason.
    const alone = await importCalendar(
      app,
      headers,
      calendar(tick('every-minute@example.com', 'FREQ=MINUTELY')),
    );
    assert.equal(alone.statusCode, 400, alone.body);
    assert.deepEqual(alone.json(), {
      message:
        'No event in the file could be read: A series repeats at most daily: FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY',
    });
    // Beside a readable event, each runaway rule is skipped with its reason.
    const mixed = await importCalendar(
      app,
      headers,
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
    assert.deepEqual(mixed.json(), {
      created: 1,
      updated: 0,
      skipped: 3,
      skippedEvents: [
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
    });
    // The daily one is read, a day at a time, whatever the range.
    const ticks = await eventsBetween(app, headers, '2026-03-11', '2026-05-11');
    assert.equal(ticks.length, 61);
    assert.ok(Date.now() - started < 10_000);
  });

  test('series made here export once each and import back unchanged, and into another account the same', async () => {
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
    await call('POST', '/api/events', {
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

    const back = await importCalendar(app, owner.headers, exported.body);
    assert.deepEqual(back.json(), { created: 0, updated: 0, skipped: 6, skippedEvents: [] });
    assert.deepEqual(await readAll(owner.headers), before);

    const copy = await signUp(app, { timeZone: 'Europe/Berlin' });
    const copied = await importCalendar(app, copy.headers, exported.body);
    assert.deepEqual(copied.json(), { created: 6, updated: 0, skipped: 0, skippedEvents: [] });
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
    // The copy's own export reads back into it unchanged too.
    const again = await send(app, copy.headers, 'GET', '/api/events/export.ics');
    const copyBack = await importCalendar(app, copy.headers, again.body);
    assert.deepEqual(copyBack.json(), { created: 0, updated: 0, skipped: 6, skippedEvents: [] });
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
    assert.deepEqual(response.json(), {
      created: 1,
      updated: 0,
      skipped: 4,
      skippedEvents: [
        {
          uid: 'count@example.com',
          summary: 'Tick',
          reason: 'A series repeats at most daily: FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY',
        },
        { uid: 'u'.repeat(200), summary: 'Long UID', reason: 'Its UID is too long' },
        { uid: 'far@example.com', summary: 'Far', reason: 'Its dates are outside the years 1900 to 2999' },
        {
          uid: 'backwards@example.com',
          summary: 'Back',
          reason: 'It ends before it starts, or has no length',
        },
      ],
    });
    assert.ok(Date.now() - started < 15_000);
    const mars = (await eventsBetween(app, headers, '2026-03-11', '2026-03-12')).find((event) =>
      event.title.endsWith('Mars'),
    );
    // An unknown zone reads as the user's own: 10:00 in Paris.
    assert.deepEqual(
      { title: mars?.title, start: mars?.start, source: mars?.source },
      { title: 'On Mars', start: '2026-03-11T09:00:00.000Z', source: 'ics' },
    );
  });

  test('unreadable recurrence values skip their event, and so do rules that could never produce an occurrence', async () => {
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
    // A rule that cannot be read skips its event (its occurrences are unknown); an RDATE value that cannot be read
    // costs only that extra occurrence, and the event imports as written.
    assert.deepEqual(unreadable.json(), {
      created: 2,
      updated: 0,
      skipped: 2,
      skippedEvents: [
        {
          uid: 'until@example.com',
          summary: '(No title)',
          reason:
            'UNTIL must be a real date (YYYYMMDD) or UTC date-time (YYYYMMDDTHHMMSSZ) from 1900-01-01 to 2999-12-31',
        },
        { uid: 'empty@example.com', summary: '(No title)', reason: 'Its RRULE is empty' },
      ],
    });
    assert.deepEqual(
      (await eventsBetween(app, headers, '2026-03-11', '2026-03-12')).map((event) => event.title).sort(),
      ['Extra day unreadable', 'Fine'],
    );

    // Each of these held a parse worker until its time limit (ical.js never returns from them); now they are read,
    // refused by the rule checks before ical.js expands them, and skipped with the others.
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
      { created: 1, updated: 0, skipped: neverEnding.length },
    );
    assert.deepEqual(
      answer.skippedEvents.map((event: { uid: string }) => event.uid),
      neverEnding.map((_, index) => `endless-${index}@example.com`),
    );
    for (const event of answer.skippedEvents) {
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
      Array.from({ length: 5 }, () => ({ created: 1, updated: 0, skipped: 0, skippedEvents: [] })),
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
    assert.deepEqual(response.json(), {
      created: 5000,
      updated: 0,
      skipped: 200,
      skippedEvents: Array.from({ length: 20 }, (_, index) => ({
        uid: `many-${5000 + index}@example.com`,
        summary: '(No title)',
        reason: 'The file holds more than 5000 events: the rest are not imported',
      })),
    });
    assert.ok(Date.now() - started < 20_000, `took ${Date.now() - started} ms`);
  });
});
