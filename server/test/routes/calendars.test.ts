import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, isPostgresRun, send, signUp, type SignedInUser } from '../helpers.js';

/**
 * A calendar server on 127.0.0.1 that the test controls: what it serves, how (a failure, a slow or huge answer), and
 * how many requests reached it. It answers 304 to a request whose If-None-Match is the body's ETag.
 */
async function calendarServer() {
  const state = {
    body: '',
    mode: 'ok' as 'ok' | 'error' | 'slow' | 'garbage' | 'huge',
    hits: 0,
    conditional: 0,
  };
  const server = http.createServer((request, response) => {
    state.hits += 1;
    if (state.mode === 'error') return void response.writeHead(500).end('down');
    if (state.mode === 'slow') return void setTimeout(() => response.end(state.body), 3_000).unref();
    if (state.mode === 'garbage') return void response.writeHead(200).end('<html>Sign in</html>');
    if (state.mode === 'huge') {
      // No Content-Length: the bound must hold while the body streams in.
      response.writeHead(200, { 'content-type': 'text/calendar' });
      return void response.end(Buffer.alloc(11 * 1024 * 1024, 'X'));
    }
    const etag = `"${createHash('sha256').update(state.body).digest('hex').slice(0, 16)}"`;
    if (request.headers['if-none-match'] === etag) {
      state.conditional += 1;
      return void response.writeHead(304).end();
    }
    response.writeHead(200, { 'content-type': 'text/calendar', etag }).end(state.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return { state, url: `http://127.0.0.1:${port}/team.ics` };
}

const vevent = (lines: string[]) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT'];
const calendarText = (...events: string[][]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Test//EN',
    'X-WR-CALNAME:Team',
    ...events.flat(),
    'END:VCALENDAR',
  ].join('\r\n');

const standup = (title = 'Stand-up', extra: string[] = []) =>
  vevent([
    'UID:standup@team',
    'DTSTAMP:20260301T000000Z',
    'DTSTART:20260309T090000Z',
    'DTEND:20260309T093000Z',
    'RRULE:FREQ=DAILY;COUNT=10',
    `SUMMARY:${title}`,
    ...extra,
  ]);
const review = vevent([
  'UID:review@team',
  'DTSTAMP:20260301T000000Z',
  'DTSTART:20260311T130000Z',
  'DTEND:20260311T150000Z',
  'SUMMARY:Review',
]);
const holiday = vevent([
  'UID:holiday@team',
  'DTSTAMP:20260301T000000Z',
  'DTSTART;VALUE=DATE:20260311',
  'SUMMARY:Holiday',
]);

interface EventJson {
  _id: string;
  title: string;
  start: string;
  end: string;
  calendarId: string;
  readOnly: boolean;
}

async function eventsOf(
  app: FastifyInstance,
  headers: Record<string, string>,
  from = '2026-03-09',
  to = '2026-03-20',
) {
  const response = await send(app, headers, 'GET', `/api/events?from=${from}&to=${to}`);
  assert.equal(response.statusCode, 200, response.body);
  return response.json<EventJson[]>();
}

const summary = (events: EventJson[]) => events.map((event) => `${event.start.slice(0, 16)} ${event.title}`);

async function plannedOn(app: FastifyInstance, headers: Record<string, string>, date: string) {
  const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const response = await send(app, headers, 'GET', `/api/ledger?from=${date}&to=${next}`);
  assert.equal(response.statusCode, 200, response.body);
  return response.json<{ days: { plannedMinutes: number }[] }>().days[0]!.plannedMinutes;
}

async function subscribe(app: FastifyInstance, user: SignedInUser, url: string, body: object = {}) {
  return send(app, user.headers, 'POST', '/api/calendars', { url, ...body });
}

describe('calendar subscriptions', () => {
  test('subscribe, refresh to exactly the new state, 304 changes nothing, failures keep the last good events', async () => {
    const { app } = await buildTestApp({
      config: { subscriptions: { refreshMinutes: 60, allowPrivateHosts: true, fetchTimeoutMs: 1_500 } },
    });
    const user = await signUp(app);
    const source = await calendarServer();
    source.state.body = calendarText(standup(), review, holiday);

    const created = await subscribe(app, user, source.url);
    assert.equal(created.statusCode, 201, created.body);
    const calendar = created.json<{
      id: string;
      name: string;
      kind: string;
      eventCount: number;
      countsInBudget: boolean;
    }>();
    assert.deepEqual(
      {
        name: calendar.name,
        kind: calendar.kind,
        eventCount: calendar.eventCount,
        counts: calendar.countsInBudget,
      },
      { name: 'Team', kind: 'subscription', eventCount: 3, counts: true },
    );
    const first = await eventsOf(app, user.headers);
    assert.equal(first.filter((event) => event.title === 'Stand-up').length, 10);
    assert.ok(first.every((event) => event.calendarId === calendar.id && event.readOnly));

    // Unchanged: a conditional request, a 304, nothing written.
    const same = await send(app, user.headers, 'POST', `/api/calendars/${calendar.id}/refresh`);
    assert.deepEqual(same.json(), { created: 0, updated: 0, deleted: 0, unchanged: true });
    assert.equal(source.state.conditional, 1);
    assert.deepEqual(await eventsOf(app, user.headers), first);

    // A new title, a deleted event, a new exception and a new series: the refresh shows exactly that.
    source.state.body = calendarText(
      standup('Daily sync', ['EXDATE:20260312T090000Z']),
      vevent([
        'UID:standup@team',
        'DTSTAMP:20260301T000000Z',
        'RECURRENCE-ID:20260313T090000Z',
        'DTSTART:20260313T100000Z',
        'DTEND:20260313T103000Z',
        'SUMMARY:Daily sync (late)',
      ]),
      vevent([
        'UID:retro@team',
        'DTSTAMP:20260301T000000Z',
        'DTSTART:20260310T160000Z',
        'DTEND:20260310T170000Z',
        'RRULE:FREQ=WEEKLY;COUNT=2',
        'SUMMARY:Retro',
      ]),
      holiday,
    );
    const changed = await send(app, user.headers, 'POST', `/api/calendars/${calendar.id}/refresh`);
    assert.equal(changed.statusCode, 200, changed.body);
    assert.deepEqual(changed.json(), { created: 2, updated: 1, deleted: 1, unchanged: false });
    const now = await eventsOf(app, user.headers);
    assert.deepEqual(summary(now), [
      '2026-03-09T09:00 Daily sync',
      '2026-03-10T09:00 Daily sync',
      '2026-03-10T16:00 Retro',
      '2026-03-11T00:00 Holiday',
      '2026-03-11T09:00 Daily sync',
      '2026-03-13T10:00 Daily sync (late)',
      '2026-03-14T09:00 Daily sync',
      '2026-03-15T09:00 Daily sync',
      '2026-03-16T09:00 Daily sync',
      '2026-03-17T09:00 Daily sync',
      '2026-03-17T16:00 Retro',
      '2026-03-18T09:00 Daily sync',
    ]);

    // A 500, a timeout, a page that is no calendar and an 11 MB body: the last good events stay, lastError says why.
    for (const [mode, reason] of [
      ['error', /answered 500/],
      ['slow', /did not answer within/],
      ['garbage', /does not serve a calendar/],
      ['huge', /larger than 10 MB/],
    ] as const) {
      source.state.mode = mode;
      const failed = await send(app, user.headers, 'POST', `/api/calendars/${calendar.id}/refresh`);
      assert.equal(failed.statusCode, 422, `${mode}: ${failed.body}`);
      assert.match(failed.json<{ message: string }>().message, reason);
      assert.deepEqual(await eventsOf(app, user.headers), now, mode);
      const listed = (await send(app, user.headers, 'GET', '/api/calendars')).json<{
        calendars: { id: string; lastError?: string }[];
      }>();
      assert.match(listed.calendars.find((entry) => entry.id === calendar.id)!.lastError ?? '', reason);
    }
    // A later good fetch clears it.
    source.state.mode = 'ok';
    assert.equal(
      (await send(app, user.headers, 'POST', `/api/calendars/${calendar.id}/refresh`)).statusCode,
      200,
    );
    const listed = (await send(app, user.headers, 'GET', '/api/calendars')).json<{
      calendars: { id: string; kind: string; lastError?: string }[];
    }>();
    assert.deepEqual(
      listed.calendars.map((entry) => [entry.kind, entry.lastError ?? null]),
      [
        ['own', null],
        ['subscription', null],
      ],
    );
  });

  test('subscribed events are read-only, copy into the own calendar, and count in the budget only when switched on', async () => {
    const { app } = await buildTestApp({
      config: { subscriptions: { refreshMinutes: 60, allowPrivateHosts: true, fetchTimeoutMs: 2_000 } },
    });
    const user = await signUp(app);
    const source = await calendarServer();
    source.state.body = calendarText(standup(), review, holiday);
    const calendar = (await subscribe(app, user, source.url)).json<{ id: string }>();
    const events = await eventsOf(app, user.headers, '2026-03-11', '2026-03-12');
    const meeting = events.find((event) => event.title === 'Review')!;
    const occurrence = events.find((event) => event.title === 'Stand-up')!;

    const edit = await send(app, user.headers, 'PATCH', `/api/events/${meeting._id}`, { title: 'Mine' });
    assert.equal(edit.statusCode, 409);
    assert.match(
      edit.json<{ message: string }>().message,
      /"Team", a subscribed calendar.*Copy to my calendar/,
    );
    assert.equal((await send(app, user.headers, 'DELETE', `/api/events/${occurrence._id}`)).statusCode, 409);

    // 11 March: stand-up 30 min + review 120 min, both counted; the all-day holiday costs nothing.
    assert.equal(await plannedOn(app, user.headers, '2026-03-11'), 150);
    const off = await send(app, user.headers, 'PATCH', `/api/calendars/${calendar.id}`, {
      countsInBudget: false,
    });
    assert.equal(off.json<{ countsInBudget: boolean }>().countsInBudget, false);
    assert.equal(await plannedOn(app, user.headers, '2026-03-11'), 0);
    assert.equal((await eventsOf(app, user.headers, '2026-03-11', '2026-03-12')).length, 3, 'still shown');

    // A copy of one occurrence is the person's own event: it counts, and it can be edited.
    const copied = await send(app, user.headers, 'POST', `/api/events/${occurrence._id}/copy`);
    assert.equal(copied.statusCode, 201, copied.body);
    const copy = copied.json<EventJson & { rrule: string }>();
    assert.deepEqual(
      [copy.title, copy.start, copy.readOnly, copy.rrule],
      ['Stand-up', occurrence.start, false, ''],
    );
    assert.equal(await plannedOn(app, user.headers, '2026-03-11'), 30);
    assert.equal(
      (await send(app, user.headers, 'PATCH', `/api/events/${copy._id}`, { title: 'My stand-up' }))
        .statusCode,
      200,
    );
    // The own calendar always counts.
    const own = await send(app, user.headers, 'PATCH', `/api/calendars/${user.user._id}`, {
      countsInBudget: false,
    });
    assert.equal(own.statusCode, 400);

    // Removing the subscription takes its events; Undo brings it back from its source.
    assert.equal((await send(app, user.headers, 'DELETE', `/api/calendars/${calendar.id}`)).statusCode, 204);
    assert.deepEqual(summary(await eventsOf(app, user.headers, '2026-03-11', '2026-03-12')), [
      '2026-03-11T09:00 My stand-up',
    ]);
    const restored = await send(app, user.headers, 'POST', `/api/calendars/${calendar.id}/restore`);
    assert.equal(restored.statusCode, 200, restored.body);
    assert.equal((await eventsOf(app, user.headers, '2026-03-11', '2026-03-12')).length, 4);
  });

  test('refreshes at once, and a removal during a refresh: never a 500, never an event twice or orphaned', async () => {
    const { app } = await buildTestApp({
      config: { subscriptions: { refreshMinutes: 60, allowPrivateHosts: true, fetchTimeoutMs: 5_000 } },
    });
    const user = await signUp(app);
    const source = await calendarServer();
    source.state.body = calendarText(review);
    const calendar = (await subscribe(app, user, source.url)).json<{ id: string }>();
    source.state.body = calendarText(review, holiday, standup());
    const refreshes = await Promise.all(
      [1, 2, 3].map(() => send(app, user.headers, 'POST', `/api/calendars/${calendar.id}/refresh`)),
    );
    assert.ok(
      refreshes.every((response) => [200, 409].includes(response.statusCode)),
      refreshes.map((r) => r.body).join(),
    );
    assert.ok(refreshes.some((response) => response.statusCode === 200));
    assert.equal((await eventsOf(app, user.headers)).length, 12);

    // Removed while its source is being read: the refresh's events do not outlive it.
    source.state.body = calendarText(review, holiday);
    source.state.mode = 'slow';
    const refreshing = send(app, user.headers, 'POST', `/api/calendars/${calendar.id}/refresh`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await send(app, user.headers, 'DELETE', `/api/calendars/${calendar.id}`)).statusCode, 204);
    assert.equal((await refreshing).statusCode, 404);
    assert.deepEqual(await eventsOf(app, user.headers), []);
  });

  test('subscriptions sent at once stop at the limit of 20', async () => {
    const { app, clock } = await buildTestApp({
      config: { subscriptions: { refreshMinutes: 60, allowPrivateHosts: true, fetchTimeoutMs: 5_000 } },
    });
    const user = await signUp(app);
    const source = await calendarServer();
    source.state.body = calendarText(review);
    // Nineteen already, written as the service writes them (fetching nineteen would only slow the test).
    await app.db
      .insertInto('calendars')
      .values(
        Array.from({ length: 19 }, (_, index) => ({
          id: `sub-${index}`,
          userId: user.user._id,
          kind: 'subscription' as const,
          name: `Club ${index}`,
          color: '#0d9488',
          countsInBudget: 1,
          url: `${source.url}?${index}`,
          etag: null,
          lastModified: null,
          lastRefreshedAt: clock.now,
          lastError: null,
          nextRefreshAt: clock.now + 3_600_000,
          feedNonce: null,
          feedTokenHash: null,
          createdAt: clock.now,
          updatedAt: clock.now,
        })),
      )
      .execute();
    const answers = await Promise.all([1, 2, 3, 4].map(() => subscribe(app, user, source.url)));
    const codes = answers.map((answer) => answer.statusCode).sort();
    assert.equal(codes.filter((code) => code === 201).length, 1, codes.join());
    assert.ok(
      codes.every((code) => code === 201 || code === 409 || code === 429),
      codes.join(),
    );
    const listed = (await send(app, user.headers, 'GET', '/api/calendars')).json<{ calendars: unknown[] }>();
    assert.equal(listed.calendars.length, 21, 'the own calendar and 20 subscriptions');
  });

  test('a subscription counts in the event quota: past it, subscribing answers 409 and a refresh 422, keeping the last events', async () => {
    const { app } = await buildTestApp({
      config: {
        subscriptions: { refreshMinutes: 60, allowPrivateHosts: true, fetchTimeoutMs: 5_000 },
        quotas: { events: 2, tasks: 3, categories: 5, timeEntries: 100 },
      },
    });
    const user = await signUp(app);
    const source = await calendarServer();
    const single = (index: number) =>
      vevent([
        `UID:single-${index}@team`,
        'DTSTAMP:20260301T000000Z',
        `DTSTART:2026031${index}T100000Z`,
        `DTEND:2026031${index}T110000Z`,
        `SUMMARY:Single ${index}`,
      ]);
    source.state.body = calendarText(single(1), single(2), single(3));
    const refused = await subscribe(app, user, source.url);
    assert.equal(refused.statusCode, 409, refused.body);
    assert.match(refused.json<{ message: string }>().message, /limit of 2 events/);
    const listed = (await send(app, user.headers, 'GET', '/api/calendars')).json<{ calendars: unknown[] }>();
    assert.equal(listed.calendars.length, 1, 'only the own calendar: nothing of the refused one is kept');
    assert.deepEqual(await eventsOf(app, user.headers), []);
    const rows = await app.db
      .selectFrom('events')
      .select(['id', 'calendarId', 'title'])
      .where('userId', '=', user.user._id)
      .execute();
    assert.deepEqual(rows, [], 'no event row of the refused subscription is left');

    source.state.body = calendarText(single(1));
    const added = await subscribe(app, user, source.url);
    assert.equal(added.statusCode, 201, added.body);
    source.state.body = calendarText(single(1), single(2), single(3));
    const refreshed = await send(
      app,
      user.headers,
      'POST',
      `/api/calendars/${added.json<{ id: string }>().id}/refresh`,
    );
    assert.equal(refreshed.statusCode, 422, refreshed.body);
    assert.match(refreshed.json<{ message: string }>().message, /limit of 2 events/);
    assert.deepEqual(summary(await eventsOf(app, user.headers)), ['2026-03-11T10:00 Single 1']);
    const { calendars } = (await send(app, user.headers, 'GET', '/api/calendars')).json<{
      calendars: { kind: string; lastError?: string; eventCount: number }[];
    }>();
    const subscription = calendars.find((calendar) => calendar.kind === 'subscription');
    assert.match(subscription?.lastError ?? '', /limit of 2 events/);
    assert.equal(subscription?.eventCount, 1);
  });

  test('with private hosts refused, a loopback address is refused before any connection', async () => {
    const { app } = await buildTestApp();
    const user = await signUp(app);
    const source = await calendarServer();
    source.state.body = calendarText(review);
    for (const url of [
      source.url,
      source.url.replace('127.0.0.1', 'localhost'),
      'webcal://127.0.0.1:1/x.ics',
    ]) {
      const refused = await subscribe(app, user, url);
      assert.equal(refused.statusCode, 400, refused.body);
      assert.equal(refused.json<{ errors: { field: string }[] }>().errors[0]!.field, 'url');
    }
    assert.equal(source.state.hits, 0);
    const listed = (await send(app, user.headers, 'GET', '/api/calendars')).json<{ calendars: unknown[] }>();
    assert.equal(listed.calendars.length, 1, 'nothing saved');
    const ftp = await subscribe(app, user, 'ftp://example.com/cal.ics');
    assert.equal(ftp.statusCode, 400);
  });
});

describe('the private feed', () => {
  test('another account subscribes to the feed: the plan read-only at the same instants; 304; 404 after regenerate and revoke', async () => {
    const { app } = await buildTestApp({
      config: { subscriptions: { refreshMinutes: 60, allowPrivateHosts: true, fetchTimeoutMs: 5_000 } },
    });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const owner = await signUp(app, { timeZone: 'Europe/Berlin' });
    const reader = await signUp(app, { timeZone: 'America/New_York' });
    // A weekly series across the change to summer time (29 March in Berlin), with one occurrence moved and one skipped.
    const series = await send(app, owner.headers, 'POST', '/api/events', {
      title: 'Planning',
      start: '2026-03-16T09:00:00',
      end: '2026-03-16T10:00:00',
      rrule: 'FREQ=WEEKLY;COUNT=4',
    });
    assert.equal(series.statusCode, 201, series.body);
    const occurrences = (await eventsOf(app, owner.headers, '2026-03-16', '2026-04-10')).filter(
      (event) => event.title === 'Planning',
    );
    const moved = await send(app, owner.headers, 'PATCH', `/api/events/${occurrences[1]!._id}`, {
      start: '2026-03-23T11:00:00',
      end: '2026-03-23T12:00:00',
    });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.equal(
      (await send(app, owner.headers, 'DELETE', `/api/events/${occurrences[2]!._id}`)).statusCode,
      204,
    );
    await send(app, owner.headers, 'POST', '/api/events', {
      title: 'Dentist',
      start: '2026-03-18T15:00:00',
      end: '2026-03-18T16:00:00',
    });
    const task = await send(app, owner.headers, 'POST', '/api/tasks', {
      title: 'Write report',
      date: '2026-03-17',
      startHHMM: '13:00',
      endHHMM: '14:30',
    });
    assert.equal(task.statusCode, 201, task.body);

    assert.deepEqual((await send(app, owner.headers, 'GET', '/api/calendars/feed')).json(), { url: null });
    const published = await send(app, owner.headers, 'POST', '/api/calendars/feed');
    const { url } = published.json<{ url: string }>();
    assert.match(url, /^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?\/api\/feed\/[\w-]{43}\.ics$/);
    const feedUrl = `${base}${new URL(url).pathname}`;
    assert.deepEqual((await send(app, owner.headers, 'GET', '/api/calendars/feed')).json(), { url });

    const first = await fetch(feedUrl);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('cache-control'), 'private, max-age=300');
    const text = await first.text();
    const again = await fetch(feedUrl, { headers: { 'if-none-match': first.headers.get('etag')! } });
    assert.equal(again.status, 304);

    // Two independent parsers read the same instants.
    const ICAL = (await import('ical.js')).default;
    const component = new ICAL.Component(ICAL.parse(text));
    for (const zone of component.getAllSubcomponents('vtimezone')) {
      ICAL.TimezoneService.register(new ICAL.Timezone(zone));
    }
    const tzids = new Set(text.match(/TZID=[^:;]+/g)?.map((match) => match.slice(5)) ?? []);
    for (const tzid of tzids) assert.match(text, new RegExp(`BEGIN:VTIMEZONE\\r\\nTZID:${tzid}`), tzid);
    const nodeIcal = (await import('node-ical')).default;
    const parsed = nodeIcal.sync.parseICS(text);
    const titles = Object.values(parsed)
      .filter((entry) => entry?.type === 'VEVENT')
      .map((entry) => (entry as { summary: string }).summary)
      .sort();
    assert.deepEqual([...new Set(titles)], ['Dentist', 'Planning', 'Write report']);

    // The reader subscribes to it: the owner's plan, read-only, every occurrence at the same instant.
    const subscribed = await subscribe(app, reader, feedUrl);
    assert.equal(subscribed.statusCode, 201, subscribed.body);
    const instants = (events: EventJson[]) =>
      events.map((event) => `${event.start} ${event.end} ${event.title}`).sort();
    const ownerView = await eventsOf(app, owner.headers, '2026-03-14', '2026-04-14');
    const readerView = await eventsOf(app, reader.headers, '2026-03-14', '2026-04-14');
    assert.ok(readerView.every((event) => event.readOnly));
    assert.deepEqual(
      instants(readerView),
      [...instants(ownerView), '2026-03-17T12:00:00.000Z 2026-03-17T13:30:00.000Z Write report'].sort(),
    );

    // Regenerated: the old address is gone (as any unknown one); revoked: the new one too.
    const regenerated = (await send(app, owner.headers, 'POST', '/api/calendars/feed')).json<{
      url: string;
    }>();
    assert.notEqual(regenerated.url, url);
    const gone = await fetch(feedUrl);
    assert.equal(gone.status, 404);
    assert.deepEqual(await gone.json(), { message: 'Not found' });
    const newUrl = `${base}${new URL(regenerated.url).pathname}`;
    assert.equal((await fetch(newUrl)).status, 200);
    assert.equal((await send(app, owner.headers, 'DELETE', '/api/calendars/feed')).statusCode, 204);
    assert.equal((await fetch(newUrl)).status, 404);
    assert.equal((await fetch(`${base}/api/feed/${'A'.repeat(43)}.ics`)).status, 404);
  });
});

describe('background refresh', () => {
  test('three API instances on one PostgreSQL fetch every due subscription once', async (t) => {
    if (!isPostgresRun) return t.skip('PostgreSQL only: one SQLite file has one instance');
    const jobs = { enabled: true, tickSeconds: 1 };
    const subscriptions = { refreshMinutes: 60, allowPrivateHosts: true, fetchTimeoutMs: 5_000 };
    const first = await buildTestApp({ config: { jobs, subscriptions } });
    const others = await Promise.all(
      [1, 2].map(() =>
        buildTestApp({ config: { jobs, subscriptions, database: first.app.config.database } }),
      ),
    );
    const hits = new Map<string, number>();
    const server = http.createServer((request, response) => {
      hits.set(request.url!, (hits.get(request.url!) ?? 0) + 1);
      response.writeHead(200, { 'content-type': 'text/calendar' }).end(calendarText(review));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.address() as AddressInfo;
    const user = await signUp(first.app);
    const paths = Array.from({ length: 6 }, (_, index) => `/team-${index}.ics`);
    for (const path of paths) {
      const created = await subscribe(first.app, user, `http://127.0.0.1:${port}${path}`);
      assert.equal(created.statusCode, 201, created.body);
    }
    assert.deepEqual(
      paths.map((path) => hits.get(path)),
      paths.map(() => 1),
    );
    // Every subscription falls due at once, on every instance's clock.
    await first.app.db
      .updateTable('calendars')
      .set({ nextRefreshAt: first.clock.now - 1 })
      .execute();
    const deadline = Date.now() + 20_000;
    while (paths.some((path) => hits.get(path) !== 2) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // A few more ticks on each instance: nothing is fetched a second time.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await Promise.all([first, ...others].map(({ app }) => app.jobs.idle()));
    assert.deepEqual(
      paths.map((path) => hits.get(path)),
      paths.map(() => 2),
    );
  });
});
