import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, signUp, send } from '../helpers.js';

const NEW_YORK = 'America/New_York';

async function createTask(
  app: FastifyInstance,
  headers: Record<string, string>,
  fields: Record<string, unknown>,
) {
  return send(app, headers, 'POST', '/api/tasks', {
    title: 'Write report',
    categoryId: '',
    startHHMM: '09:00',
    endHHMM: '10:30',
    notes: '',
    date: '2026-03-11',
    isEvent: false,
    isReminder: false,
    carryover: false,
    ...fields,
  });
}

describe('/api/tasks', () => {
  test('creates a task whose start and end are the local times in the request zone', async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app, { timeZone: NEW_YORK });
    const category = (
      await app.inject({ method: 'POST', url: '/api/categories', headers, payload: { name: 'Work' } })
    ).json();
    const response = await createTask(app, headers, { categoryId: category._id, notes: 'Quarterly numbers' });
    assert.equal(response.statusCode, 201);
    const task = response.json();
    assert.equal(typeof task._id, 'string');
    assert.deepEqual(
      { ...task, _id: undefined },
      {
        _id: undefined,
        title: 'Write report',
        categoryId: category._id,
        startHHMM: '09:00',
        endHHMM: '10:30',
        notes: 'Quarterly numbers',
        date: '2026-03-11',
        start: '2026-03-11T13:00:00.000Z',
        end: '2026-03-11T14:30:00.000Z',
        done: false,
        dismissed: false,
        scheduled: true,
        estimateMinutes: null,
        trackedMinutes: 0,
        timerStartedAt: null,
        timerAutoStopped: false,
        isEvent: false,
        isReminder: false,
        carryover: false,
        seriesId: '',
        rrule: '',
        recurrenceId: '',
      },
    );
  });

  test("defaults the date to today in the user's zone", async () => {
    const { app } = await buildTestApp({ now: Date.parse('2026-03-11T03:30:00Z') });
    const { headers } = await signUp(app, { timeZone: NEW_YORK });
    const { date: _date, ...withoutDate } = {
      date: undefined,
      title: 'Late night',
      startHHMM: '21:00',
      endHHMM: '22:00',
    };
    const response = await app.inject({ method: 'POST', url: '/api/tasks', headers, payload: withoutDate });
    assert.equal(response.statusCode, 201);
    assert.equal(response.json().date, '2026-03-10');
    assert.equal(response.json().categoryId, '');
  });

  test('falls back to the stored zone when X-Time-Zone is missing or invalid', async () => {
    const { app } = await buildTestApp();
    const { token } = await signUp(app, { timeZone: 'Asia/Tokyo' });
    const extras: Array<Record<string, string>> = [{}, { 'x-time-zone': 'Not/AZone' }];
    for (const extra of extras) {
      const response = await createTask(app, { authorization: `Bearer ${token}`, ...extra }, {});
      assert.equal(response.json().start, '2026-03-11T00:00:00.000Z');
    }
  });

  test('a dismissed task leaves the pending list and counts in no figure, and can be brought back', async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app, { timeZone: 'UTC' });
    const [kept, dropped] = await Promise.all([
      createTask(app, headers, { title: 'Kept', startHHMM: '09:00', endHHMM: '10:00' }).then((r) => r.json()),
      createTask(app, headers, { title: 'Dropped', startHHMM: '11:00', endHHMM: '13:00' }).then((r) =>
        r.json(),
      ),
    ]);
    assert.equal(dropped.dismissed, false);
    const figures = async () => ({
      pending: (await send(app, headers, 'GET', '/api/tasks?date=2026-03-11&done=false')).json().tasks,
      spent: (await send(app, headers, 'GET', '/api/tasks/today')).json().spentHours,
      week: (await send(app, headers, 'GET', '/api/aggregation/analytics/weekly?date=2026-03-11')).json(),
    });
    const before = await figures();
    assert.deepEqual(
      before.pending.map((task: { title: string }) => task.title),
      ['Kept', 'Dropped'],
    );
    assert.equal(before.spent, 3);

    // Our Yesterday screen's Delete: SPEC's done: true, plus dismissed.
    const dismissed = await send(app, headers, 'PATCH', `/api/tasks/${dropped._id}`, {
      done: true,
      dismissed: true,
    });
    assert.equal(dismissed.statusCode, 200);
    assert.equal(dismissed.json().dismissed, true);
    const after = await figures();
    assert.deepEqual(
      after.pending.map((task: { title: string }) => task.title),
      ['Kept'],
    );
    assert.equal(after.spent, 1, 'the dismissed 2 hours are not spent');
    assert.equal(after.week.totalMinutes, before.week.totalMinutes - 120);
    assert.equal(
      after.week.averageProductiveHours,
      0,
      'a dismissed task is not productive time, although done',
    );
    assert.equal(after.week.streak, 0);
    const all = (await send(app, headers, 'GET', '/api/tasks?date=2026-03-11')).json().tasks;
    assert.equal(all.length, 2, 'dismissed is not deleted');

    await send(app, headers, 'PATCH', `/api/tasks/${dropped._id}`, { done: false, dismissed: false });
    assert.deepEqual(await figures(), before);
    assert.equal(kept.dismissed, false);
  });

  test('rejects invalid tasks with a clear 400', async () => {
    const { app } = await buildTestApp();
    const owner = await signUp(app);
    const other = await signUp(app);
    const foreignCategory = (
      await send(app, other.headers, 'POST', '/api/categories', { name: 'Theirs' })
    ).json();
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ startHHMM: '10:00', endHHMM: '10:00' }, 'endHHMM', /End time must be after start time/],
      [{ startHHMM: '9am' }, 'startHHMM', /HH:MM/],
      [{ endHHMM: '24:00' }, 'endHHMM', /HH:MM/],
      [{ date: '2026-02-30' }, 'date', /valid calendar date/],
      [{ date: '11/03/2026' }, 'date', /YYYY-MM-DD/],
      [{ title: '   ' }, 'title', /Title is required/],
      [{ title: 'x'.repeat(201) }, 'title', /must not exceed 200/],
      [{ categoryId: 'no-such-category' }, 'categoryId', /Category not found/],
      [{ categoryId: foreignCategory._id }, 'categoryId', /Category not found/],
      [{ done: 'yes' }, 'done', /must be a boolean/],
      [{ userId: 'someone-else' }, 'userId', /not an accepted field/],
    ];
    for (const [fields, field, message] of cases) {
      const response = await createTask(app, owner.headers, fields);
      assert.equal(response.statusCode, 400, JSON.stringify(fields));
      const body = response.json();
      assert.equal(body.errors[0].field, field, JSON.stringify(body));
      assert.match(body.errors[0].message, message);
    }
    const missing = await send(app, owner.headers, 'POST', '/api/tasks', { title: 'x' });
    assert.equal(missing.statusCode, 400);
  });

  test('an end time earlier than the start ends on the next day, and each day counts its own part', async () => {
    const { app } = await buildTestApp({ now: Date.parse('2026-03-12T15:00:00Z') });
    const { headers } = await signUp(app, { timeZone: NEW_YORK });
    const created = await createTask(app, headers, {
      date: '2026-03-11',
      startHHMM: '23:00',
      endHHMM: '01:30',
    });
    assert.equal(created.statusCode, 201, created.body);
    const task = created.json();
    assert.equal(task.date, '2026-03-11');
    assert.equal(task.start, '2026-03-12T03:00:00.000Z');
    assert.equal(task.end, '2026-03-12T05:30:00.000Z');
    const today = (await app.inject({ method: 'GET', url: '/api/tasks/today', headers })).json();
    assert.equal(today.spentHours, 1.5, 'only the part after midnight is spent on the 12th');

    const edited = await send(app, headers, 'PATCH', `/api/tasks/${task._id}`, {
      startHHMM: '22:00',
      endHHMM: '00:00',
    });
    assert.equal(edited.statusCode, 200, edited.body);
    assert.equal(edited.json().end, '2026-03-12T04:00:00.000Z');
    const equal = await send(app, headers, 'PATCH', `/api/tasks/${task._id}`, { endHHMM: '22:00' });
    assert.equal(equal.statusCode, 400);
    assert.equal(equal.json().errors[0].field, 'endHHMM');
  });

  test('lists one day sorted by start, filtered by done', async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app, { timeZone: NEW_YORK });
    const late = (
      await createTask(app, headers, { title: 'Late', startHHMM: '15:00', endHHMM: '16:00' })
    ).json();
    const early = (
      await createTask(app, headers, { title: 'Early', startHHMM: '07:00', endHHMM: '08:00' })
    ).json();
    await createTask(app, headers, { title: 'Tomorrow', date: '2026-03-12' });
    await app.inject({ method: 'PATCH', url: `/api/tasks/${early._id}`, headers, payload: { done: true } });

    const all = await app.inject({ method: 'GET', url: '/api/tasks?date=2026-03-11', headers });
    assert.equal(all.statusCode, 200);
    assert.deepEqual(
      all.json().tasks.map((task: { title: string }) => task.title),
      ['Early', 'Late'],
    );
    const pending = await send(app, headers, 'GET', '/api/tasks?date=2026-03-11&done=false');
    assert.deepEqual(
      pending.json().tasks.map((task: { _id: string }) => task._id),
      [late._id],
    );
    const done = await app.inject({ method: 'GET', url: '/api/tasks?date=2026-03-11&done=true', headers });
    assert.deepEqual(
      done.json().tasks.map((task: { _id: string }) => task._id),
      [early._id],
    );

    for (const query of ['date=2026-13-01', 'date=yesterday', 'done=maybe', 'date=2026-03-11&page=2']) {
      const bad = await app.inject({ method: 'GET', url: `/api/tasks?${query}`, headers });
      assert.equal(bad.statusCode, 400, query);
    }
  });

  test("/today reports today's tasks and spent hours from tasks and events, clamped to today", async () => {
    const { app } = await buildTestApp({ now: Date.parse('2026-03-11T15:00:00Z') });
    const { headers } = await signUp(app, { timeZone: NEW_YORK });
    await createTask(app, headers, { startHHMM: '09:00', endHHMM: '10:30' });
    const done = (await createTask(app, headers, { startHHMM: '11:00', endHHMM: '12:00' })).json();
    await app.inject({ method: 'PATCH', url: `/api/tasks/${done._id}`, headers, payload: { done: true } });
    await createTask(app, headers, { date: '2026-03-10', startHHMM: '09:00', endHHMM: '17:00' });
    const lateYesterday = (
      await createTask(app, headers, { date: '2026-03-10', startHHMM: '22:00', endHHMM: '23:00' })
    ).json();
    await send(app, headers, 'PATCH', `/api/tasks/${lateYesterday._id}`, {
      start: '2026-03-10T23:00:00-04:00',
      end: '2026-03-11T01:00:00-04:00',
    });
    await send(app, headers, 'POST', '/api/events', {
      title: 'Standup',
      start: '2026-03-11T14:00:00.000Z',
      end: '2026-03-11T14:15:00.000Z',
      allDay: false,
    });

    const response = await app.inject({ method: 'GET', url: '/api/tasks/today', headers });
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.equal(body.date, '2026-03-11');
    // 09:00-10:30 + 11:00-12:00 + the hour of yesterday's late task after midnight; the standup at 10:00-10:15
    // lies inside the first task, and overlaps count once: 3.5 h, not 3.75.
    assert.equal(body.spentHours, 3.5);
    assert.equal(body.plannedHours, 3.5);
    assert.equal(body.budgetHours, 15);
    assert.equal(body.remainingHours, 11.5);
    assert.equal(body.overHours, 0);
    // Today lists what the wallet counts: yesterday's task that runs past midnight is on both days.
    assert.deepEqual(
      body.tasks.map((task: { startHHMM: string }) => task.startHHMM),
      ['23:00', '09:00', '11:00'],
    );

    await app.inject({ method: 'PATCH', url: '/api/users/me', headers, payload: { budgetHours: 2 } });
    const overBudget = (await app.inject({ method: 'GET', url: '/api/tasks/today', headers })).json();
    assert.equal(overBudget.remainingHours, 0);
    assert.equal(overBudget.overHours, 1.5);
  });

  test('toggles, edits and puts back tasks', async () => {
    const { app } = await buildTestApp({ now: Date.parse('2026-03-11T15:00:00Z') });
    const { headers } = await signUp(app, { timeZone: NEW_YORK });
    const category = (
      await app.inject({ method: 'POST', url: '/api/categories', headers, payload: { name: 'Home' } })
    ).json();
    const task = (
      await createTask(app, headers, {
        date: '2026-03-10',
        startHHMM: '18:15',
        endHHMM: '19:45',
        categoryId: category._id,
      })
    ).json();

    const toggled = await send(app, headers, 'PATCH', `/api/tasks/${task._id}`, { done: true });
    assert.equal(toggled.statusCode, 200);
    assert.equal(toggled.json().done, true);
    assert.equal(toggled.json().start, task.start);

    const { _id, ...whole } = toggled.json();
    const edited = await send(app, headers, 'PATCH', `/api/tasks/${_id}`, {
      ...whole,
      title: 'Cook dinner',
      startHHMM: '18:30',
      endHHMM: '20:00',
      notes: 'pasta',
    });
    assert.equal(edited.statusCode, 200, edited.body);
    assert.equal(edited.json().title, 'Cook dinner');
    assert.equal(edited.json().start, '2026-03-10T22:30:00.000Z');
    assert.equal(edited.json().end, '2026-03-11T00:00:00.000Z');

    const putBack = await send(app, headers, 'PATCH', `/api/tasks/${_id}`, {
      start: '2026-03-11T22:30:00.000Z',
      end: '2026-03-12T00:00:00.000Z',
      done: false,
    });
    assert.equal(putBack.statusCode, 200);
    assert.deepEqual(
      {
        date: putBack.json().date,
        startHHMM: putBack.json().startHHMM,
        endHHMM: putBack.json().endHHMM,
        done: putBack.json().done,
      },
      { date: '2026-03-11', startHHMM: '18:30', endHHMM: '20:00', done: false },
    );
    const today = await app.inject({ method: 'GET', url: '/api/tasks?date=2026-03-11', headers });
    assert.deepEqual(
      today.json().tasks.map((item: { _id: string }) => item._id),
      [_id],
    );

    const backwards = await send(app, headers, 'PATCH', `/api/tasks/${_id}`, {
      start: '2026-03-11T22:30:00.000Z',
      end: '2026-03-11T21:00:00.000Z',
    });
    assert.equal(backwards.statusCode, 400);
    const badInstant = await send(app, headers, 'PATCH', `/api/tasks/${_id}`, { start: 'tomorrow-ish' });
    assert.equal(badInstant.statusCode, 400);
    assert.equal(badInstant.json().errors[0].field, 'start');
  });

  test('an edit may send the whole task back, its own _id included, but never another id', async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app, { timeZone: NEW_YORK });
    const task = (await createTask(app, headers, {})).json();
    const other = (await createTask(app, headers, { title: 'Other' })).json();
    const edited = {
      ...task,
      title: 'Edited',
      startHHMM: '13:00',
      endHHMM: '14:00',
      start: '2026-03-11T17:00:00.000Z',
      end: '2026-03-11T18:00:00.000Z',
    };
    const whole = await send(app, headers, 'PATCH', `/api/tasks/${task._id}`, edited);
    assert.equal(whole.statusCode, 200, whole.body);
    assert.deepEqual(whole.json(), edited);
    const retargeted = await send(app, headers, 'PATCH', `/api/tasks/${task._id}`, {
      ...task,
      _id: other._id,
      title: 'Overwrite',
    });
    assert.equal(retargeted.statusCode, 400);
    assert.equal(retargeted.json().errors[0].field, '_id');
    const list = await app.inject({ method: 'GET', url: '/api/tasks?date=2026-03-11', headers });
    assert.deepEqual(
      list.json().tasks.map((item: { title: string }) => item.title),
      ['Other', 'Edited'],
    );
  });

  test('a task keeps its deleted category id and can still be edited', async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app);
    const category = (
      await app.inject({ method: 'POST', url: '/api/categories', headers, payload: { name: 'Gone' } })
    ).json();
    const task = (await createTask(app, headers, { categoryId: category._id })).json();
    await app.inject({ method: 'DELETE', url: `/api/categories/${category._id}`, headers });
    const listed = await app.inject({ method: 'GET', url: '/api/tasks?date=2026-03-11', headers });
    assert.equal(listed.json().tasks[0].categoryId, category._id);
    const edited = await send(app, headers, 'PATCH', `/api/tasks/${task._id}`, {
      title: 'Renamed',
      categoryId: category._id,
    });
    assert.equal(edited.statusCode, 200);
    const uncategorised = await send(app, headers, 'PATCH', `/api/tasks/${task._id}`, { categoryId: null });
    assert.equal(uncategorised.json().categoryId, '');
    const reattach = await send(app, headers, 'PATCH', `/api/tasks/${task._id}`, {
      categoryId: category._id,
    });
    assert.equal(reattach.statusCode, 400);
  });

  test("another user's task answers exactly like a missing one", async () => {
    const { app } = await buildTestApp();
    const owner = await signUp(app);
    const intruder = await signUp(app);
    const task = (await createTask(app, owner.headers, {})).json();
    const intruderCategory = (
      await send(app, intruder.headers, 'POST', '/api/categories', { name: 'Mine' })
    ).json();
    for (const [method, payload] of [
      ['PATCH', { done: true }],
      ['DELETE', undefined],
    ] as const) {
      const foreign = await app.inject({
        method,
        url: `/api/tasks/${task._id}`,
        headers: intruder.headers,
        payload,
      });
      const missing = await app.inject({
        method,
        url: '/api/tasks/00000000-0000-0000-0000-000000000000',
        headers: intruder.headers,
        payload,
      });
      assert.equal(foreign.statusCode, 404);
      assert.deepEqual(foreign.json(), missing.json());
    }
    const list = await send(app, intruder.headers, 'GET', '/api/tasks?date=2026-03-11');
    assert.deepEqual(list.json().tasks, []);
    const pointAtForeign = await send(app, owner.headers, 'PATCH', `/api/tasks/${task._id}`, {
      categoryId: intruderCategory._id,
    });
    assert.equal(pointAtForeign.statusCode, 400);
    const unchanged = await send(app, owner.headers, 'GET', '/api/tasks?date=2026-03-11');
    assert.equal(unchanged.json().tasks[0].done, false);
  });

  test('deletes a task', async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app);
    const task = (await createTask(app, headers, {})).json();
    const deleted = await app.inject({ method: 'DELETE', url: `/api/tasks/${task._id}`, headers });
    assert.equal(deleted.statusCode, 204);
    const again = await app.inject({ method: 'DELETE', url: `/api/tasks/${task._id}`, headers });
    assert.equal(again.statusCode, 404);
    assert.deepEqual(again.json(), { message: 'Task not found' });
  });
});
