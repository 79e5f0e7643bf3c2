// Reminders (services/reminders.ts) on the injected clock: what each kind computes, and how the scan's rows are
// claimed, checked again and settled. Sending itself is covered with a push service in reminders-push.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { newId } from '../../src/lib/ids.js';
import {
  REMINDER_GRACE_MS,
  REMINDER_LEASE_MS,
  REMINDER_RETENTION_MS,
  deliverReminder,
  remindersOf,
  scanReminders,
} from '../../src/services/reminders.js';
import { notificationSettingsOf } from '../../src/services/push.js';
import type { NotificationSettings } from '../../src/schemas/notifications.js';
import { TIMER_LIMIT_MS } from '../../src/services/time-entries.js';
import { buildTestApp, send, signUp, type SignedInUser } from '../helpers.js';

const MINUTE = 60_000;
// 15:00 UTC, 16:00 in Berlin, on a Wednesday in winter time.
const NOW = Date.parse('2026-03-11T15:00:00.000Z');
const BERLIN = 'Europe/Berlin';

interface Item {
  _id: string;
}

async function person(options: { timeZone?: string; now?: number } = {}) {
  const built = await buildTestApp({ now: options.now ?? NOW });
  const signedIn = await signUp(built.app, { timeZone: options.timeZone ?? BERLIN });
  return { ...built, signedIn, person: { id: signedIn.user.id, timeZone: signedIn.user.timeZone } };
}

async function ok(
  app: FastifyInstance,
  user: SignedInUser,
  method: 'POST' | 'PATCH' | 'DELETE',
  url: string,
  body?: object,
) {
  const response = await send(app, user.headers, method, url, body as Record<string, unknown>);
  assert.ok(response.statusCode < 300, `${method} ${url}: ${response.statusCode} ${response.body}`);
  return (response.body ? response.json() : undefined) as Item;
}

const at = (iso: string) => Date.parse(iso);
const iso = (instant: number) => new Date(instant).toISOString();

/** Through the settings route, as the account page changes them. */
async function saveSettings(
  app: FastifyInstance,
  user: SignedInUser,
  settings: Partial<NotificationSettings>,
) {
  const response = await send(app, user.headers, 'PATCH', '/api/users/me/notifications', settings);
  assert.equal(response.statusCode, 200, response.body);
}

/** A browser subscribed for the person, on an endpoint nothing answers (these tests never send). */
async function subscribe(app: FastifyInstance, userId: string) {
  const id = newId();
  await app.db
    .insertInto('pushSubscriptions')
    .values({
      id,
      userId,
      endpoint: `https://push.invalid/${id}`,
      p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
      auth: 'tBHItJI5svbpez7KI4CCXg',
      device: 'Test browser',
      expirationTime: null,
      createdAt: NOW,
      updatedAt: NOW,
    })
    .execute();
  return id;
}

const between = async (
  app: FastifyInstance,
  who: { id: string; timeZone: string },
  from: number,
  to: number,
) => remindersOf(app, who, await notificationSettingsOf(app, who.id), from, to);

