import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_BUDGET_HOURS } from '../../src/schemas/product.js';
import { NO_CATEGORY } from '../../src/services/ledger.js';
import { buildTestApp, signUp, send } from '../helpers.js';

// Wednesday 11 March 2026, 11:00 in New York: the week of 8-14 March began with the switch to daylight saving time.
const NOW = Date.parse('2026-03-11T15:00:00Z');
const NEW_YORK = 'America/New_York';

/** A daily row with nothing tracked and the default budget: minutes is the planned figure under its first name. */
const day = (date: string, planned: number, productiveMinutes: number) => ({
  date,
  minutes: planned,
  productiveMinutes,
  plannedMinutes: planned,
  trackedMinutes: 0,
  budgetMinutes: DEFAULT_BUDGET_HOURS * 60,
  overMinutes: Math.max(0, planned - DEFAULT_BUDGET_HOURS * 60),
  remainingMinutes: Math.max(0, DEFAULT_BUDGET_HOURS * 60 - planned),
});

async function post(
  app: FastifyInstance,
  headers: Record<string, string>,
  url: string,
  payload: Record<string, unknown>,
) {
  const response = await app.inject({ method: 'POST', url, headers, payload });
  assert.ok(response.statusCode < 300, `${url}: ${response.body}`);
  return response.json();
}

async function buildDstWeek(app: FastifyInstance, headers: Record<string, string>) {
  const work = await post(app, headers, '/api/categories', { name: 'Work', color: '#111111' });
  const rest = await post(app, headers, '/api/categories', { name: 'Rest', color: '#222222' });
  const dropped = await post(app, headers, '/api/categories', { name: 'Dropped', color: '#333333' });
  const task = (fields: Record<string, unknown>) =>
    post(app, headers, '/api/tasks', { title: 'Task', ...fields });
  const markDone = (id: string) =>
    app.inject({ method: 'PATCH', url: `/api/tasks/${id}`, headers, payload: { done: true } });

  // 01:00 EST to 04:00 EDT on the switch night: two real hours.
  await markDone(
    (await task({ date: '2026-03-08', startHHMM: '01:00', endHHMM: '04:00', categoryId: work._id }))._id,
  );
  await markDone(
    (await task({ date: '2026-03-09', startHHMM: '09:00', endHHMM: '10:00', categoryId: work._id }))._id,
  );
  // Tuesday 23:00 to Wednesday 01:00: an hour on each day.
  const overnight = await task({
    date: '2026-03-10',
    startHHMM: '22:00',
    endHHMM: '23:00',
    categoryId: rest._id,
  });
  await send(app, headers, 'PATCH', `/api/tasks/${overnight._id}`, {
    start: '2026-03-10T23:00:00-04:00',
    end: '2026-03-11T01:00:00-04:00',
    done: true,
  });
  await task({ date: '2026-03-11', startHHMM: '14:00', endHHMM: '15:00', categoryId: dropped._id });
  await task({ date: '2026-03-13', startHHMM: '10:00', endHHMM: '11:00' });
  await markDone(
    (await task({ date: '2026-03-07', startHHMM: '10:00', endHHMM: '12:00', categoryId: work._id }))._id,
  );
  const intoNextWeek = await task({
    date: '2026-03-14',
    startHHMM: '22:00',
    endHHMM: '23:00',
    categoryId: work._id,
  });
  await send(app, headers, 'PATCH', `/api/tasks/${intoNextWeek._id}`, {
    start: '2026-03-14T23:00:00-04:00',
    end: '2026-03-15T01:00:00-04:00',
  });
  await post(app, headers, '/api/events', {
    title: 'Lunch talk',
    start: '2026-03-09T12:00:00-04:00',
    end: '2026-03-09T12:30:00-04:00',
    allDay: false,
  });
  await post(app, headers, '/api/events', {
    title: 'Review',
    start: '2026-03-12T09:00:00-04:00',
    end: '2026-03-12T10:00:00-04:00',
    allDay: false,
  });
  await app.inject({ method: 'DELETE', url: `/api/categories/${dropped._id}`, headers });
  return { work, rest };
}

