import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { InjectOptions } from 'fastify';
import {
  ENDPOINTS,
  MISSING_ID,
  buildSecurityApp,
  contextFor,
  describeEndpoint,
  injectOptions,
  report,
  seedActor,
  userState,
  type IdKind,
  type Method,
} from './support.js';

// B (the victim) owns one of every kind of record; A (the attacker) has a valid session and the same kinds of her own.
const { app, dataDir } = await buildSecurityApp();
const victim = await seedActor(app, 'victim');
const attacker = await seedActor(app, 'attacker');
const attackerContext = contextFor(app, dataDir, attacker);
const victimBefore = await userState(app, victim.user.id);

const VERBS: Method[] = ['GET', 'POST', 'PATCH', 'DELETE'];
const PATHS: Record<IdKind, string> = {
  task: 'tasks',
  event: 'events',
  category: 'categories',
  session: 'auth/sessions',
  calendar: 'calendars',
  timeEntry: 'time-entries',
  pushDevice: 'push/subscriptions',
  deletedTask: 'tasks',
  deletedEvent: 'events',
  deletedCategory: 'categories',
  deletedCalendar: 'calendars',
  deletedTimeEntry: 'time-entries',
};
const LIVE_KIND: Partial<Record<IdKind, IdKind>> = {
  deletedTask: 'task',
  deletedEvent: 'event',
  deletedCategory: 'category',
  deletedCalendar: 'calendar',
  deletedTimeEntry: 'timeEntry',
};
const victimRecords: Array<{ kind: IdKind; id: string; what: string }> = [
  { kind: 'task', id: victim.ids.task, what: 'task' },
  { kind: 'event', id: victim.ids.event, what: 'manual event' },
  { kind: 'event', id: victim.ids.importedEvent, what: 'imported event' },
  { kind: 'event', id: victim.ids.subscribedEvent, what: 'event of a subscription' },
  { kind: 'category', id: victim.ids.category, what: 'category' },
  { kind: 'session', id: victim.ids.session, what: 'session (another device)' },
  { kind: 'calendar', id: victim.ids.calendar, what: 'subscription' },
  // The own calendar's id is its owner's: known to anyone who has seen the user's id.
  { kind: 'calendar', id: victim.user.id, what: 'own calendar' },
  { kind: 'deletedTask', id: victim.ids.deletedTask, what: 'deleted task (restore)' },
  { kind: 'deletedEvent', id: victim.ids.deletedEvent, what: 'deleted event (restore)' },
  { kind: 'deletedCategory', id: victim.ids.deletedCategory, what: 'deleted category (restore)' },
  { kind: 'deletedCalendar', id: victim.ids.deletedCalendar, what: 'removed subscription (restore)' },
  { kind: 'timeEntry', id: victim.ids.timeEntry, what: 'time entry' },
  { kind: 'deletedTimeEntry', id: victim.ids.deletedTimeEntry, what: 'deleted time entry (restore)' },
];
const secrets = [
  victim.label,
  victim.user.id,
  victim.user.email,
  victim.user.username,
  victim.calendarUrl,
  victim.feed.slice('/api/feed/'.length, -'.ics'.length),
  ...Object.values(victim.ids),
];

const counts = { verbs: 0, reads: 0 };
after(() =>
  report(
    `cross-user: ${victimRecords.length} foreign records x ${VERBS.length + 1} verbs (every route of each) = ${counts.verbs} cases, 404 like a missing id; ${counts.reads} reads without foreign rows; victim's rows unchanged`,
  ),
);

/** A's requests for one record, built from the table's own valid requests for each route of that verb and kind. */
async function requestsFor(kind: IdKind, method: Method | 'PUT', id: string): Promise<InjectOptions[]> {
  // A deleted record takes its live kind's verbs too (GET, PATCH, DELETE on an id in the trash): all must say 404.
  const own = ENDPOINTS.filter((row) => row.method === method && row.idKind === kind);
  const endpoints =
    own.length > 0
      ? own
      : ENDPOINTS.filter(
          (row) => row.method === method && row.idKind !== undefined && row.idKind === LIVE_KIND[kind],
        );
  if (endpoints.length > 0) {
    return Promise.all(
      endpoints.map(async (endpoint) =>
        injectOptions(endpoint, attackerContext, await endpoint.valid(attackerContext), { id }),
      ),
    );
  }
  // Verbs the route does not offer must not tell a foreign id from a missing one either.
  return [
    {
      method,
      url: `/api/${PATHS[kind]}/${id}`,
      headers: attacker.headers,
      ...(method === 'GET' ? {} : { payload: { title: 'Taken over', name: 'Taken over' } }),
    },
  ];
}

