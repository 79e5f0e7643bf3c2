import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { RECORD_QUOTAS } from '../../src/lib/quotas.js';
import { buildTestApp, signUp, send } from '../helpers.js';

// Tracked time as intervals (issue 31, items 1, 5 and 8), through the HTTP API with the app's injected clock.
// Wednesday 11 March 2026, 15:00 UTC; the person reads in UTC unless a test says otherwise.
const NOW = Date.parse('2026-03-11T15:00:00Z');
const DAY = '2026-03-11';
const SECOND = 1000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
interface Entry {
  id: string;
  taskId: string;
  start: string;
  end: string | null;
  source: 'timer' | 'manual';
}
interface Task {
  _id: string;
  title: string;
  trackedMinutes: number;
  timerStartedAt: string | null;
}

async function ok(app: FastifyInstance, headers: Headers, method: Method, url: string, body?: object) {
  const response = await send(app, headers, method, url, body);
  assert.ok(response.statusCode < 300, `${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.statusCode === 204 ? undefined : response.json();
}

async function setup(options: { quotas?: Partial<typeof RECORD_QUOTAS>; timeZone?: string } = {}) {
  const { app, clock } = await buildTestApp({
    now: NOW,
    ...(options.quotas ? { config: { quotas: { ...RECORD_QUOTAS, ...options.quotas } } } : {}),
  });
  const person = await signUp(app, { timeZone: options.timeZone ?? 'UTC' });
  const { headers } = person;
  /** Signs in again after the clock moved past the session's idle limit; `headers` carries the new token. */
  const signInAgain = async () => {
    const { token } = await ok(app, {}, 'POST', '/api/auth/login', {
      username: person.user.username,
      password: person.password,
    });
    headers.authorization = `Bearer ${token}`;
  };
  return { app, clock, headers, signInAgain };
}

/** A scheduled task (09:00-10:00 on DAY unless told otherwise). */
const createTask = (app: FastifyInstance, headers: Headers, fields: Record<string, unknown> = {}) =>
  ok(app, headers, 'POST', '/api/tasks', {
    title: 'Task',
    date: DAY,
    startHHMM: '09:00',
    endHHMM: '10:00',
    ...fields,
  }) as Promise<Task>;

const postEntry = (app: FastifyInstance, headers: Headers, taskId: string, start: string, end: string) =>
  send(app, headers, 'POST', '/api/time-entries', { taskId, start, end });

async function addEntry(app: FastifyInstance, headers: Headers, taskId: string, start: string, end: string) {
  const response = await postEntry(app, headers, taskId, start, end);
  assert.equal(response.statusCode, 201, response.body);
  return response.json<Entry>();
}

async function listEntries(app: FastifyInstance, headers: Headers, from: string, to: string) {
  const body = await ok(app, headers, 'GET', `/api/time-entries?from=${from}&to=${to}`);
  return body.entries as Entry[];
}

async function taskOn(app: FastifyInstance, headers: Headers, date: string, id: string): Promise<Task> {
  const { tasks } = await ok(app, headers, 'GET', `/api/tasks?date=${date}`);
  const found = (tasks as Task[]).find((task) => task._id === id);
  assert.ok(found, `task ${id} is not listed on ${date}`);
  return found;
}

const lengthOf = (entry: Entry) => Date.parse(entry.end!) - Date.parse(entry.start);
const timer = (app: FastifyInstance, headers: Headers, id: string, action: 'start' | 'stop') =>
  ok(app, headers, 'POST', `/api/tasks/${id}/timer/${action}`) as Promise<Task>;

/** A 400 of the documented shape naming `field`. */
function assertFieldError(
  response: { statusCode: number; body: string; json(): unknown },
  field: string,
  what: string,
) {
  assert.equal(response.statusCode, 400, `${what}: ${response.body}`);
  const body = response.json() as { message?: unknown; errors?: Array<{ field?: unknown }> };
  assert.equal(typeof body.message, 'string', what);
  assert.ok(Array.isArray(body.errors) && body.errors.length > 0, `${what}: ${JSON.stringify(body)}`);
  assert.ok(
    body.errors.some((error) => error.field === field),
    `${what}: expected an error on ${field}, got ${JSON.stringify(body.errors)}`,
  );
}

describe('GET /api/time-entries: the entries overlapping a range of local days', () => {
  test('an entry crossing midnight is listed on both days; to is exclusive; an end at midnight stays on its day', async () => {
    const { app, headers } = await setup();
    const late = await createTask(app, headers, {
      title: 'Late shift',
      date: '2026-03-10',
      startHHMM: '22:00',
      endHHMM: '23:00',
    });
    const crossing = await addEntry(app, headers, late._id, '2026-03-10T23:30:00Z', '2026-03-11T00:30:00Z');
    const evening = await addEntry(app, headers, late._id, '2026-03-10T21:00:00Z', '2026-03-10T22:00:00Z');
    const monday = await addEntry(app, headers, late._id, '2026-03-09T10:00:00Z', '2026-03-09T11:00:00Z');

    assert.deepEqual(
      (await listEntries(app, headers, '2026-03-10', '2026-03-11')).map((entry) => entry.id),
      [evening.id, crossing.id],
    );
    assert.deepEqual(
      (await listEntries(app, headers, DAY, '2026-03-12')).map((entry) => entry.id),
      [crossing.id],
      'the entry crossing midnight is on Wednesday too',
    );
    assert.deepEqual(
      (await listEntries(app, headers, '2026-03-09', '2026-03-10')).map((entry) => entry.id),
      [monday.id],
      'to is exclusive',
    );
    assert.deepEqual(await listEntries(app, headers, '2026-03-12', '2026-03-13'), []);
    assert.deepEqual(
      (await listEntries(app, headers, '2026-03-09', '2026-03-12')).map((entry) => entry.id),
      [monday.id, evening.id, crossing.id],
      'sorted by start',
    );
  });

  test('an entry ending exactly at midnight belongs to the day it ends, not the next', async () => {
    const { app, headers } = await setup();
    const task = await createTask(app, headers, { date: '2026-03-10', startHHMM: '23:00', endHHMM: '23:30' });
    const entry = await addEntry(app, headers, task._id, '2026-03-10T23:00:00Z', '2026-03-11T00:00:00Z');
    assert.deepEqual(
      (await listEntries(app, headers, '2026-03-10', '2026-03-11')).map((row) => row.id),
      [entry.id],
    );
    assert.deepEqual(await listEntries(app, headers, DAY, '2026-03-12'), []);
  });

  test("days are the reader's local days (New York)", async () => {
    const { app, headers } = await setup({ timeZone: 'America/New_York' });
    const task = await createTask(app, headers, { date: '2026-03-10', startHHMM: '20:00', endHHMM: '21:00' });
    // 23:30 to 00:30 in New York (EDT, UTC-4): both local days, though all of it is on 11 March in UTC.
    const entry = await addEntry(app, headers, task._id, '2026-03-11T03:30:00Z', '2026-03-11T04:30:00Z');
    assert.deepEqual(
      (await listEntries(app, headers, '2026-03-10', '2026-03-11')).map((row) => row.id),
      [entry.id],
    );
    assert.deepEqual(
      (await listEntries(app, headers, DAY, '2026-03-12')).map((row) => row.id),
      [entry.id],
    );
    assert.deepEqual(await listEntries(app, headers, '2026-03-09', '2026-03-10'), []);
  });

  test('a running timer is listed with end null and source timer', async () => {
    const { app, clock, headers } = await setup();
    const task = await createTask(app, headers, { startHHMM: '14:00', endHHMM: '16:00' });
    await timer(app, headers, task._id, 'start');
    clock.now += 10 * MINUTE;
    const entries = await listEntries(app, headers, DAY, '2026-03-12');
    assert.equal(entries.length, 1);
    assert.deepEqual(
      { ...entries[0], id: undefined },
      { id: undefined, taskId: task._id, start: '2026-03-11T15:00:00.000Z', end: null, source: 'timer' },
    );
  });

  test('a bad range answers 400', async () => {
    const { app, headers } = await setup();
    for (const query of [
      'from=2026-03-12&to=2026-03-11',
      `from=${DAY}&to=${DAY}`,
      'from=2026-01-01&to=2026-06-01',
      'from=monday&to=2026-03-12',
      `from=${DAY}`,
    ]) {
      const response = await send(app, headers, 'GET', `/api/time-entries?${query}`);
      assert.equal(response.statusCode, 400, `${query}: ${response.body}`);
    }
  });

  test("another person's entries are never listed", async () => {
    const { app, headers } = await setup();
    const other = await signUp(app, { timeZone: 'UTC' });
    const theirs = await createTask(app, other.headers, { title: 'Theirs' });
    await addEntry(app, other.headers, theirs._id, '2026-03-11T09:00:00Z', '2026-03-11T10:00:00Z');
    assert.deepEqual(await listEntries(app, headers, DAY, '2026-03-12'), []);
    // The same time is free for this person: entries are apart per person only.
    const mine = await createTask(app, headers, { title: 'Mine' });
    await addEntry(app, headers, mine._id, '2026-03-11T09:00:00Z', '2026-03-11T10:00:00Z');
  });
});

describe('POST /api/time-entries', () => {
  test('201 with exactly {id, taskId, start, end, source: manual}; instants floored to the second; the task counts it', async () => {
    const { app, headers } = await setup();
    const task = await createTask(app, headers);
    const response = await postEntry(
      app,
      headers,
      task._id,
      '2026-03-11T09:00:00.750Z',
      '2026-03-11T09:30:15.999Z',
    );
    assert.equal(response.statusCode, 201, response.body);
    const entry = response.json<Entry>();
    assert.deepEqual(Object.keys(entry).sort(), ['end', 'id', 'source', 'start', 'taskId']);
    assert.equal(typeof entry.id, 'string');
    assert.ok(entry.id.length > 0);
    assert.deepEqual(
      { ...entry, id: 'x' },
      {
        id: 'x',
        taskId: task._id,
        start: '2026-03-11T09:00:00.000Z',
        end: '2026-03-11T09:30:15.000Z',
        source: 'manual',
      },
    );
    assert.deepEqual(await listEntries(app, headers, DAY, '2026-03-12'), [entry]);
    assert.equal((await taskOn(app, headers, DAY, task._id)).trackedMinutes, 30);
  });

  test('an instant without an offset is read in the request time zone', async () => {
    const { app, headers } = await setup({ timeZone: 'America/New_York' });
    const task = await createTask(app, headers);
    const entry = await addEntry(app, headers, task._id, '2026-03-11T09:00:00', '2026-03-11T09:45:00');
    assert.equal(entry.start, '2026-03-11T13:00:00.000Z');
    assert.equal(entry.end, '2026-03-11T13:45:00.000Z');
  });

  test('400 {message, errors:[{field}]} for end ≤ start, over 24 h, an end in the future, a bad ISO, unknown fields', async () => {
    const { app, headers } = await setup();
    const task = await createTask(app, headers);
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['end equal to start', { start: '2026-03-11T09:00:00Z', end: '2026-03-11T09:00:00Z' }, 'end'],
      ['end before start', { start: '2026-03-11T09:00:00Z', end: '2026-03-11T08:00:00Z' }, 'end'],
      [
        'end within the same second as start',
        { start: '2026-03-11T09:00:00.100Z', end: '2026-03-11T09:00:00.900Z' },
        'end',
      ],
      ['24 h and a second', { start: '2026-03-10T09:00:00Z', end: '2026-03-11T09:00:01Z' }, 'end'],
      ['an end in the future', { start: '2026-03-11T14:30:00Z', end: '2026-03-11T15:10:00Z' }, 'end'],
      ['a future span', { start: '2026-03-12T09:00:00Z', end: '2026-03-12T10:00:00Z' }, 'end'],
      ['start not ISO', { start: 'yesterday at nine', end: '2026-03-11T10:00:00Z' }, 'start'],
      ['end not ISO', { start: '2026-03-11T09:00:00Z', end: 'later' }, 'end'],
      ['30 February', { start: '2026-02-30T09:00:00Z', end: '2026-02-30T10:00:00Z' }, 'start'],
      ['hour 25', { start: '2026-03-11T25:00:00Z', end: '2026-03-11T10:00:00Z' }, 'start'],
    ];
    for (const [what, span, field] of cases) {
      const response = await send(app, headers, 'POST', '/api/time-entries', { taskId: task._id, ...span });
      assertFieldError(response, field, what);
    }
    const unknown = await send(app, headers, 'POST', '/api/time-entries', {
      taskId: task._id,
      start: '2026-03-11T09:00:00Z',
      end: '2026-03-11T10:00:00Z',
      source: 'timer',
    });
    assertFieldError(unknown, 'source', 'an unknown field');
    const missing = await send(app, headers, 'POST', '/api/time-entries', {
      taskId: task._id,
      start: '2026-03-11T09:00:00Z',
    });
    assertFieldError(missing, 'end', 'no end');
    assert.deepEqual(await listEntries(app, headers, '2026-03-09', '2026-03-13'), [], 'nothing was stored');
    assert.equal((await taskOn(app, headers, DAY, task._id)).trackedMinutes, 0);
  });

  test('exactly 24 hours is accepted', async () => {
    const { app, headers } = await setup();
    const task = await createTask(app, headers);
    const entry = await addEntry(app, headers, task._id, '2026-03-10T14:00:00Z', '2026-03-11T14:00:00Z');
    assert.equal(lengthOf(entry), 24 * HOUR);
  });

  test("404 for another person's task and for a missing one, with one body", async () => {
    const { app, headers } = await setup();
    const other = await signUp(app, { timeZone: 'UTC' });
    const theirs = await createTask(app, other.headers, { title: 'Theirs' });
    const foreign = await postEntry(app, headers, theirs._id, '2026-03-11T09:00:00Z', '2026-03-11T10:00:00Z');
    const missing = await postEntry(
      app,
      headers,
      '00000000-0000-4000-8000-000000000000',
      '2026-03-11T09:00:00Z',
      '2026-03-11T10:00:00Z',
    );
    assert.equal(foreign.statusCode, 404, foreign.body);
    assert.equal(missing.statusCode, 404, missing.body);
    assert.deepEqual(foreign.json(), missing.json());
    assert.deepEqual(await listEntries(app, other.headers, DAY, '2026-03-12'), []);
  });

  test("409 on an overlap, naming the overlapped task's title; adjacent entries do not overlap", async () => {
    const { app, headers } = await setup();
    const report = await createTask(app, headers, { title: 'Write the quarterly report' });
    const other = await createTask(app, headers, { title: 'Email', startHHMM: '11:00', endHHMM: '12:00' });
    await addEntry(app, headers, report._id, '2026-03-11T10:00:00Z', '2026-03-11T11:00:00Z');
    const overlapping: Array<[string, string, string]> = [
      ['overlapping its end', '2026-03-11T10:30:00Z', '2026-03-11T11:30:00Z'],
      ['overlapping its start', '2026-03-11T09:30:00Z', '2026-03-11T10:01:00Z'],
      ['inside it', '2026-03-11T10:15:00Z', '2026-03-11T10:45:00Z'],
      ['around it', '2026-03-11T09:00:00Z', '2026-03-11T12:00:00Z'],
      ['the same span', '2026-03-11T10:00:00Z', '2026-03-11T11:00:00Z'],
      ['by one second', '2026-03-11T10:59:59Z', '2026-03-11T11:30:00Z'],
    ];
    for (const [what, start, end] of overlapping) {
      for (const taskId of [other._id, report._id]) {
        const response = await postEntry(app, headers, taskId, start, end);
        assert.equal(response.statusCode, 409, `${what}: ${response.body}`);
        assert.match(response.json().message, /Write the quarterly report/, what);
      }
    }
    const after = await addEntry(app, headers, other._id, '2026-03-11T11:00:00Z', '2026-03-11T12:00:00Z');
    const before = await addEntry(app, headers, other._id, '2026-03-11T09:00:00Z', '2026-03-11T10:00:00Z');
    assert.equal(after.start, '2026-03-11T11:00:00.000Z');
    assert.equal(before.end, '2026-03-11T10:00:00.000Z');
    assert.equal((await listEntries(app, headers, DAY, '2026-03-12')).length, 3);
    assert.equal((await taskOn(app, headers, DAY, report._id)).trackedMinutes, 60);
    assert.equal((await taskOn(app, headers, DAY, other._id)).trackedMinutes, 120);
  });

  test('an entry overlapping a running timer answers 409 naming the timed task', async () => {
    const { app, clock, headers } = await setup();
    const timed = await createTask(app, headers, {
      title: 'Timed thing',
      startHHMM: '14:00',
      endHHMM: '16:00',
    });
    const other = await createTask(app, headers, { title: 'Other' });
    await timer(app, headers, timed._id, 'start');
    clock.now += 30 * MINUTE;
    const response = await postEntry(app, headers, other._id, '2026-03-11T15:10:00Z', '2026-03-11T15:20:00Z');
    assert.equal(response.statusCode, 409, response.body);
    assert.match(response.json().message, /Timed thing/);
    await addEntry(app, headers, other._id, '2026-03-11T14:00:00Z', '2026-03-11T15:00:00Z');
  });
});

describe('PATCH /api/time-entries/:id', () => {
  test('moves, trims and reassigns an entry; a timer entry becomes manual; the tasks follow', async () => {
    const { app, clock, headers } = await setup();
    const write = await createTask(app, headers, { title: 'Write' });
    const read = await createTask(app, headers, { title: 'Read', startHHMM: '11:00', endHHMM: '12:00' });
    const entry = await addEntry(app, headers, write._id, '2026-03-11T09:00:00Z', '2026-03-11T10:00:00Z');

    const moved = await ok(app, headers, 'PATCH', `/api/time-entries/${entry.id}`, {
      start: '2026-03-11T10:00:00Z',
      end: '2026-03-11T11:00:00Z',
    });
    assert.deepEqual(moved, { ...entry, start: '2026-03-11T10:00:00.000Z', end: '2026-03-11T11:00:00.000Z' });

    const trimmed = await ok(app, headers, 'PATCH', `/api/time-entries/${entry.id}`, {
      end: '2026-03-11T10:40:00.500Z',
    });
    assert.equal(trimmed.end, '2026-03-11T10:40:00.000Z');
    assert.equal(trimmed.start, '2026-03-11T10:00:00.000Z');
    assert.equal((await taskOn(app, headers, DAY, write._id)).trackedMinutes, 40);

    const reassigned = await ok(app, headers, 'PATCH', `/api/time-entries/${entry.id}`, { taskId: read._id });
    assert.deepEqual(reassigned, { ...trimmed, taskId: read._id });
    assert.equal((await taskOn(app, headers, DAY, write._id)).trackedMinutes, 0);
    assert.equal((await taskOn(app, headers, DAY, read._id)).trackedMinutes, 40);
    assert.deepEqual(await listEntries(app, headers, DAY, '2026-03-12'), [reassigned]);

    // A timer's entry, edited, is manual from then on.
    clock.now = Date.parse('2026-03-11T13:00:00Z');
    await timer(app, headers, write._id, 'start');
    clock.now += 20 * MINUTE;
    await timer(app, headers, write._id, 'stop');
    const timed = (await listEntries(app, headers, DAY, '2026-03-12')).find((row) => row.source === 'timer');
    assert.ok(timed);
    const edited = await ok(app, headers, 'PATCH', `/api/time-entries/${timed.id}`, {
      start: '2026-03-11T12:50:00Z',
    });
    assert.equal(edited.source, 'manual');
    assert.equal((await taskOn(app, headers, DAY, write._id)).trackedMinutes, 30);
  });

  test('the same span rules as POST: 400 for a bad span, 409 on an overlap naming the task', async () => {
    const { app, headers } = await setup();
    const write = await createTask(app, headers, { title: 'Write' });
    const meet = await createTask(app, headers, {
      title: 'Team meeting',
      startHHMM: '11:00',
      endHHMM: '12:00',
    });
    const entry = await addEntry(app, headers, write._id, '2026-03-11T09:00:00Z', '2026-03-11T10:00:00Z');
    await addEntry(app, headers, meet._id, '2026-03-11T11:00:00Z', '2026-03-11T12:00:00Z');
    const url = `/api/time-entries/${entry.id}`;
    assertFieldError(
      await send(app, headers, 'PATCH', url, { end: '2026-03-11T08:00:00Z' }),
      'end',
      'end before start',
    );
    assertFieldError(
      await send(app, headers, 'PATCH', url, { start: '2026-03-10T08:59:59Z' }),
      'end',
      'over 24 h',
    );
    assertFieldError(
      await send(app, headers, 'PATCH', url, { end: '2026-03-11T16:00:00Z' }),
      'end',
      'in the future',
    );
    assertFieldError(await send(app, headers, 'PATCH', url, { start: 'noon' }), 'start', 'bad ISO');
    assertFieldError(await send(app, headers, 'PATCH', url, { source: 'timer' }), 'source', 'unknown field');
    const overlap = await send(app, headers, 'PATCH', url, { end: '2026-03-11T11:30:00Z' });
    assert.equal(overlap.statusCode, 409, overlap.body);
    assert.match(overlap.json().message, /Team meeting/);
    // Up to the next entry's start is not an overlap, and an entry never overlaps itself.
    const adjacent = await ok(app, headers, 'PATCH', url, { end: '2026-03-11T11:00:00Z' });
    assert.equal(adjacent.end, '2026-03-11T11:00:00.000Z');
    const same = await ok(app, headers, 'PATCH', url, { start: '2026-03-11T09:30:00Z' });
    assert.equal(same.start, '2026-03-11T09:30:00.000Z');
    const reassign = await send(app, headers, 'PATCH', url, {
      taskId: '00000000-0000-4000-8000-000000000000',
    });
    assert.equal(reassign.statusCode, 404, reassign.body);
    const missing = await send(
      app,
      headers,
      'PATCH',
      '/api/time-entries/00000000-0000-4000-8000-000000000000',
      { end: '2026-03-11T11:00:00Z' },
    );
    assert.equal(missing.statusCode, 404, missing.body);
  });

  test("a running entry's end answers 400; its start may move, and the timer then counts from there", async () => {
    const { app, clock, headers } = await setup();
    const task = await createTask(app, headers, { startHHMM: '14:00', endHHMM: '16:00' });
    await timer(app, headers, task._id, 'start');
    clock.now += 5 * MINUTE;
    const [running] = await listEntries(app, headers, DAY, '2026-03-12');
    assert.ok(running);
    const url = `/api/time-entries/${running.id}`;
    assertFieldError(
      await send(app, headers, 'PATCH', url, { end: '2026-03-11T15:04:00Z' }),
      'end',
      "a running entry's end",
    );

    const moved = await ok(app, headers, 'PATCH', url, { start: '2026-03-11T14:45:00Z' });
    assert.deepEqual(
      { start: moved.start, end: moved.end },
      { start: '2026-03-11T14:45:00.000Z', end: null },
    );
    assert.equal((await taskOn(app, headers, DAY, task._id)).timerStartedAt, '2026-03-11T14:45:00.000Z');
    const future = await send(app, headers, 'PATCH', url, { start: '2026-03-11T15:30:00Z' });
    assert.equal(future.statusCode, 400, future.body);

    clock.now += 5 * MINUTE; // 15:10
    const stopped = await timer(app, headers, task._id, 'stop');
    assert.equal(stopped.timerStartedAt, null);
    assert.equal(stopped.trackedMinutes, 25);
    const [closed] = await listEntries(app, headers, DAY, '2026-03-12');
    assert.deepEqual(
      { id: closed!.id, start: closed!.start, end: closed!.end },
      { id: running.id, start: '2026-03-11T14:45:00.000Z', end: '2026-03-11T15:10:00.000Z' },
    );
  });
});

describe('DELETE /api/time-entries/:id and its Undo', () => {
  test('delete then restore brings the same entry back and the task follows', async () => {
    const { app, headers } = await setup();
    const task = await createTask(app, headers);
    const kept = await addEntry(app, headers, task._id, '2026-03-11T08:00:00Z', '2026-03-11T08:20:00Z');
    const entry = await addEntry(app, headers, task._id, '2026-03-11T09:00:00Z', '2026-03-11T09:45:30Z');
    assert.equal((await taskOn(app, headers, DAY, task._id)).trackedMinutes, 66);

    const removed = await send(app, headers, 'DELETE', `/api/time-entries/${entry.id}`);
    assert.equal(removed.statusCode, 204, removed.body);
    assert.equal(removed.body, '');
    assert.deepEqual(await listEntries(app, headers, DAY, '2026-03-12'), [kept]);
    assert.equal((await taskOn(app, headers, DAY, task._id)).trackedMinutes, 20);
    const again = await send(app, headers, 'DELETE', `/api/time-entries/${entry.id}`);
    assert.equal(again.statusCode, 404, again.body);

    const restored = await send(app, headers, 'POST', `/api/time-entries/${entry.id}/restore`);
    assert.equal(restored.statusCode, 200, restored.body);
    assert.deepEqual(restored.json(), entry);
    assert.deepEqual(await listEntries(app, headers, DAY, '2026-03-12'), [kept, entry]);
    assert.equal((await taskOn(app, headers, DAY, task._id)).trackedMinutes, 66);
    const twice = await send(app, headers, 'POST', `/api/time-entries/${entry.id}/restore`);
    assert.equal(twice.statusCode, 404, twice.body);
  });

  test('restore is refused with 409 when an entry made since overlaps it, and nothing changes', async () => {
    const { app, headers } = await setup();
    const task = await createTask(app, headers);
    const other = await createTask(app, headers, { title: 'Since', startHHMM: '10:00', endHHMM: '11:00' });
    const entry = await addEntry(app, headers, task._id, '2026-03-11T09:00:00Z', '2026-03-11T10:00:00Z');
    await ok(app, headers, 'DELETE', `/api/time-entries/${entry.id}`);
    const since = await addEntry(app, headers, other._id, '2026-03-11T09:30:00Z', '2026-03-11T10:30:00Z');
    const refused = await send(app, headers, 'POST', `/api/time-entries/${entry.id}/restore`);
    assert.equal(refused.statusCode, 409, refused.body);
    assert.match(refused.json().message, /Since/);
    assert.deepEqual(await listEntries(app, headers, DAY, '2026-03-12'), [since]);
    assert.equal((await taskOn(app, headers, DAY, task._id)).trackedMinutes, 0);
    // Once the newer entry is gone, the Undo works.
    await ok(app, headers, 'DELETE', `/api/time-entries/${since.id}`);
    assert.deepEqual(await ok(app, headers, 'POST', `/api/time-entries/${entry.id}/restore`), entry);
  });

  test('restore answers 404 after an hour', async () => {
    const { app, clock, headers, signInAgain } = await setup();
    const task = await createTask(app, headers);
    const entry = await addEntry(app, headers, task._id, '2026-03-11T09:00:00Z', '2026-03-11T10:00:00Z');
    await ok(app, headers, 'DELETE', `/api/time-entries/${entry.id}`);
    clock.now += HOUR + MINUTE;
    await signInAgain();
    const late = await send(app, headers, 'POST', `/api/time-entries/${entry.id}/restore`);
    assert.equal(late.statusCode, 404, late.body);
    assert.deepEqual(await listEntries(app, headers, DAY, '2026-03-12'), []);
    assert.equal((await taskOn(app, headers, DAY, task._id)).trackedMinutes, 0);
  });

  test('another person cannot delete or restore an entry: 404 like a missing one', async () => {
    const { app, headers } = await setup();
    const other = await signUp(app, { timeZone: 'UTC' });
    const task = await createTask(app, headers);
    const entry = await addEntry(app, headers, task._id, '2026-03-11T09:00:00Z', '2026-03-11T10:00:00Z');
    for (const [method, url] of [
      ['DELETE', `/api/time-entries/${entry.id}`],
      ['PATCH', `/api/time-entries/${entry.id}`],
    ] as const) {
      const response = await send(
        app,
        other.headers,
        method,
        url,
        method === 'PATCH' ? { end: '2026-03-11T09:30:00Z' } : undefined,
      );
      assert.equal(response.statusCode, 404, `${method}: ${response.body}`);
    }
    await ok(app, headers, 'DELETE', `/api/time-entries/${entry.id}`);
    const foreignRestore = await send(app, other.headers, 'POST', `/api/time-entries/${entry.id}/restore`);
    assert.equal(foreignRestore.statusCode, 404, foreignRestore.body);
    assert.deepEqual(await ok(app, headers, 'POST', `/api/time-entries/${entry.id}/restore`), entry);
  });

  test('deleting a running entry stops the timer: the task has no timer and no tracked time', async () => {
    const { app, clock, headers } = await setup();
    const task = await createTask(app, headers, { startHHMM: '14:00', endHHMM: '16:00' });
    await timer(app, headers, task._id, 'start');
    clock.now += 5 * MINUTE;
    const [running] = await listEntries(app, headers, DAY, '2026-03-12');
    assert.equal(running!.end, null);
    await ok(app, headers, 'DELETE', `/api/time-entries/${running!.id}`);
    const after = await taskOn(app, headers, DAY, task._id);
    assert.equal(after.timerStartedAt, null);
    assert.equal(after.trackedMinutes, 0);
    assert.deepEqual(await listEntries(app, headers, DAY, '2026-03-12'), []);
    // Its Undo brings back the 5 minutes it ran (closed at the delete), not the time since.
    clock.now += 10 * MINUTE;
    const restored = await ok(app, headers, 'POST', `/api/time-entries/${running!.id}/restore`);
    assert.deepEqual(
      { start: restored.start, end: restored.end },
      { start: '2026-03-11T15:00:00.000Z', end: '2026-03-11T15:05:00.000Z' },
    );
    const back = await taskOn(app, headers, DAY, task._id);
    assert.equal(back.timerStartedAt, null);
    assert.equal(back.trackedMinutes, 5);
  });
});

describe('the timer records entries to the second (timer rules)', () => {
  test('stopping at 1 min 4 s records 64 s; a 40-second run is recorded', async () => {
    const { app, clock, headers } = await setup();
    const task = await createTask(app, headers, { startHHMM: '14:00', endHHMM: '16:00' });
    await timer(app, headers, task._id, 'start');
    clock.now += 64 * SECOND;
    await timer(app, headers, task._id, 'stop');
    clock.now += 10 * MINUTE;
    await timer(app, headers, task._id, 'start');
    clock.now += 40 * SECOND + 300;
    await timer(app, headers, task._id, 'stop');
    const entries = await listEntries(app, headers, DAY, '2026-03-12');
    assert.deepEqual(
      entries.map((entry) => ({ taskId: entry.taskId, length: lengthOf(entry), source: entry.source })),
      [
        { taskId: task._id, length: 64 * SECOND, source: 'timer' },
        { taskId: task._id, length: 40 * SECOND, source: 'timer' },
      ],
    );
    assert.equal(entries[0]!.start, '2026-03-11T15:00:00.000Z');
    assert.equal(entries[0]!.end, '2026-03-11T15:01:04.000Z');
    // 104 s in whole minutes.
    assert.equal((await taskOn(app, headers, DAY, task._id)).trackedMinutes, 2);
  });

  test('a half-second run records nothing', async () => {
    const { app, clock, headers } = await setup();
    const task = await createTask(app, headers, { startHHMM: '14:00', endHHMM: '16:00' });
    await timer(app, headers, task._id, 'start');
    clock.now += 500;
    const stopped = await timer(app, headers, task._id, 'stop');
    assert.equal(stopped.timerStartedAt, null);
    assert.deepEqual(await listEntries(app, headers, DAY, '2026-03-12'), []);
    assert.equal(stopped.trackedMinutes, 0);
  });

  test('a half-second run records nothing when it straddles a second boundary', async () => {
    const { app, clock, headers } = await setup();
    const task = await createTask(app, headers, { startHHMM: '14:00', endHHMM: '16:00' });
    clock.now = NOW + 700; // 15:00:00.700
    await timer(app, headers, task._id, 'start');
    clock.now += 500; // 15:00:01.200: the run lasted 0.5 s
    await timer(app, headers, task._id, 'stop');
    assert.deepEqual(
      await listEntries(app, headers, DAY, '2026-03-12'),
      [],
      'a run of 0.5 s is under a second whatever second it starts in',
    );
  });

  test('a timer left running stops at 12 hours', async () => {
    const { app, clock, headers, signInAgain } = await setup();
    const task = await createTask(app, headers, { startHHMM: '14:00', endHHMM: '16:00' });
    await timer(app, headers, task._id, 'start');
    clock.now += 13 * HOUR;
    await signInAgain();
    const [entry] = await listEntries(app, headers, DAY, '2026-03-13');
    assert.ok(entry);
    assert.equal(entry.end, '2026-03-12T03:00:00.000Z');
    const after = await taskOn(app, headers, DAY, task._id);
    assert.equal(after.timerStartedAt, null);
    assert.equal(after.trackedMinutes, 720);
  });

  test('timing a dismissed task answers 409 and opens no entry', async () => {
    const { app, headers } = await setup();
    const task = await createTask(app, headers, { startHHMM: '14:00', endHHMM: '16:00' });
    await ok(app, headers, 'PATCH', `/api/tasks/${task._id}`, { dismissed: true });
    const response = await send(app, headers, 'POST', `/api/tasks/${task._id}/timer/start`);
    assert.equal(response.statusCode, 409, response.body);
    assert.deepEqual(await listEntries(app, headers, DAY, '2026-03-12'), []);
  });
});

describe('PATCH /api/tasks/:id {trackedMinutes} is recorded as manual entries', () => {
  test('more minutes add one entry of the difference from the task start; fewer trim the latest entries first', async () => {
    const { app, headers } = await setup();
    const task = await createTask(app, headers);
    const raised = await ok(app, headers, 'PATCH', `/api/tasks/${task._id}`, { trackedMinutes: 30 });
    assert.equal(raised.trackedMinutes, 30);
    let entries = await listEntries(app, headers, DAY, '2026-03-12');
    assert.deepEqual(
      entries.map(({ start, end, source, taskId }) => ({ start, end, source, taskId })),
      [
        {
          start: '2026-03-11T09:00:00.000Z',
          end: '2026-03-11T09:30:00.000Z',
          source: 'manual',
          taskId: task._id,
        },
      ],
    );

    await ok(app, headers, 'PATCH', `/api/tasks/${task._id}`, { trackedMinutes: 45 });
    entries = await listEntries(app, headers, DAY, '2026-03-12');
    assert.equal(entries.length, 2, 'one more entry, of the difference');
    assert.deepEqual(
      entries.map(({ start, end }) => ({ start, end })),
      [
        { start: '2026-03-11T09:00:00.000Z', end: '2026-03-11T09:30:00.000Z' },
        { start: '2026-03-11T09:30:00.000Z', end: '2026-03-11T09:45:00.000Z' },
      ],
    );

    const lowered = await ok(app, headers, 'PATCH', `/api/tasks/${task._id}`, { trackedMinutes: 20 });
    assert.equal(lowered.trackedMinutes, 20);
    entries = await listEntries(app, headers, DAY, '2026-03-12');
    assert.deepEqual(
      entries.map(({ start, end }) => ({ start, end })),
      [{ start: '2026-03-11T09:00:00.000Z', end: '2026-03-11T09:20:00.000Z' }],
      'the latest entry went whole, the one before lost its end',
    );
    assert.equal((await taskOn(app, headers, DAY, task._id)).trackedMinutes, 20);

    const same = await ok(app, headers, 'PATCH', `/api/tasks/${task._id}`, { trackedMinutes: 20 });
    assert.equal(same.trackedMinutes, 20);
    assert.deepEqual(
      await listEntries(app, headers, DAY, '2026-03-12'),
      entries,
      'the same value changes nothing',
    );

    await ok(app, headers, 'PATCH', `/api/tasks/${task._id}`, { trackedMinutes: 0 });
    assert.deepEqual(await listEntries(app, headers, DAY, '2026-03-12'), []);
  });

  test("the added entry goes to the first free time from the task's start, past others' entries", async () => {
    const { app, headers } = await setup();
    const task = await createTask(app, headers);
    const busy = await createTask(app, headers, { title: 'Busy' });
    await addEntry(app, headers, busy._id, '2026-03-11T09:00:00Z', '2026-03-11T09:40:00Z');
    await ok(app, headers, 'PATCH', `/api/tasks/${task._id}`, { trackedMinutes: 15 });
    const mine = (await listEntries(app, headers, DAY, '2026-03-12')).filter(
      (entry) => entry.taskId === task._id,
    );
    assert.deepEqual(
      mine.map(({ start, end }) => ({ start, end })),
      [{ start: '2026-03-11T09:40:00.000Z', end: '2026-03-11T09:55:00.000Z' }],
    );
  });
});

describe('the time entries quota', () => {
  test('past quotas.timeEntries a new entry answers 409; deleting one makes room', async () => {
    const { app, headers } = await setup({ quotas: { timeEntries: 3 } });
    const task = await createTask(app, headers);
    const made: Entry[] = [];
    for (const hour of ['08', '09', '10']) {
      made.push(
        await addEntry(app, headers, task._id, `2026-03-11T${hour}:00:00Z`, `2026-03-11T${hour}:30:00Z`),
      );
    }
    const refused = await postEntry(app, headers, task._id, '2026-03-11T11:00:00Z', '2026-03-11T11:30:00Z');
    assert.equal(refused.statusCode, 409, refused.body);
    assert.match(refused.json().message, /limit of 3 time entries/);
    const timerRefused = await send(app, headers, 'POST', `/api/tasks/${task._id}/timer/start`);
    assert.equal(timerRefused.statusCode, 409, timerRefused.body);
    const raise = await send(app, headers, 'PATCH', `/api/tasks/${task._id}`, { trackedMinutes: 120 });
    assert.equal(raise.statusCode, 409, raise.body);
    assert.equal((await listEntries(app, headers, DAY, '2026-03-12')).length, 3);
    assert.equal((await taskOn(app, headers, DAY, task._id)).trackedMinutes, 90);

    await ok(app, headers, 'DELETE', `/api/time-entries/${made[0]!.id}`);
    await addEntry(app, headers, task._id, '2026-03-11T11:00:00Z', '2026-03-11T11:30:00Z');
    const full = await send(app, headers, 'POST', `/api/time-entries/${made[0]!.id}/restore`);
    assert.equal(full.statusCode, 409, `the Undo passes the quota too: ${full.body}`);
  });
});

describe('GET /api/insights/estimates', () => {
  async function seedInsights() {
    const { app, headers } = await setup();
    const work = await ok(app, headers, 'POST', '/api/categories', { name: 'Work', color: '#336699' });
    const home = await ok(app, headers, 'POST', '/api/categories', { name: 'Home', color: '#993366' });
    let slot = Date.parse('2026-03-02T06:00:00Z');
    /** A task with an estimate on `date`, `tracked` minutes of entries (each in its own free slot), done or not. */
    const taskWith = async (fields: {
      date: string;
      estimate: number;
      tracked: number;
      done?: boolean;
      dismissed?: boolean;
      categoryId?: string;
    }) => {
      const task = await ok(app, headers, 'POST', '/api/tasks', {
        title: `Task ${slot}`,
        date: fields.date,
        estimateMinutes: fields.estimate,
        ...(fields.categoryId === undefined
          ? { categoryId: work._id }
          : fields.categoryId
            ? { categoryId: fields.categoryId }
            : {}),
      });
      if (fields.tracked > 0) {
        const start = slot;
        slot += fields.tracked * MINUTE + HOUR;
        await addEntry(
          app,
          headers,
          task._id,
          new Date(start).toISOString(),
          new Date(start + fields.tracked * MINUTE).toISOString(),
        );
      }
      if (fields.done !== false || fields.dismissed) {
        await ok(app, headers, 'PATCH', `/api/tasks/${task._id}`, {
          done: fields.done !== false,
          ...(fields.dismissed ? { dismissed: true } : {}),
        });
      }
      return task;
    };
    // Five done Work tasks: 5 x 30 min estimated, 210 min tracked.
    for (const [date, tracked] of [
      ['2026-03-05', 40],
      ['2026-03-06', 45],
      ['2026-03-09', 30],
      ['2026-03-10', 50],
      [DAY, 45],
    ] as const) {
      await taskWith({ date, estimate: 30, tracked });
    }
    // Left out: not done, no entries, dismissed, older than the weeks asked.
    await taskWith({ date: '2026-03-09', estimate: 30, tracked: 90, done: false });
    await taskWith({ date: '2026-03-09', estimate: 30, tracked: 0 });
    await taskWith({ date: '2026-03-10', estimate: 30, tracked: 90, dismissed: true });
    const old = await taskWith({ date: '2026-01-07', estimate: 60, tracked: 0 });
    await addEntry(app, headers, old._id, '2026-01-07T10:00:00Z', '2026-01-07T11:30:00Z');
    // Home: one done task, 60 estimated, 30 tracked; a task of no category: 20 estimated, 25 tracked.
    await taskWith({ date: '2026-03-10', estimate: 60, tracked: 30, categoryId: home._id });
    await taskWith({ date: '2026-03-10', estimate: 20, tracked: 25, categoryId: '' });
    return { app, headers, work, home };
  }

  test('per category over done tasks with an estimate and entries; ratio = tracked / estimate at two decimals', async () => {
    const { app, headers, work, home } = await seedInsights();
    const insights = await ok(app, headers, 'GET', '/api/insights/estimates');
    assert.deepEqual(Object.keys(insights), ['categories']);
    const byId = new Map(insights.categories.map((row: { categoryId: string }) => [row.categoryId, row]));
    assert.deepEqual(byId.get(work._id), {
      categoryId: work._id,
      tasks: 5,
      estimateMinutes: 150,
      trackedMinutes: 210,
      ratio: 1.4,
    });
    assert.deepEqual(byId.get(home._id), {
      categoryId: home._id,
      tasks: 1,
      estimateMinutes: 60,
      trackedMinutes: 30,
      ratio: 0.5,
    });
    assert.deepEqual(byId.get(''), {
      categoryId: '',
      tasks: 1,
      estimateMinutes: 20,
      trackedMinutes: 25,
      ratio: 1.25,
    });
    assert.equal(insights.categories.length, 3);
    assert.equal(insights.categories[0].categoryId, work._id, 'the category with most tasks first');
  });

  test('weeks bounds the period: 1 week keeps the last 7 days, 10 weeks reaches the old task', async () => {
    const { app, headers, work } = await seedInsights();
    const workOf = async (weeks: number) =>
      (await ok(app, headers, 'GET', `/api/insights/estimates?weeks=${weeks}`)).categories.find(
        (row: { categoryId: string }) => row.categoryId === work._id,
      );
    // 5 to 11 March: all five.
    assert.equal((await workOf(1)).tasks, 5);
    assert.deepEqual(await workOf(10), {
      categoryId: work._id,
      tasks: 6,
      estimateMinutes: 210,
      trackedMinutes: 300,
      ratio: 1.43,
    });
  });

  test('weeks=0, 53 or not a whole number answers 400 naming weeks', async () => {
    const { app, headers } = await setup();
    for (const weeks of ['0', '53', '-1', '2.5', 'eight']) {
      const response = await send(app, headers, 'GET', `/api/insights/estimates?weeks=${weeks}`);
      assertFieldError(response, 'weeks', `weeks=${weeks}`);
    }
  });

  test('weeks=1 and weeks=52, the ends of the documented range, are accepted', async () => {
    const { app, headers } = await setup();
    for (const weeks of ['1', '8', '52']) {
      const response = await send(app, headers, 'GET', `/api/insights/estimates?weeks=${weeks}`);
      assert.equal(response.statusCode, 200, `weeks=${weeks}: ${response.body}`);
      assert.deepEqual(response.json(), { categories: [] });
    }
  });
});
