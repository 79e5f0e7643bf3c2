import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { InjectOptions } from 'fastify';
import { buildTestApp, signUp, type SignedInUser } from '../helpers.js';

interface Case {
  name: string;
  request: InjectOptions;
  status: number;
  /** The field of the first error, or the message, the client gets to see. */
  field?: string;
  message?: RegExp;
}

const NUL = '\u0000';

// One app for the whole file (helpers close it when the file ends): the cases only read, or fail before writing.
const { app } = await buildTestApp();
const owner: SignedInUser = await signUp(app, { timeZone: 'America/New_York' });
const other: SignedInUser = await signUp(app);

async function post(headers: Record<string, string>, url: string, payload: object) {
  const response = await app.inject({ method: 'POST', url, headers, payload });
  assert.ok(response.statusCode < 300, response.body);
  return response.json() as { _id: string };
}

const category = await post(owner.headers, '/api/categories', { name: 'Work' });
const foreignCategory = await post(other.headers, '/api/categories', { name: 'Theirs' });
const task = await post(owner.headers, '/api/tasks', {
  title: 'Plan',
  startHHMM: '09:00',
  endHHMM: '10:00',
  date: '2026-03-11',
});
const event = await post(owner.headers, '/api/events', {
  title: 'Call',
  start: '2026-03-11T14:00:00Z',
  end: '2026-03-11T15:00:00Z',
});