describe('/api/aggregation/analytics/weekly', () => {
  test('computes every figure for a DST week with overnight tasks and a deleted category', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app, { timeZone: NEW_YORK });
    const { work, rest } = await buildDstWeek(app, headers);

    const response = await send(app, headers, 'GET', '/api/aggregation/analytics/weekly?date=2026-03-11');
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), {
      weekStart: '2026-03-08',
      weekEnd: '2026-03-14',
      totalMinutes: 570,
      // Shares are of all planned time: the deleted category's task, the uncategorised task and both events are
      // "No category" (60 + 60 + 30 + 60).
      byCategory: [
        { categoryId: work._id, name: 'Work', color: '#111111', minutes: 240, percent: 42 },
        { categoryId: '', name: 'No category', color: NO_CATEGORY.color, minutes: 210, percent: 37 },
        { categoryId: rest._id, name: 'Rest', color: '#222222', minutes: 120, percent: 21 },
      ],
      // Done tasks (120 + 60 + 120) and the ended lunch talk (30) = 5.5 h over Sunday..Wednesday.
      averageProductiveHours: 1.4,
      streak: 3,
      daily: [
        day('2026-03-08', 120, 120),
        day('2026-03-09', 90, 90),
        day('2026-03-10', 60, 60),
        day('2026-03-11', 120, 60),
        day('2026-03-12', 60, 0),
        day('2026-03-13', 60, 0),
        day('2026-03-14', 60, 0),
      ],
    });

    const anyDayOfTheWeek = await send(
      app,
      headers,
      'GET',
      '/api/aggregation/analytics/weekly?date=2026-03-14',
    );
    assert.deepEqual(anyDayOfTheWeek.json(), response.json());
    const defaultsToToday = await send(app, headers, 'GET', '/api/aggregation/analytics/weekly');
    assert.deepEqual(defaultsToToday.json(), response.json());
  });

  test('a week where the clocks go back (25-hour Sunday) counts real minutes, and today is clamped', async () => {
    // Wednesday 4 November 2026, 12:00 in New York; clocks went back at 02:00 EDT on Sunday 1 November.
    const { app, clock } = await buildTestApp({ now: Date.parse('2026-11-04T17:00:00Z') });
    const { headers } = await signUp(app, { timeZone: NEW_YORK });
    const home = await post(app, headers, '/api/categories', { name: 'Home', color: '#AAAAAA' });
    const study = await post(app, headers, '/api/categories', { name: 'Study', color: '#BBBBBB' });
    const task = async (fields: Record<string, unknown>, done: boolean) => {
      const created = await post(app, headers, '/api/tasks', { title: 'Task', ...fields });
      if (done) {
        const marked = await send(app, headers, 'PATCH', `/api/tasks/${created._id}`, { done: true });
        assert.equal(marked.statusCode, 200);
      }
    };
    // 00:00 EDT to 03:00 EST: four real hours on the 25-hour day.
    await task({ date: '2026-11-01', startHHMM: '00:00', endHHMM: '03:00', categoryId: home._id }, true);
    await task({ date: '2026-11-01', startHHMM: '10:00', endHHMM: '10:30' }, false);
    await task({ date: '2026-11-02', startHHMM: '09:00', endHHMM: '10:00', categoryId: study._id }, true);
    await task({ date: '2026-11-03', startHHMM: '14:00', endHHMM: '15:00', categoryId: home._id }, false);
    await task({ date: '2026-11-04', startHHMM: '08:00', endHHMM: '09:00' }, true);
    // Sunday 23:00 to Monday 01:00: an hour on each day, already over.
    await post(app, headers, '/api/events', {
      title: 'Night shift',
      start: '2026-11-01T23:00:00-05:00',
      end: '2026-11-02T01:00:00-05:00',
    });
    // Later today: planned, not yet productive.
    await post(app, headers, '/api/events', {
      title: 'Afternoon',
      start: '2026-11-04T13:00:00-05:00',
      end: '2026-11-04T14:00:00-05:00',
    });

    const week = await send(app, headers, 'GET', '/api/aggregation/analytics/weekly?date=2026-11-04');
    assert.deepEqual(week.json(), {
      weekStart: '2026-11-01',
      weekEnd: '2026-11-07',
      totalMinutes: 240 + 30 + 60 + 60 + 60 + 120 + 60,
      byCategory: [
        { categoryId: home._id, name: 'Home', color: '#AAAAAA', minutes: 300, percent: 48 },
        { categoryId: '', name: 'No category', color: NO_CATEGORY.color, minutes: 270, percent: 43 },
        { categoryId: study._id, name: 'Study', color: '#BBBBBB', minutes: 60, percent: 10 },
      ],
      // Done tasks (240 + 60 + 60) and the ended night shift (120) = 8 h over Sunday..Wednesday.
      averageProductiveHours: 2,
      // Sunday and Monday; Tuesday has no done task, Wednesday starts a new run of one.
      streak: 2,
      daily: [
        day('2026-11-01', 330, 300),
        day('2026-11-02', 120, 120),
        day('2026-11-03', 60, 0),
        day('2026-11-04', 120, 60),
        day('2026-11-05', 0, 0),
        day('2026-11-06', 0, 0),
        day('2026-11-07', 0, 0),
      ],
    });

    // Sunday 15:00: one elapsed day and the night shift has not ended. Only the elapsed days count, in numerator and
    // divisor alike: Monday's and Wednesday's done tasks are in the future, so 240 min / 1 day = 4 h.
    clock.now = Date.parse('2026-11-01T20:00:00Z');
    const sunday = (
      await app.inject({ method: 'GET', url: '/api/aggregation/analytics/weekly', headers })
    ).json();
    assert.equal(sunday.averageProductiveHours, 4);
    assert.equal(sunday.streak, 1);
    assert.equal(sunday.daily[0].productiveMinutes, 240);
    const today = (await app.inject({ method: 'GET', url: '/api/tasks/today', headers })).json();
    // 4 h + 0.5 h of tasks (done or not) and the night shift's hour before midnight.
    assert.deepEqual(
      { date: today.date, spentHours: today.spentHours, remainingHours: today.remainingHours },
      { date: '2026-11-01', spentHours: 5.5, remainingHours: 9.5 },
    );
    assert.equal(today.tasks.length, 2);
  });

  test('a finished week divides by 7 and counts the streak over all its days', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app, { timeZone: NEW_YORK });
    await buildDstWeek(app, headers);
    const previous = await send(app, headers, 'GET', '/api/aggregation/analytics/weekly?date=2026-03-04');
    const body = previous.json();
    assert.equal(body.weekStart, '2026-03-01');
    assert.equal(body.totalMinutes, 120);
    assert.equal(body.averageProductiveHours, 0.3);
    assert.equal(body.streak, 1);
    assert.equal(body.byCategory[0].percent, 100);
  });

  test('a week with no data reports zeros', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app, { timeZone: NEW_YORK });
    for (const date of ['2026-03-11', '2026-06-17']) {
      const response = await send(app, headers, 'GET', `/api/aggregation/analytics/weekly?date=${date}`);
      const body = response.json();
      assert.equal(response.statusCode, 200);
      assert.deepEqual(
        { ...body, daily: undefined, weekStart: undefined, weekEnd: undefined },
        {
          totalMinutes: 0,
          byCategory: [],
          averageProductiveHours: 0,
          streak: 0,
          daily: undefined,
          weekStart: undefined,
          weekEnd: undefined,
        },
      );
      assert.equal(body.daily.length, 7);
      assert.ok(
        body.daily.every(
          (day: { minutes: number; productiveMinutes: number }) =>
            day.minutes === 0 && day.productiveMinutes === 0,
        ),
      );
    }
  });

  test('weeks follow the request zone', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app, { timeZone: NEW_YORK });
    await post(app, headers, '/api/events', {
      title: 'Saturday night',
      start: '2026-03-14T22:00:00-04:00',
      end: '2026-03-14T23:00:00-04:00',
      allDay: false,
    });
    const newYork = (
      await app.inject({ method: 'GET', url: '/api/aggregation/analytics/weekly?date=2026-03-11', headers })
    ).json();
    assert.equal(newYork.totalMinutes, 60);
    const tokyo = (
      await app.inject({
        method: 'GET',
        url: '/api/aggregation/analytics/weekly?date=2026-03-11',
        headers: { ...headers, 'x-time-zone': 'Asia/Tokyo' },
      })
    ).json();
    assert.equal(tokyo.totalMinutes, 0);
  });

  test('rejects a bad date', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app);
    for (const date of ['2026-02-30', 'monday']) {
      const response = await send(app, headers, 'GET', `/api/aggregation/analytics/weekly?date=${date}`);
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().errors[0].field, 'date');
    }
  });

  test('update stores one snapshot per week, however often it runs', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app, { timeZone: NEW_YORK });
    await buildDstWeek(app, headers);
    const first = await send(app, headers, 'POST', '/api/aggregation/analytics/weekly/update');
    const second = await app.inject({
      method: 'POST',
      url: '/api/aggregation/analytics/weekly/update',
      headers: { ...headers, 'content-type': 'application/json' },
    });
    assert.equal(first.statusCode, 200);
    assert.equal(second.statusCode, 200);
    assert.equal(second.json().analytics.totalMinutes, 570);
    const exported = (await app.inject({ method: 'GET', url: '/api/users/me/export', headers })).json();
    assert.equal(exported.analyticsSnapshots.length, 1);
    assert.equal(exported.analyticsSnapshots[0].weekStart, '2026-03-08');
    assert.equal(exported.analyticsSnapshots[0].analytics.totalMinutes, 570);
  });

  test('needs a signed-in user', async () => {
    const { app } = await buildTestApp();
    const response = await app.inject({ method: 'GET', url: '/api/aggregation/analytics/weekly' });
    assert.equal(response.statusCode, 401);
  });
});