describe("user A and user B's records", () => {
  test('the table has a row for every verb the records take, so these requests are real edits', () => {
    const idRoutes = ENDPOINTS.filter((row) => row.idKind).map(describeEndpoint);
    assert.equal(idRoutes.length, 21, idRoutes.join(', '));
  });

  test("every verb on every one of B's records answers A exactly like a missing id", async () => {
    for (const record of victimRecords) {
      for (const method of [...VERBS, 'PUT'] as const) {
        const foreignRequests = await requestsFor(record.kind, method, record.id);
        const missingRequests = await requestsFor(record.kind, method, MISSING_ID);
        for (const [index, request] of foreignRequests.entries()) {
          const foreign = await app.inject(request);
          const missing = await app.inject(missingRequests[index]!);
          counts.verbs += 1;
          const name = `${method} ${String(request.url)} on B's ${record.what}`;
          assert.equal(foreign.statusCode, 404, `${name}: ${foreign.body}`);
          assert.equal(missing.statusCode, 404, `${name} (missing id): ${missing.body}`);
          assert.deepEqual(foreign.json(), missing.json(), name);
          assert.equal(foreign.headers['content-type'], missing.headers['content-type'], name);
        }
      }
    }
    assert.deepEqual(await userState(app, victim.user.id), victimBefore);
  });

  test("no list, day, range, analytics, export, ICS export or feed shows A any of B's rows", async () => {
    // A's private feed is read without a session, by its address: it must hold A's plan alone as well.
    const reads = ENDPOINTS.filter(
      (row) => (row.protected || row.url === '/api/feed/:file') && row.method === 'GET' && !row.idKind,
    );
    assert.ok(reads.length >= 10, `${reads.length} reads`);
    for (const endpoint of reads) {
      const response = await app.inject(
        injectOptions(endpoint, attackerContext, await endpoint.valid(attackerContext)),
      );
      counts.reads += 1;
      assert.equal(response.statusCode, 200, `${describeEndpoint(endpoint)}: ${response.body}`);
      for (const secret of secrets) {
        assert.equal(response.body.includes(secret), false, `${describeEndpoint(endpoint)} shows ${secret}`);
      }
    }
    // B's task and events fall in the same day and week as A's: the figures must be A's alone.
    const week = await app.inject({
      method: 'GET',
      url: '/api/aggregation/analytics/weekly?date=2026-03-11',
      headers: attacker.headers,
    });
    const victimWeek = await app.inject({
      method: 'GET',
      url: '/api/aggregation/analytics/weekly?date=2026-03-11',
      headers: victim.headers,
    });
    // Each has a 2 h task, a 1 h event and a 30 min imported event that day; with B's rows A would see twice that.
    assert.equal(victimWeek.json().totalMinutes, 120 + 60 + 30);
    assert.equal(week.json().totalMinutes, 120 + 60 + 30, week.body);
    const exported = (
      await app.inject({ method: 'GET', url: '/api/users/me/export', headers: attacker.headers })
    ).json();
    assert.equal(exported.user.id, attacker.user.id);
    assert.equal(exported.analyticsSnapshots.length, 1);
  });

  test("a task can never be created with or edited to point at B's category", async () => {
    const attackerBefore = await userState(app, attacker.user.id);
    const created = await app.inject({
      method: 'POST',
      url: '/api/tasks',
      headers: attacker.headers,
      payload: { title: 'x', categoryId: victim.ids.category, startHHMM: '09:00', endHHMM: '10:00' },
    });
    assert.equal(created.statusCode, 400, created.body);
    assert.equal(created.json().errors[0].field, 'categoryId');
    const edited = await app.inject({
      method: 'PATCH',
      url: `/api/tasks/${attacker.ids.task}`,
      headers: attacker.headers,
      payload: { categoryId: victim.ids.category },
    });
    assert.equal(edited.statusCode, 400, edited.body);
    assert.equal(edited.json().errors[0].field, 'categoryId');
    assert.deepEqual(await userState(app, attacker.user.id), attackerBefore);
    assert.deepEqual(await userState(app, victim.user.id), victimBefore);
  });

  test("A's own records take those same requests (the 404s above are about ownership)", async () => {
    for (const method of ['PATCH', 'POST'] as const) {
      for (const request of await requestsFor('task', method, attacker.ids.task)) {
        const mine = await app.inject(request);
        assert.equal(mine.statusCode, 200, `${String(request.url)}: ${mine.body}`);
      }
    }
    for (const method of ['PATCH', 'POST'] as const) {
      for (const request of await requestsFor('calendar', method, attacker.ids.calendar)) {
        const mine = await app.inject(request);
        assert.equal(mine.statusCode, 200, `${String(request.url)}: ${mine.body}`);
      }
    }
    const [copy] = await requestsFor('event', 'POST', attacker.ids.subscribedEvent);
    const copied = await app.inject(copy!);
    assert.equal(copied.statusCode, 201, copied.body);
    const [deleteCategory] = await requestsFor('category', 'DELETE', attacker.ids.category);
    const category = await app.inject(deleteCategory!);
    assert.equal(category.statusCode, 204, category.body);
  });
});