describe('what each kind of reminder computes', () => {
  test('an event is reminded N minutes before its start, with its page and a stable tag', async () => {
    const { app, signedIn, person: who } = await person();
    const event = await ok(app, signedIn, 'POST', '/api/events', {
      title: 'Design review',
      start: '2026-03-11T15:30:00Z',
      end: '2026-03-11T16:30:00Z',
    });
    const found = await between(app, who, NOW, NOW + 60 * MINUTE);
    assert.equal(found.length, 1);
    const [reminder] = found;
    assert.equal(reminder.kind, 'event-reminder');
    assert.equal(iso(reminder.dueAt), '2026-03-11T15:20:00.000Z');
    assert.equal(reminder.staleAt, at('2026-03-11T15:30:00Z'));
    assert.deepEqual(reminder.payload, {
      kind: 'event-reminder',
      title: 'Design review',
      body: 'Starts at 16:30',
      url: '/app/calendar?date=2026-03-11',
      tag: `event-reminder:${event._id}:${at('2026-03-11T15:30:00Z')}`,
    });
    assert.equal(reminder.key, `${reminder.payload.tag}@${reminder.dueAt}`);

    // Off: no event reminders; another lead moves the due time (and so the key), not the tag.
    await saveSettings(app, signedIn, { eventReminderMinutes: null });
    assert.deepEqual(await between(app, who, NOW, NOW + 60 * MINUTE), []);
    await saveSettings(app, signedIn, { eventReminderMinutes: 25 });
    const [early] = await between(app, who, NOW, NOW + 60 * MINUTE);
    assert.equal(iso(early.dueAt), '2026-03-11T15:05:00.000Z');
    assert.equal(early.payload.tag, reminder.payload.tag);
    assert.notEqual(early.key, reminder.key);
  });

  test('an all-day event is not reminded; an event of a calendar that does not count is not either', async () => {
    const { app, signedIn, person: who } = await person();
    await ok(app, signedIn, 'POST', '/api/events', {
      title: 'Holiday',
      start: '2026-03-12',
      end: '2026-03-13',
      allDay: true,
    });
    const calendarId = newId();
    await app.db
      .insertInto('calendars')
      .values({
        id: calendarId,
        userId: who.id,
        kind: 'subscription',
        name: 'Team',
        color: '#336699',
        countsInBudget: 0,
        url: 'https://calendar.example/team.ics',
        etag: null,
        lastModified: null,
        lastRefreshedAt: NOW,
        lastError: null,
        nextRefreshAt: NOW + 60 * MINUTE,
        feedNonce: null,
        feedTokenHash: null,
        createdAt: NOW,
        updatedAt: NOW,
      })
      .execute();
    await app.db
      .insertInto('events')
      .values({
        id: newId(),
        userId: who.id,
        title: 'Team sync',
        startAt: at('2026-03-11T15:40:00Z'),
        endAt: at('2026-03-11T16:00:00Z'),
        allDay: 0,
        source: 'ics',
        icsKey: 'team-sync@example',
        calendarId,
        createdAt: NOW,
        updatedAt: NOW,
      })
      .execute();
    assert.deepEqual(await between(app, who, NOW - 24 * 60 * MINUTE, NOW + 24 * 60 * MINUTE), []);
    // Counted in the budget, its events are reminded like the person's own.
    await app.db.updateTable('calendars').set({ countsInBudget: 1 }).where('id', '=', calendarId).execute();
    const found = await between(app, who, NOW, NOW + 60 * MINUTE);
    assert.deepEqual(
      found.map((reminder) => [reminder.payload.title, iso(reminder.dueAt)]),
      [['Team sync', '2026-03-11T15:30:00.000Z']],
    );
  });

  test("a series' occurrences are reminded, an edited one at its new time", async () => {
    const { app, signedIn, person: who } = await person();
    const series = await ok(app, signedIn, 'POST', '/api/events', {
      title: 'Standup',
      start: '2026-03-02T16:30:00',
      end: '2026-03-02T16:45:00',
      rrule: 'FREQ=DAILY',
    });
    const today = await between(app, who, NOW, NOW + 60 * MINUTE);
    assert.deepEqual(
      today.map((reminder) => iso(reminder.dueAt)),
      ['2026-03-11T15:20:00.000Z'],
    );
    // Tomorrow's occurrence moved to 17:30 local: its reminder follows.
    const tomorrow = at('2026-03-12T15:30:00Z');
    const occurrenceId = `${series._id}_20260312T153000Z`;
    await ok(app, signedIn, 'PATCH', `/api/events/${occurrenceId}?scope=this`, {
      start: '2026-03-12T17:30:00',
      end: '2026-03-12T17:45:00',
    });
    const moved = await between(app, who, tomorrow - 30 * MINUTE, tomorrow + 90 * MINUTE);
    assert.deepEqual(
      moved.map((reminder) => iso(reminder.dueAt)),
      ['2026-03-12T16:20:00.000Z'],
    );
  });

  test('a scheduled task is reminded at its start; not once done, put aside or deleted', async () => {
    const { app, signedIn, person: who } = await person();
    const task = await ok(app, signedIn, 'POST', '/api/tasks', {
      title: 'Write the report',
      date: '2026-03-11',
      startHHMM: '16:30',
      endHHMM: '17:30',
    });
    const [reminder] = await between(app, who, NOW, NOW + 60 * MINUTE);
    assert.equal(reminder.kind, 'task-start');
    assert.equal(iso(reminder.dueAt), '2026-03-11T15:30:00.000Z');
    assert.deepEqual(reminder.payload, {
      kind: 'task-start',
      title: 'Write the report',
      body: 'Starts now: 16:30–17:30',
      url: '/app/today',
      tag: `task-start:${task._id}:${reminder.dueAt}`,
    });
    await saveSettings(app, signedIn, { taskStart: false });
    assert.deepEqual(await between(app, who, NOW, NOW + 60 * MINUTE), []);
    await saveSettings(app, signedIn, { taskStart: true });
    await ok(app, signedIn, 'PATCH', `/api/tasks/${task._id}`, { done: true });
    assert.deepEqual(await between(app, who, NOW, NOW + 60 * MINUTE), []);
    await ok(app, signedIn, 'PATCH', `/api/tasks/${task._id}`, { done: false });
    assert.equal((await between(app, who, NOW, NOW + 60 * MINUTE)).length, 1);
    await ok(app, signedIn, 'DELETE', `/api/tasks/${task._id}`);
    assert.deepEqual(await between(app, who, NOW, NOW + 60 * MINUTE), []);
  });

  test('a running timer is reminded past its block end and at its 12-hour stop; a stopped one is not', async () => {
    const { app, signedIn, person: who, clock } = await person();
    // The block 15:30-16:30 local (14:30-15:30 UTC) started before now; its timer starts now.
    const task = await ok(app, signedIn, 'POST', '/api/tasks', {
      title: 'Deep work',
      date: '2026-03-11',
      startHHMM: '15:30',
      endHHMM: '16:30',
    });
    // Started mid-second: its stop is reminded from the start's second, as the entry is stored once stopped.
    clock.now = NOW + 456;
    await ok(app, signedIn, 'POST', `/api/tasks/${task._id}/timer/start`);
    const found = await between(app, who, NOW, NOW + TIMER_LIMIT_MS + MINUTE);
    assert.deepEqual(
      found.map((reminder) => [reminder.kind, iso(reminder.dueAt), reminder.payload.url]),
      [
        ['timer-past-block', '2026-03-11T15:30:00.000Z', '/app/today'],
        ['timer-stop', iso(NOW + TIMER_LIMIT_MS), '/app/today'],
      ],
    );
    assert.equal(found[0].payload.body, 'The timer is still running: the block ended at 16:30.');
    assert.match(found[1].payload.body, /stopped itself after 12 hours/);

    // A request after the 12 hours settles the stop: the stop's reminder still stands, the block's is past.
    // (Signed in again: the first session ended after 30 idle minutes.)
    clock.now = NOW + TIMER_LIMIT_MS + 5 * MINUTE;
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: signedIn.user.username, password: signedIn.password },
    });
    assert.equal(login.statusCode, 200, login.body);
    const again = {
      ...signedIn,
      headers: { authorization: `Bearer ${login.json<{ token: string }>().token}` },
    };
    const read = await send(app, again.headers, 'GET', '/api/tasks?date=2026-03-11');
    assert.equal(read.statusCode, 200, read.body);
    const stored = await app.db.selectFrom('timeEntries').select(['startAt', 'endAt']).execute();
    assert.deepEqual(stored, [{ startAt: NOW, endAt: NOW + TIMER_LIMIT_MS }]);
    const settled = await between(app, who, NOW + TIMER_LIMIT_MS, NOW + TIMER_LIMIT_MS + 1);
    assert.deepEqual(
      settled.map((reminder) => reminder.key),
      [found[1].key],
    );

    await saveSettings(app, again, { timerAlerts: false });
    assert.deepEqual(await between(app, who, NOW, NOW + TIMER_LIMIT_MS + MINUTE), []);
  });

  test('a timer stopped by hand is not reminded', async () => {
    const { app, signedIn, person: who, clock } = await person();
    const task = await ok(app, signedIn, 'POST', '/api/tasks', {
      title: 'Email',
      date: '2026-03-11',
      startHHMM: '15:00',
      endHHMM: '16:30',
    });
    await ok(app, signedIn, 'POST', `/api/tasks/${task._id}/timer/start`);
    clock.now = NOW + 10 * MINUTE;
    await ok(app, signedIn, 'POST', `/api/tasks/${task._id}/timer/stop`);
    assert.deepEqual(await between(app, who, NOW, NOW + TIMER_LIMIT_MS + MINUTE), []);
  });

  test('the plan-day nudge comes at the chosen local time, across summer time', async () => {
    const { app, signedIn, person: who } = await person({ timeZone: 'America/New_York' });
    await saveSettings(app, signedIn, { planDayAt: '08:00' });
    const days = await between(app, who, at('2026-03-06T00:00:00Z'), at('2026-03-10T00:00:00Z'));
    // EST (UTC-5) until Sunday 8 March, then EDT (UTC-4).
    assert.deepEqual(
      days.map((reminder) => [reminder.payload.tag, iso(reminder.dueAt)]),
      [
        ['plan-day:2026-03-06', '2026-03-06T13:00:00.000Z'],
        ['plan-day:2026-03-07', '2026-03-07T13:00:00.000Z'],
        ['plan-day:2026-03-08', '2026-03-08T12:00:00.000Z'],
        ['plan-day:2026-03-09', '2026-03-09T12:00:00.000Z'],
      ],
    );
    assert.deepEqual(days[0].payload.url, '/app/today');
    // 02:30 does not exist on 8 March there: the nudge comes at 03:30 EDT, once.
    await saveSettings(app, signedIn, { planDayAt: '02:30' });
    const skipped = await between(app, who, at('2026-03-08T00:00:00Z'), at('2026-03-09T00:00:00Z'));
    assert.deepEqual(
      skipped.map((reminder) => iso(reminder.dueAt)),
      ['2026-03-08T07:30:00.000Z'],
    );
    // 01:30 happens twice on 1 November: once, at the first.
    await saveSettings(app, signedIn, { planDayAt: '01:30' });
    const repeated = await between(app, who, at('2026-11-01T00:00:00Z'), at('2026-11-02T00:00:00Z'));
    assert.deepEqual(
      repeated.map((reminder) => iso(reminder.dueAt)),
      ['2026-11-01T05:30:00.000Z'],
    );
    await saveSettings(app, signedIn, { planDayAt: null });
    assert.deepEqual(await between(app, who, at('2026-03-06T00:00:00Z'), at('2026-03-10T00:00:00Z')), []);
  });
});