describe('every error is JSON {message} with a 4xx', () => {
  const json = (method: InjectOptions['method'], url: string, payload: unknown): InjectOptions => ({
    method,
    url,
    headers: { ...owner.headers, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
  const raw = (method: InjectOptions['method'], url: string, contentType: string, payload: string) => ({
    method,
    url,
    headers: { ...owner.headers, 'content-type': contentType },
    payload,
  });
  const get = (url: string): InjectOptions => ({ method: 'GET', url, headers: owner.headers });
  const newTask = (fields: object) => ({
    title: 'T',
    startHHMM: '09:00',
    endHHMM: '10:00',
    date: '2026-03-11',
    ...fields,
  });
  const newEvent = (fields: object) => ({
    title: 'E',
    start: '2026-03-11T10:00:00Z',
    end: '2026-03-11T11:00:00Z',
    ...fields,
  });
  const registration = (fields: object) => ({
    username: 'newcomer1',
    email: 'newcomer@example.com',
    password: 'Abcdef1!',
    name: 'New Comer',
    ...fields,
  });

  const cases = (): Case[] => [
    // Bodies the parser refuses
    {
      name: 'malformed JSON',
      request: raw('POST', '/api/tasks', 'application/json', '{"title": '),
      status: 400,
      message: /Malformed JSON/,
    },
    {
      name: 'text/plain body',
      request: raw('POST', '/api/categories', 'text/plain', '{"name":"Work"}'),
      status: 415,
      message: /application\/json/,
    },
    {
      name: 'form-encoded body',
      request: raw('POST', '/api/categories', 'application/x-www-form-urlencoded', 'name=Work'),
      status: 415,
    },
    {
      name: 'XML body',
      request: raw('PATCH', `/api/tasks/${task._id}`, 'application/xml', '<done>true</done>'),
      status: 415,
    },
    {
      name: 'oversized body',
      request: json('POST', '/api/categories', { name: 'x'.repeat(200 * 1024) }),
      status: 413,
      message: /too large/,
    },
    {
      name: 'a JSON array instead of an object',
      request: json('POST', '/api/events', [1, 2]),
      status: 400,
      field: 'body',
    },
    {
      name: 'JSON nested 20,000 deep',
      request: raw(
        'POST',
        '/api/categories',
        'application/json',
        `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
      ),
      status: 400,
    },
    { name: 'no body', request: { method: 'POST', url: '/api/tasks', headers: owner.headers }, status: 400 },
    // Unknown properties and wrong types
    {
      name: 'unknown property on a category',
      request: json('POST', '/api/categories', { name: 'Ok', owner: 'x' }),
      status: 400,
      field: 'owner',
    },
    {
      name: 'unknown property on a task edit',
      request: json('PATCH', `/api/tasks/${task._id}`, { done: true, priority: 1 }),
      status: 400,
      field: 'priority',
    },
    {
      name: 'unknown property on an event',
      request: json('POST', '/api/events', newEvent({ color: '#fff' })),
      status: 400,
      field: 'color',
    },
    {
      name: 'unknown property on registration',
      request: json('POST', '/api/auth/register/user', registration({ role: 'admin' })),
      status: 400,
      field: 'role',
    },
    {
      name: 'a number for a string',
      request: json('POST', '/api/tasks', newTask({ title: 42 })),
      status: 400,
      field: 'title',
    },
    {
      name: 'a string for a boolean',
      request: json('PATCH', `/api/tasks/${task._id}`, { done: 'true' }),
      status: 400,
      field: 'done',
    },
    {
      name: 'a string for a number',
      request: json('PATCH', '/api/users/me', { budgetHours: '8' }),
      status: 400,
      field: 'budgetHours',
    },
    // NUL and other control characters, in every kind of string the API stores or looks up
    ...(
      [
        ['category name', 'POST', '/api/categories', { name: `Wo${NUL}rk` }, 'name'],
        ['task title', 'POST', '/api/tasks', newTask({ title: `a${NUL}b` }), 'title'],
        ['task notes', 'POST', '/api/tasks', newTask({ notes: `a${NUL}` }), 'notes'],
        ['task edit', 'PATCH', `/api/tasks/${task._id}`, { title: 'a\u0001b' }, 'title'],
        ['event title', 'POST', '/api/events', newEvent({ title: `a${NUL}` }), 'title'],
        [
          'registration name',
          'POST',
          '/api/auth/register/user',
          registration({ name: `Na${NUL}me12` }),
          'name',
        ],
        [
          'registration email',
          'POST',
          '/api/auth/register/user',
          registration({ email: `a${NUL}b@example.com` }),
          'email',
        ],
        [
          'profile picture',
          'POST',
          '/api/auth/register/user',
          registration({ profilePicture: `x${NUL}` }),
          'profilePicture',
        ],
        ['login name', 'POST', '/api/auth/login', { username: `ab${NUL}`, password: 'Abcdef1!' }, 'username'],
        ['profile name', 'PATCH', '/api/users/me', { name: `Hello${NUL}World` }, 'name'],
        ['an object key', 'POST', '/api/categories', { [`na${NUL}me`]: 'x' }, 'body'],
      ] as const
    ).map(([where, method, url, payload, field]): Case => ({
      name: `NUL or a control character in the ${where}`,
      request: json(method, url, payload),
      status: 400,
      field,
      message: /Validation failed/,
    })),
    // Lengths
    {
      name: 'a too-long task title',
      request: json('POST', '/api/tasks', newTask({ title: 'x'.repeat(201) })),
      status: 400,
      field: 'title',
    },
    {
      name: 'a too-long category name',
      request: json('POST', '/api/categories', { name: 'x'.repeat(41) }),
      status: 400,
      field: 'name',
    },
    {
      name: 'a too-long note',
      request: json('POST', '/api/tasks', newTask({ notes: 'x'.repeat(5001) })),
      status: 400,
      field: 'notes',
    },
    // Impossible and out-of-range dates and times
    {
      name: '30 February on a task',
      request: json('POST', '/api/tasks', newTask({ date: '2026-02-30' })),
      status: 400,
      field: 'date',
    },
    {
      name: '25:00 on a task',
      request: json('POST', '/api/tasks', newTask({ startHHMM: '25:00' })),
      status: 400,
      field: 'startHHMM',
    },
    {
      name: '30 February on an event',
      request: json('POST', '/api/events', newEvent({ start: '2026-02-30T10:00:00Z' })),
      status: 400,
      field: 'start',
    },
    {
      name: '25:00 on an event',
      request: json('POST', '/api/events', newEvent({ end: '2026-03-11T25:00:00Z' })),
      status: 400,
      field: 'end',
    },
    {
      name: 'an event in year 9999',
      request: json('POST', '/api/events', newEvent({ end: '9999-12-31T23:00:00Z' })),
      status: 400,
      field: 'end',
      message: /between/,
    },
    {
      name: 'a task in year 9999',
      request: json('POST', '/api/tasks', newTask({ date: '9999-12-31' })),
      status: 400,
      field: 'date',
    },
    {
      name: 'analytics for the last week of year 9999',
      request: get('/api/aggregation/analytics/weekly?date=9999-12-31'),
      status: 400,
      field: 'date',
    },
    {
      name: 'a put-back to an impossible instant',
      request: json('PATCH', `/api/tasks/${task._id}`, { start: '2026-03-11T24:30:00Z' }),
      status: 400,
      field: 'start',
    },
    // An end that leaves no time
    {
      name: 'a task ending when it starts (an earlier end is the next day)',
      request: json('POST', '/api/tasks', newTask({ startHHMM: '10:00', endHHMM: '10:00' })),
      status: 400,
      field: 'endHHMM',
    },
    {
      name: 'an event ending before it starts',
      request: json('POST', '/api/events', newEvent({ end: '2026-03-11T09:00:00Z' })),
      status: 400,
      field: 'end',
    },
    {
      name: 'an event moved to end before it starts',
      request: json('PATCH', `/api/events/${event._id}`, { start: '2026-03-11T16:00:00Z' }),
      status: 400,
      field: 'end',
    },
    // Category ids
    {
      name: 'an unknown category id',
      request: json('POST', '/api/tasks', newTask({ categoryId: 'no-such-category' })),
      status: 400,
      field: 'categoryId',
    },
    {
      name: "another user's category id",
      request: json('POST', '/api/tasks', newTask({ categoryId: foreignCategory._id })),
      status: 400,
      field: 'categoryId',
    },
    {
      name: "an edit onto another user's category",
      request: json('PATCH', `/api/tasks/${task._id}`, { categoryId: foreignCategory._id }),
      status: 400,
      field: 'categoryId',
    },
    // Query strings
    { name: 'GET /tasks without date', request: get('/api/tasks'), status: 400, field: 'date' },
    { name: 'GET /tasks with done only', request: get('/api/tasks?done=false'), status: 400, field: 'date' },
    {
      name: 'GET /tasks with a bad date',
      request: get('/api/tasks?date=2026-02-30'),
      status: 400,
      field: 'date',
    },
    {
      name: 'GET /tasks with done=maybe',
      request: get('/api/tasks?date=2026-03-11&done=maybe'),
      status: 400,
    },
    {
      name: 'GET /tasks with two dates',
      request: get('/api/tasks?date=2026-03-11&date=2026-03-12'),
      status: 400,
    },
    {
      name: 'GET /tasks with an unknown parameter',
      request: get('/api/tasks?date=2026-03-11&x=1'),
      status: 400,
    },
    { name: 'GET /events without a range', request: get('/api/events'), status: 400, field: 'from' },
    {
      name: 'GET /events with from after to',
      request: get('/api/events?from=2026-03-10&to=2026-03-01'),
      status: 400,
      field: 'to',
    },
    {
      name: 'GET /events with a malformed from',
      request: get('/api/events?from=March&to=2026-03-01'),
      status: 400,
      field: 'from',
    },
    {
      name: 'analytics with a malformed date',
      request: get('/api/aggregation/analytics/weekly?date=2026-3-1'),
      status: 400,
      field: 'date',
    },
    // Ids in the URL that could never have been issued answer like a missing id
    ...['tasks', 'events', 'categories'].flatMap((resource) =>
      ['%ff', '%zz', 'a%00b', 'a%01b', 'x'.repeat(300), "1' or '1'='1", '..%2F..%2Fetc'].flatMap((id) =>
        (['PATCH', 'DELETE'] as const).map((method): Case => ({
          name: `${method} /${resource}/${id.slice(0, 12)}`,
          request:
            method === 'PATCH'
              ? json(
                  method,
                  `/api/${resource}/${id}`,
                  resource === 'categories' ? { name: 'x' } : { title: 'x' },
                )
              : { method, url: `/api/${resource}/${id}`, headers: owner.headers },
          status: 404,
        })),
      ),
    ),
    // Unknown routes and methods
    { name: 'an unknown route', request: get('/api/nothing'), status: 404 },
    {
      name: 'PUT on a task',
      request: json('PUT', `/api/tasks/${task._id}`, {}),
      status: 404,
    },
  ];

  test('each malformed request gets the documented 4xx and a JSON message, never internals', async () => {
    const failures: string[] = [];
    for (const { name, request, status, field, message } of cases()) {
      const response = await app.inject(request);
      const problems: string[] = [];
      if (response.statusCode !== status) problems.push(`status ${response.statusCode}, expected ${status}`);
      if (!/^application\/json/.test(String(response.headers['content-type']))) problems.push('not JSON');
      let body: { message?: unknown; errors?: Array<{ field: string; message: string }> } = {};
      try {
        body = response.json();
      } catch {
        problems.push('unparseable body');
      }
      if (typeof body.message !== 'string' || body.message.length === 0) problems.push('no message');
      const extraKeys = Object.keys(body).filter((key) => key !== 'message' && key !== 'errors');
      if (extraKeys.length > 0) problems.push(`extra keys ${extraKeys.join(', ')}`);
      if (field !== undefined && body.errors?.[0]?.field !== field) problems.push(`field is not ${field}`);
      if (message && !message.test(String(body.message))) problems.push(`message does not match ${message}`);
      if (problems.length > 0)
        failures.push(`${name}: ${problems.join('; ')}: ${response.body.slice(0, 200)}`);
    }
    assert.deepEqual(failures, []);
  });

  test('an id that cannot exist answers exactly like a missing one', async () => {
    for (const [resource, message] of [
      ['tasks', 'Task not found'],
      ['events', 'Event not found'],
      ['categories', 'Category not found'],
    ] as const) {
      const missing = await app.inject({
        method: 'DELETE',
        url: `/api/${resource}/00000000-0000-0000-0000-000000000000`,
        headers: owner.headers,
      });
      const garbage = await app.inject({
        method: 'DELETE',
        url: `/api/${resource}/a%00b`,
        headers: owner.headers,
      });
      assert.deepEqual(missing.json(), { message });
      assert.deepEqual(garbage.json(), missing.json());
    }
  });

  test('nothing that was refused was stored', async () => {
    const tasks = await app.inject(get('/api/tasks?date=2026-03-11'));
    assert.deepEqual(
      tasks.json().tasks.map((item: { title: string }) => item.title),
      ['Plan'],
    );
    const categories = await app.inject(get('/api/categories'));
    assert.deepEqual(
      categories.json().map((item: { _id: string }) => item._id),
      [category._id],
    );
  });
});
