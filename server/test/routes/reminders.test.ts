// Reminders end to end on one instance: the job engine's own ticks (in-process on SQLite, pg-boss on PostgreSQL) scan,
// and deliver to a fake push service (test/support/push-service.ts), which decrypts what arrives. The last test is
// where exactly-once ends (docs/product.md, "Reminders"): a push the service accepted but whose row was not marked
// sent is sent again after its lease, as the same notification.
import assert from 'node:assert/strict';
import { setTimeout as pause } from 'node:timers/promises';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { newId } from '../../src/lib/ids.js';
import { TIMER_LIMIT_MS } from '../../src/services/time-entries.js';
import { REMINDER_GRACE_MS, REMINDER_LEASE_MS, topicOf } from '../../src/services/reminders.js';
import { buildTestApp, injectFailure, send, signUp, type SignedInUser } from '../helpers.js';
import {
  browserSubscription,
  decryptPush,
  startPushService,
  type BrowserSubscription,
  type FakePushService,
} from '../support/push-service.js';

const NOW = Date.parse('2026-03-11T15:00:00.000Z');
const MINUTE = 60_000;

async function reminderApp() {
  const built = await buildTestApp({
    now: NOW,
    config: {
      jobs: { enabled: true, tickSeconds: 1 },
      subscriptions: { refreshMinutes: 60, allowPrivateHosts: true, fetchTimeoutMs: 5_000 },
    },
  });
  const signedIn = await signUp(built.app, { timeZone: 'Europe/Berlin' });
  return { ...built, signedIn };
}

async function subscribeBrowser(app: FastifyInstance, userId: string, service: FakePushService) {
  const browser = browserSubscription(service.endpoint());
  const id = newId();
  await app.db
    .insertInto('pushSubscriptions')
    .values({
      id,
      userId,
      endpoint: browser.json.endpoint,
      p256dh: browser.json.keys.p256dh,
      auth: browser.json.keys.auth,
      device: 'Test browser',
      expirationTime: null,
      createdAt: NOW,
      updatedAt: NOW,
    })
    .execute();
  return { id, browser };
}

async function ok(
  app: FastifyInstance,
  user: SignedInUser,
  method: 'POST' | 'DELETE',
  url: string,
  body?: object,
) {
  const response = await send(app, user.headers, method, url, body as Record<string, unknown>);
  assert.ok(response.statusCode < 300, `${method} ${url}: ${response.statusCode} ${response.body}`);
  return (response.body ? response.json() : undefined) as { _id: string };
}

const statesOf = async (app: FastifyInstance) =>
  (await app.db.selectFrom('reminderDeliveries').select(['kind', 'state']).orderBy('dueAt').execute()).map(
    (row) => `${row.kind}:${row.state}`,
  );

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 8_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`still waiting for ${what}`);
    await pause(50);
  }
}

const opened = (push: { body: Buffer }, browser: BrowserSubscription) =>
  JSON.parse(decryptPush(push.body, browser)) as Record<string, string>;