describe('delivery rows', () => {
  const rowsOf = (app: FastifyInstance) =>
    app.db.selectFrom('reminderDeliveries').selectAll().orderBy('dueAt').orderBy('subscriptionId').execute();

  test('the scan inserts one row per reminder and browser, however often it runs', async () => {
    const { app, signedIn, person: who } = await person();
    // Nobody subscribed: nothing is planned.
    await ok(app, signedIn, 'POST', '/api/events', {
      title: 'Call',
      start: '2026-03-11T15:20:00Z',
      end: '2026-03-11T15:40:00Z',
    });
    assert.equal((await scanReminders(app)).planned, 0);
    const phone = await subscribe(app, who.id);
    const laptop = await subscribe(app, who.id);
    await scanReminders(app);
    await scanReminders(app);
    const rows = await rowsOf(app);
    assert.deepEqual(
      rows.map((row) => [row.kind, iso(row.dueAt), row.state, row.subscriptionId]).sort(),
      [
        ['event-reminder', '2026-03-11T15:10:00.000Z', 'due', phone],
        ['event-reminder', '2026-03-11T15:10:00.000Z', 'due', laptop],
      ].sort(),
    );
    // Not due yet: not sent to delivery, and a delivery run now claims nothing.
    assert.equal((await scanReminders(app)).dispatched, 0);
    assert.equal(await deliverReminder(app, rows[0].id), 'not-claimed');
  });

  test("a deleted event's reminder is cancelled, a moved event's too while its new time gets a row", async () => {
    const { app, signedIn, person: who, clock } = await person();
    await subscribe(app, who.id);
    const kept = await ok(app, signedIn, 'POST', '/api/events', {
      title: 'Moved',
      start: '2026-03-11T15:20:00Z',
      end: '2026-03-11T15:40:00Z',
    });
    const deleted = await ok(app, signedIn, 'POST', '/api/events', {
      title: 'Deleted',
      start: '2026-03-11T15:21:00Z',
      end: '2026-03-11T15:40:00Z',
    });
    await scanReminders(app);
    await ok(app, signedIn, 'DELETE', `/api/events/${deleted._id}`);
    await ok(app, signedIn, 'PATCH', `/api/events/${kept._id}`, {
      start: '2026-03-11T15:50:00Z',
      end: '2026-03-11T16:10:00Z',
    });
    clock.now = at('2026-03-11T15:11:00Z');
    const { dispatched } = await scanReminders(app);
    assert.equal(dispatched, 2);
    const before = await rowsOf(app);
    const outcomes = await Promise.all(
      before.filter((row) => row.dueAt <= clock.now).map((row) => deliverReminder(app, row.id)),
    );
    assert.deepEqual(outcomes, ['cancelled', 'cancelled']);
    // The new time is planned once it comes within the scan's look ahead.
    clock.now = at('2026-03-11T15:30:00Z');
    await scanReminders(app);
    const after = await rowsOf(app);
    assert.deepEqual(
      after.map((row) => [iso(row.dueAt), row.state]),
      [
        ['2026-03-11T15:10:00.000Z', 'cancelled'],
        ['2026-03-11T15:11:00.000Z', 'cancelled'],
        ['2026-03-11T15:40:00.000Z', 'due'],
      ],
    );
  });

  test("one person's reminders that cannot be computed hold up nobody else's", async () => {
    const { app, signedIn, person: who, clock } = await person();
    await subscribe(app, who.id);
    await ok(app, signedIn, 'POST', '/api/events', {
      title: 'Still reminded',
      start: '2026-03-11T15:20:00Z',
      end: '2026-03-11T15:40:00Z',
    });
    // Another person whose stored zone no longer exists, with a plan-day time: computing theirs throws.
    const broken = await signUp(app, { timeZone: BERLIN });
    await saveSettings(app, broken, { planDayAt: '16:05' });
    await subscribe(app, broken.user.id);
    await app.db
      .updateTable('users')
      .set({ timeZone: 'Mars/Olympus_Mons' })
      .where('id', '=', broken.user.id)
      .execute();
    clock.now = at('2026-03-11T15:10:00Z');
    const scanned = await scanReminders(app);
    assert.equal(scanned.people, 2);
    assert.equal(scanned.dispatched, 1);
    assert.deepEqual(
      (await rowsOf(app)).map((row) => [row.userId, row.kind]),
      [[who.id, 'event-reminder']],
    );
  });

  test('a reminder missed by more than the grace window is dropped, not sent', async () => {
    const { app, signedIn, person: who, clock } = await person();
    await subscribe(app, who.id);
    await ok(app, signedIn, 'POST', '/api/events', {
      title: 'Missed',
      start: '2026-03-11T15:20:00Z',
      end: '2026-03-11T15:40:00Z',
    });
    await scanReminders(app);
    // The instances were down from before it fell due until after the grace window.
    clock.now = at('2026-03-11T15:10:00Z') + REMINDER_GRACE_MS + 1;
    const [row] = await rowsOf(app);
    assert.equal(await deliverReminder(app, row.id), 'dropped');
    assert.equal((await rowsOf(app))[0].state, 'dropped');
    // Nor does a scan after the downtime plan reminders older than the window again.
    await app.db.deleteFrom('reminderDeliveries').execute();
    assert.equal((await scanReminders(app)).planned, 0);
  });

  test('a live lease keeps the row from a second delivery; an expired one lets it through', async () => {
    const { app, signedIn, person: who, clock } = await person();
    await subscribe(app, who.id);
    const event = await ok(app, signedIn, 'POST', '/api/events', {
      title: 'Leased',
      start: '2026-03-11T15:20:00Z',
      end: '2026-03-11T15:40:00Z',
    });
    await scanReminders(app);
    clock.now = at('2026-03-11T15:10:00Z');
    const [row] = await rowsOf(app);
    // Another instance claimed it and is sending (or died sending).
    await app.db
      .updateTable('reminderDeliveries')
      .set({ leaseUntil: clock.now + REMINDER_LEASE_MS })
      .where('id', '=', row.id)
      .execute();
    assert.equal((await scanReminders(app)).dispatched, 0);
    assert.equal(await deliverReminder(app, row.id), 'not-claimed');
    // Its lease runs out: the next scan sends it to delivery again (here it no longer stands, so it is cancelled).
    clock.now += REMINDER_LEASE_MS;
    assert.equal((await scanReminders(app)).dispatched, 1);
    await ok(app, signedIn, 'DELETE', `/api/events/${event._id}`);
    assert.equal(await deliverReminder(app, row.id), 'cancelled');
    const [settled] = await rowsOf(app);
    assert.equal(settled.attempts, 1);
    assert.equal(settled.leaseUntil, null);
  });

  test('rows a day past due are swept; an unsubscribed browser and a removed account take theirs along', async () => {
    const { app, signedIn, person: who, clock } = await person();
    const phone = await subscribe(app, who.id);
    await subscribe(app, who.id);
    await ok(app, signedIn, 'POST', '/api/events', {
      title: 'Old',
      start: '2026-03-11T15:20:00Z',
      end: '2026-03-11T15:40:00Z',
    });
    await scanReminders(app);
    assert.equal((await rowsOf(app)).length, 2);
    await app.db.deleteFrom('pushSubscriptions').where('id', '=', phone).execute();
    assert.equal((await rowsOf(app)).length, 1);
    clock.now = at('2026-03-11T15:10:00Z') + REMINDER_RETENTION_MS + 1;
    await scanReminders(app);
    assert.deepEqual(await rowsOf(app), []);

    clock.now = NOW;
    await scanReminders(app);
    assert.equal((await rowsOf(app)).length, 1);
    const removed = await send(app, signedIn.headers, 'DELETE', '/api/users/me', {
      password: signedIn.password,
    });
    assert.ok(removed.statusCode < 300, removed.body);
    assert.deepEqual(await rowsOf(app), []);
  });
});
