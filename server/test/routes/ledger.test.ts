import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, signUp, send } from '../helpers.js';

// Wednesday 11 March 2026, 11:00 in New York.
const NOW = Date.parse('2026-03-11T15:00:00Z');
const NEW_YORK = 'America/New_York';
const MINUTE = 60_000;

type Headers = Record<string, string>;

async function ok(
  app: FastifyInstance,
  headers: Headers,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  body?: object,
) {
  const response = await send(app, headers, method, url, body);
  assert.ok(response.statusCode < 300, `${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json();
}

const task = (app: FastifyInstance, headers: Headers, fields: Record<string, unknown>) =>
  ok(app, headers, 'POST', '/api/tasks', { title: 'Task', date: '2026-03-11', ...fields });
async function signIn(app: FastifyInstance, username: string): Promise<Headers> {
  const { token } = await ok(app, {}, 'POST', '/api/auth/login', { username, password: 'Passw0rd!' });
  return { authorization: `Bearer ${token}`, 'x-time-zone': NEW_YORK };
}

const today = (app: FastifyInstance, headers: Headers) => ok(app, headers, 'GET', '/api/tasks/today');

describe('the time ledger through the API', () => {
  test("the issue's test day: overlaps count once, an all-day holiday costs nothing, dismissed counts nowhere", async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app, { timeZone: NEW_YORK });
    await task(app, headers, { startHHMM: '09:00', endHHMM: '11:30' });
    await task(app, headers, { startHHMM: '10:30', endHHMM: '11:30' });
    assert.equal((await today(app, headers)).spentHours, 2.5);

    await ok(app, headers, 'POST', '/api/events', {
      title: 'Holiday',
      start: '2026-03-11T00:00:00-04:00',
      end: '2026-03-12T00:00:00-04:00',
      allDay: true,
    });
    const dismissed = await task(app, headers, { startHHMM: '13:00', endHHMM: '15:00' });
    await ok(app, headers, 'PATCH', `/api/tasks/${dismissed._id}`, { done: true, dismissed: true });

    const wallet = await today(app, headers);
    assert.deepEqual(
      {
        spentHours: wallet.spentHours,
        plannedHours: wallet.plannedHours,
        remainingHours: wallet.remainingHours,
        overHours: wallet.overHours,
      },
      { spentHours: 2.5, plannedHours: 2.5, remainingHours: 12.5, overHours: 0 },
    );
    const week = await ok(app, headers, 'GET', '/api/aggregation/analytics/weekly?date=2026-03-11');
    const wednesday = week.daily.find((day: { date: string }) => day.date === '2026-03-11');
    assert.equal(wednesday.plannedMinutes, 150);
    assert.equal(wednesday.productiveMinutes, 0, 'the dismissed task is not productive though done is true');
    assert.equal(week.streak, 0, 'nor does it make a streak');
    const [ledgerDay] = (await ok(app, headers, 'GET', '/api/ledger?from=2026-03-11&to=2026-03-12')).days;
    assert.equal(ledgerDay.plannedMinutes, 150, 'the ledger, the wallet and analytics say the same');
  });

  test('unscheduled tasks: planned by estimate, listed apart, scheduled by a start, unscheduled by null times', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app, { timeZone: NEW_YORK });
    const read = await task(app, headers, { title: 'Read', estimateMinutes: 45 });
    assert.deepEqual(
      { scheduled: read.scheduled, estimateMinutes: read.estimateMinutes, startHHMM: read.startHHMM },
      { scheduled: false, estimateMinutes: 45, startHHMM: '' },
    );
    await task(app, headers, { title: 'Write', estimateMinutes: 90 });
    await task(app, headers, { title: 'Meet', startHHMM: '09:00', endHHMM: '10:00' });

    const titles = async (query: string) =>
      (await ok(app, headers, 'GET', `/api/tasks?${query}`)).tasks.map(
        (item: { title: string }) => item.title,
      );
    assert.deepEqual(await titles('date=2026-03-11'), ['Meet'], "SPEC's read lists scheduled tasks only");
    assert.deepEqual((await titles('date=2026-03-11&scheduled=false')).sort(), ['Read', 'Write']);
    let wallet = await today(app, headers);
    assert.deepEqual([wallet.plannedHours, wallet.unscheduledHours], [1, 2.3]);

    // Scheduling by a start only: the block lasts the estimate.
    const placed = await ok(app, headers, 'PATCH', `/api/tasks/${read._id}`, {
      date: '2026-03-12',
      startHHMM: '14:00',
    });
    assert.deepEqual(
      [placed.scheduled, placed.date, placed.startHHMM, placed.endHHMM, placed.start],
      [true, '2026-03-12', '14:00', '14:45', '2026-03-12T18:00:00.000Z'],
    );
    // A drop on the grid sends instants; an unscheduled task dropped with a start only also lasts its estimate.
    const write = (await ok(app, headers, 'GET', '/api/tasks?date=2026-03-11&scheduled=false')).tasks[0];
    const dropped = await ok(app, headers, 'PATCH', `/api/tasks/${write._id}`, {
      start: '2026-03-11T16:00:00Z',
    });
    assert.deepEqual([dropped.startHHMM, dropped.endHHMM], ['12:00', '13:30']);
    wallet = await today(app, headers);
    assert.deepEqual([wallet.plannedHours, wallet.unscheduledHours], [2.5, 0]);

    // Back to the list: the block's length becomes the estimate it keeps.
    const resized = await ok(app, headers, 'PATCH', `/api/tasks/${dropped._id}`, { endHHMM: '14:00' });
    assert.equal(resized.endHHMM, '14:00');
    const back = await ok(app, headers, 'PATCH', `/api/tasks/${dropped._id}`, {
      startHHMM: null,
      endHHMM: null,
      estimateMinutes: null,
    });
    assert.deepEqual([back.scheduled, back.estimateMinutes, back.startHHMM], [false, 120, '']);
    const unscheduledAgain = await ok(app, headers, 'PATCH', `/api/tasks/${dropped._id}`, {
      startHHMM: null,
      endHHMM: null,
    });
    assert.equal(unscheduledAgain.estimateMinutes, 120, 'unscheduling an unscheduled task changes nothing');

    const refused = [
      [{ title: 'x' }, 'startHHMM'],
      [{ title: 'x', startHHMM: '09:00' }, 'endHHMM'],
      [{ title: 'x', estimateMinutes: 0 }, 'estimateMinutes'],
    ] as const;
    for (const [body, field] of refused) {
      const response = await send(app, headers, 'POST', '/api/tasks', body);
      assert.equal(response.statusCode, 400, JSON.stringify(body));
      assert.ok(response.json().message.length > 0);
      assert.equal(response.json().errors?.[0]?.field, field, response.body);
    }
    const noEstimate = await send(app, headers, 'PATCH', `/api/tasks/${placed._id}`, {
      startHHMM: null,
      endHHMM: '10:00',
    });
    assert.equal(noEstimate.statusCode, 400);
  });

  test('budgets by weekday, Sunday first: the day of the week picks the budget; null goes back to one budget', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app, { timeZone: NEW_YORK });
    const weekdays = [0, 8, 8, 6, 8, 4, 0];
    const { user } = await ok(app, headers, 'PATCH', '/api/users/me', { budgetHoursByWeekday: weekdays });
    assert.deepEqual(user.budgetHoursByWeekday, weekdays);
    await task(app, headers, { startHHMM: '09:00', endHHMM: '16:30' });
    const wallet = await today(app, headers);
    // Wednesday's budget is 6: 7.5 h planned is 1.5 h over.
    assert.deepEqual([wallet.budgetHours, wallet.remainingHours, wallet.overHours], [6, 0, 1.5]);
    // The change applies from today (Wednesday) on: Sunday to Tuesday keep the budget then in force.
    const { days } = await ok(app, headers, 'GET', '/api/ledger?from=2026-03-08&to=2026-03-15');
    assert.deepEqual(
      days.map((day: { budgetMinutes: number }) => day.budgetMinutes / 60),
      [15, 15, 15, ...weekdays.slice(3)],
    );
    for (const bad of [[8, 8, 8], [8, 8, 8, 8, 8, 8, 24.5], 'weekdays', [null, 8, 8, 8, 8, 8, 8]]) {
      const response = await send(app, headers, 'PATCH', '/api/users/me', { budgetHoursByWeekday: bad });
      assert.equal(response.statusCode, 400, JSON.stringify(bad));
      assert.equal(response.json().errors[0].field, 'budgetHoursByWeekday');
      assert.match(response.json().errors[0].message, /seven numbers of hours from 0 to 24/);
    }
    await ok(app, headers, 'PATCH', '/api/users/me', { budgetHoursByWeekday: null });
    assert.equal((await today(app, headers)).budgetHours, 15);
  });

  test('one timer per user, kept on the server across requests; stop adds its minutes; 12 h stops it', async () => {
    const { app, clock } = await buildTestApp({ now: NOW });
    const signedUp = await signUp(app, { timeZone: NEW_YORK });
    const { user } = signedUp;
    let { headers } = signedUp;
    const first = await task(app, headers, { title: 'First', startHHMM: '09:00', endHHMM: '10:00' });
    const second = await task(app, headers, { title: 'Second', estimateMinutes: 30 });

    const started = await ok(app, headers, 'POST', `/api/tasks/${first._id}/timer/start`);
    assert.equal(started.timerStartedAt, new Date(NOW).toISOString());
    clock.now += 25 * MINUTE;
    // Another request (a reload, another device) sees the running timer, and tracked time counts up to now.
    const listed = (await today(app, headers)).tasks.find((item: { _id: string }) => item._id === first._id);
    assert.equal(listed.timerStartedAt, new Date(NOW).toISOString());
    assert.equal((await today(app, headers)).trackedHours, 0.4);

    // Starting another stops the first, adding its 25 minutes.
    await ok(app, headers, 'POST', `/api/tasks/${second._id}/timer/start`);
    const [firstAfter] = (await ok(app, headers, 'GET', '/api/tasks?date=2026-03-11')).tasks;
    assert.deepEqual([firstAfter.trackedMinutes, firstAfter.timerStartedAt], [25, null]);
    clock.now += 10 * MINUTE;
    const stopped = await ok(app, headers, 'POST', `/api/tasks/${second._id}/timer/stop`);
    assert.deepEqual([stopped.trackedMinutes, stopped.timerStartedAt], [10, null]);
    const stoppedAgain = await ok(app, headers, 'POST', `/api/tasks/${second._id}/timer/stop`);
    assert.equal(stoppedAgain.trackedMinutes, 10, 'stopping a stopped timer changes nothing');
    assert.equal((await today(app, headers)).trackedHours, 0.6);

    // A correction by hand.
    const corrected = await ok(app, headers, 'PATCH', `/api/tasks/${first._id}`, { trackedMinutes: 40 });
    assert.equal(corrected.trackedMinutes, 40);

    // Left running overnight: at 12 h it stops itself, counts 12 h, and says so (to a new sign-in: the first session
    // has ended for inactivity by then).
    await ok(app, headers, 'POST', `/api/tasks/${first._id}/timer/start`);
    clock.now += 15 * 60 * MINUTE;
    headers = await signIn(app, user.username);
    const [autoStopped] = (await ok(app, headers, 'GET', '/api/tasks?date=2026-03-11')).tasks;
    assert.deepEqual(
      [autoStopped.trackedMinutes, autoStopped.timerStartedAt, autoStopped.timerAutoStopped],
      [40 + 720, null, true],
    );
    const restarted = await ok(app, headers, 'POST', `/api/tasks/${first._id}/timer/start`);
    assert.equal(restarted.timerAutoStopped, false);

    // Done stops the timer too.
    clock.now += 5 * MINUTE;
    const done = await ok(app, headers, 'PATCH', `/api/tasks/${first._id}`, { done: true });
    assert.deepEqual([done.trackedMinutes, done.timerStartedAt], [765, null]);

    const week = await ok(app, headers, 'GET', '/api/aggregation/analytics/weekly?date=2026-03-11');
    const wednesday = week.daily.find((day: { date: string }) => day.date === '2026-03-11');
    // Entries stay where they were recorded: the restart after midnight put its 5 minutes on Thursday.
    assert.equal(wednesday.trackedMinutes, 760 + 10);
    assert.equal(week.daily.find((day: { date: string }) => day.date === '2026-03-12').trackedMinutes, 5);
    assert.equal(wednesday.productiveMinutes, 770, 'tracked time is productive time');
  });

  test('the calendar reads: tasks of a range and the ledger per day; event categories count in the shares', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app, { timeZone: NEW_YORK });
    const work = await ok(app, headers, 'POST', '/api/categories', { name: 'Work', color: '#112233' });
    await task(app, headers, { title: 'Scheduled', startHHMM: '09:00', endHHMM: '10:00' });
    await task(app, headers, { title: 'Later', date: '2026-03-13', estimateMinutes: 30 });
    await task(app, headers, { title: 'Next week', date: '2026-03-16', estimateMinutes: 30 });
    const event = await ok(app, headers, 'POST', '/api/events', {
      title: 'Review',
      start: '2026-03-12T13:00:00Z',
      end: '2026-03-12T15:00:00Z',
      categoryId: work._id,
    });
    assert.equal(event.categoryId, work._id);

    const { tasks } = await ok(app, headers, 'GET', '/api/tasks/range?from=2026-03-08&to=2026-03-15');
    assert.deepEqual(
      tasks.map((item: { title: string }) => item.title),
      ['Scheduled', 'Later'],
    );
    const { days } = await ok(app, headers, 'GET', '/api/ledger?from=2026-03-11&to=2026-03-14');
    assert.deepEqual(
      days.map((day: { date: string; plannedMinutes: number; unscheduledMinutes: number }) => [
        day.date,
        day.plannedMinutes,
        day.unscheduledMinutes,
      ]),
      [
        ['2026-03-11', 60, 0],
        ['2026-03-12', 120, 0],
        ['2026-03-13', 0, 30],
      ],
    );
    const week = await ok(app, headers, 'GET', '/api/aggregation/analytics/weekly?date=2026-03-11');
    assert.deepEqual(
      week.byCategory.map((share: { name: string; minutes: number }) => [share.name, share.minutes]),
      [
        ['Work', 120],
        ['No category', 60],
      ],
    );
    const recategorised = await ok(app, headers, 'PATCH', `/api/events/${event._id}`, { categoryId: null });
    assert.equal(recategorised.categoryId, '');
  });

  test("today lists each of its tasks once: its own, another day's block running into it, not one whose block is elsewhere", async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app, { timeZone: NEW_YORK });
    await task(app, headers, { title: 'Night', date: '2026-03-10', startHHMM: '23:00', endHHMM: '01:00' });
    await task(app, headers, { title: 'Morning', startHHMM: '09:00', endHHMM: '10:00' });
    const dropped = await task(app, headers, { title: 'Dropped', startHHMM: '13:00', endHHMM: '14:00' });
    await ok(app, headers, 'PATCH', `/api/tasks/${dropped._id}`, { dismissed: true });
    await task(app, headers, { title: 'Inbox', estimateMinutes: 30 });
    await task(app, headers, { title: 'Tomorrow', date: '2026-03-12', startHHMM: '09:00', endHHMM: '10:00' });
    // Planned for the 11th in Tokyo: 09:00 there is 20:00 on the 10th here. Dated the 11th, its block is on the 10th
    // here, and a scheduled task belongs to the days its block overlaps (DEFINITIONS.membership): not on today's list.
    const tokyo = { ...headers, 'x-time-zone': 'Asia/Tokyo' };
    await task(app, tokyo, { title: 'Tokyo', startHHMM: '09:00', endHHMM: '10:00' });

    const wallet = await today(app, headers);
    assert.deepEqual(
      wallet.tasks.map((item: { title: string; dismissed: boolean }) => [item.title, item.dismissed]),
      [
        ['Night', false],
        ['Morning', false],
        ['Dropped', true],
      ],
    );
    assert.deepEqual(
      [wallet.plannedHours, wallet.unscheduledHours],
      [2, 0.5],
      "the night's hour after midnight and the morning; the dismissed task and Tokyo's evening count nothing",
    );
  });

  test("today is the reader's day at each request: it turns at their midnight, and back with the clock", async () => {
    // 23:50 on Wednesday the 11th in New York.
    const { app, clock } = await buildTestApp({ now: Date.parse('2026-03-12T03:50:00Z') });
    const { headers } = await signUp(app, { timeZone: NEW_YORK });
    await task(app, headers, { title: 'Wednesday', startHHMM: '09:00', endHHMM: '10:00' });
    await task(app, headers, { title: 'Thursday', date: '2026-03-12', startHHMM: '09:00', endHHMM: '10:00' });
    const read = async (zone = NEW_YORK) => {
      const wallet = await today(app, { ...headers, 'x-time-zone': zone });
      return [wallet.date, wallet.tasks.map((item: { title: string }) => item.title)];
    };

    assert.deepEqual(await read(), ['2026-03-11', ['Wednesday']]);
    assert.deepEqual(await read('UTC'), ['2026-03-12', ['Thursday']], 'already Thursday in UTC');
    clock.now = Date.parse('2026-03-12T04:00:00Z');
    assert.deepEqual(await read(), ['2026-03-12', ['Thursday']]);
    clock.now = Date.parse('2026-03-12T03:59:59Z');
    assert.deepEqual(await read(), ['2026-03-11', ['Wednesday']]);
  });
});