describe('reminders through the job engine and a push service', () => {
  test('an event reminder and a timer alert arrive once each, sealed to the browser, with TTL and topic', async () => {
    const service = await startPushService();
    const { app, signedIn, clock } = await reminderApp();
    const { browser } = await subscribeBrowser(app, signedIn.user.id, service);
    const event = await ok(app, signedIn, 'POST', '/api/events', {
      title: 'Design review',
      start: '2026-03-11T15:20:00Z',
      end: '2026-03-11T16:20:00Z',
    });
    const task = await ok(app, signedIn, 'POST', '/api/tasks', {
      title: 'Deep work',
      date: '2026-03-11',
      startHHMM: '15:00',
      endHHMM: '16:12',
    });
    await ok(app, signedIn, 'POST', `/api/tasks/${task._id}/timer/start`);
    // Planned by the ticks, but nothing is due yet.
    await until(async () => (await statesOf(app)).length === 2, 'the scan to plan both');
    await pause(1_200);
    assert.equal(service.received.length, 0);

    clock.now = Date.parse('2026-03-11T15:10:30Z');
    const [first] = await service.waitFor(1);
    const reminder = opened(first, browser);
    assert.deepEqual(reminder, {
      kind: 'event-reminder',
      title: 'Design review',
      body: 'Starts at 16:20',
      url: '/app/calendar?date=2026-03-11',
      tag: `event-reminder:${event._id}:${Date.parse('2026-03-11T15:20:00Z')}`,
    });
    // Kept by the push service until the event starts; one topic for every copy of it.
    assert.equal(first.headers.ttl, String(9.5 * 60));
    assert.equal(first.headers.topic, topicOf(reminder.tag));
    assert.equal(first.headers.urgency, 'high');

    clock.now = Date.parse('2026-03-11T15:12:10Z');
    const [, second] = await service.waitFor(2);
    const alert = opened(second, browser);
    assert.equal(alert.kind, 'timer-past-block');
    assert.equal(alert.url, '/app/today');
    assert.equal(alert.body, 'The timer is still running: the block ended at 16:12.');
    // Until the 12-hour stop, which the timer started at 15:00 reaches at 03:00.
    assert.equal(Number(second.headers.ttl), (NOW + TIMER_LIMIT_MS - clock.now) / 1000);

    // More ticks send nothing again.
    await pause(2_500);
    await app.jobs.idle();
    assert.equal(service.received.length, 2);
    assert.deepEqual(await statesOf(app), ['event-reminder:sent', 'timer-past-block:sent']);
  });

  test("a deleted event's reminder is never sent; a push service's 5xx is retried, a 410 removes the browser", async () => {
    const service = await startPushService();
    const { app, signedIn, clock } = await reminderApp();
    const phone = await subscribeBrowser(app, signedIn.user.id, service);
    const deleted = await ok(app, signedIn, 'POST', '/api/events', {
      title: 'Cancelled meeting',
      start: '2026-03-11T15:20:00Z',
      end: '2026-03-11T16:00:00Z',
    });
    await ok(app, signedIn, 'POST', '/api/events', {
      title: 'Kept meeting',
      start: '2026-03-11T15:21:00Z',
      end: '2026-03-11T16:00:00Z',
    });
    await until(async () => (await statesOf(app)).length === 2, 'the scan to plan both');
    await ok(app, signedIn, 'DELETE', `/api/events/${deleted._id}`);
    service.answer(503);
    clock.now = Date.parse('2026-03-11T15:11:30Z');
    // The first try meets a 503; the retry (about a tick later) is accepted.
    const pushes = await service.waitFor(2);
    assert.deepEqual(
      pushes.map((push) => opened(push, phone.browser).title),
      ['Kept meeting', 'Kept meeting'],
    );
    await until(
      async () => (await statesOf(app)).join() === 'event-reminder:cancelled,event-reminder:sent',
      'the deleted one cancelled and the kept one sent',
    );

    // The browser is gone at the push service: its subscription goes, with its rows.
    await ok(app, signedIn, 'POST', '/api/events', {
      title: 'Later',
      start: '2026-03-11T15:45:00Z',
      end: '2026-03-11T16:00:00Z',
    });
    service.answer(410);
    clock.now = Date.parse('2026-03-11T15:35:30Z');
    await service.waitFor(3);
    await until(
      async () => (await app.db.selectFrom('pushSubscriptions').select('id').execute()).length === 0,
      'the subscription to be removed',
    );
    assert.equal(service.received.length, 3);
  });

  test('after downtime, reminders past the grace window are not sent in a burst', async () => {
    const service = await startPushService();
    const { app, signedIn, clock } = await reminderApp();
    await subscribeBrowser(app, signedIn.user.id, service);
    await ok(app, signedIn, 'POST', '/api/events', {
      title: 'Long gone',
      start: '2026-03-11T15:12:00Z',
      end: '2026-03-11T15:30:00Z',
    });
    await until(async () => (await statesOf(app)).length === 1, 'the scan to plan it');
    clock.now = Date.parse('2026-03-11T15:02:00Z') + REMINDER_GRACE_MS + MINUTE;
    await until(
      async () => (await statesOf(app)).join() === 'event-reminder:dropped',
      'the row to be dropped',
    );
    assert.equal(service.received.length, 0);
  });

  test('a push accepted but never marked sent is sent again after its lease, with the same Topic and tag', async () => {
    const service = await startPushService();
    const { app, signedIn, clock } = await reminderApp();
    const { browser } = await subscribeBrowser(app, signedIn.user.id, service);
    const event = await ok(app, signedIn, 'POST', '/api/events', {
      title: 'Design review',
      start: '2026-03-11T15:20:00Z',
      end: '2026-03-11T16:00:00Z',
    });
    await until(async () => (await statesOf(app)).length === 1, 'the scan to plan it');
    // The database refuses to mark the row sent: the push is accepted, and then the delivery fails as an instance
    // dying right there would leave it, its row still due under a live lease.
    const allowMarking = await injectFailure(app, {
      table: 'reminder_deliveries',
      on: 'update',
      when: "NEW.state = 'sent'",
    });
    const claimedAt = Date.parse('2026-03-11T15:10:30Z');
    clock.now = claimedAt;
    const [first] = await service.waitFor(1);
    const row = () =>
      app.db
        .selectFrom('reminderDeliveries')
        .select(['state', 'leaseUntil', 'attempts'])
        .executeTakeFirstOrThrow();
    // The job's retries find the row leased and leave it.
    await app.jobs.idle();
    assert.deepEqual(await row(), { state: 'due', leaseUntil: claimedAt + REMINDER_LEASE_MS, attempts: 1 });
    await allowMarking();

    // Until the lease expires nobody sends it again.
    clock.now = claimedAt + REMINDER_LEASE_MS - 1;
    await pause(2_500);
    await app.jobs.idle();
    assert.equal(service.received.length, 1);

    clock.now = claimedAt + REMINDER_LEASE_MS;
    const [, second] = await service.waitFor(2);
    await until(async () => (await row()).state === 'sent', 'the row to be marked sent');
    assert.deepEqual(await row(), { state: 'sent', leaseUntil: null, attempts: 2 });
    // The push service sees it twice (where exactly-once ends), as one notification: the same Topic, so a push
    // service still holding the first replaces it, and the same payload and tag, so the device replaces rather than
    // adds.
    const tag = `event-reminder:${event._id}:${Date.parse('2026-03-11T15:20:00Z')}`;
    assert.equal(opened(first, browser).tag, tag);
    assert.deepEqual(opened(second, browser), opened(first, browser));
    assert.equal(second.headers.topic, first.headers.topic);
    assert.equal(second.headers.topic, topicOf(tag));
    assert.equal(second.path, first.path);
    // Kept by the push service only until the event starts, counted from the second send.
    assert.equal(
      Number(second.headers.ttl),
      (Date.parse('2026-03-11T15:20:00Z') - claimedAt - REMINDER_LEASE_MS) / 1000,
    );
    await pause(1_500);
    await app.jobs.idle();
    assert.equal(service.received.length, 2);
  });
});
