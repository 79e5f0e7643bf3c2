import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { InjectOptions } from 'fastify';
import { buildTestApp, signUp } from '../helpers.js';

const NOW = Date.parse('2026-03-11T15:00:00Z');
const MISSING_ID = '00000000-0000-0000-0000-000000000000';

// One app for the file: the owner's data is built once and every intrusion is checked against it.
const { app } = await buildTestApp({ now: NOW });
const owner = await signUp(app, { timeZone: 'Europe/Paris' });
const intruder = await signUp(app, { timeZone: 'Europe/Paris' });

async function post(headers: Record<string, string>, url: string, payload: object) {
  const response = await app.inject({ method: 'POST', url, headers, payload });
  assert.ok(response.statusCode < 300, response.body);
  return response.json();
}

const ownerCategory = await post(owner.headers, '/api/categories', { name: 'Private', color: '#123456' });
const ownerTask = await post(owner.headers, '/api/tasks', {
  title: 'Secret plan',
  categoryId: ownerCategory._id,
  startHHMM: '09:00',
  endHHMM: '11:00',
  date: '2026-03-11',
});
const ownerEvent = await post(owner.headers, '/api/events', {
  title: 'Secret meeting',
  start: '2026-03-11T10:00:00Z',
  end: '2026-03-11T11:00:00Z',
});
await app.inject({ method: 'POST', url: '/api/aggregation/analytics/weekly/update', headers: owner.headers });
const intruderTask = await post(intruder.headers, '/api/tasks', {
  title: 'Mine',
  startHHMM: '12:00',
  endHHMM: '13:00',
  date: '2026-03-11',
});

async function ownerSnapshot() {
  const exported = await app.inject({ method: 'GET', url: '/api/users/me/export', headers: owner.headers });
  const { categories, tasks, events } = exported.json();
  return { categories, tasks, events };
}
const ownerDataBefore = await ownerSnapshot();

describe("another user's records", () => {
  test('every verb on every record answers exactly like a missing id', async () => {
    const records = [
      ['tasks', ownerTask._id, { done: true, title: 'Taken over' }],
      ['events', ownerEvent._id, { title: 'Taken over', start: '2026-03-12T10:00:00Z' }],
      ['categories', ownerCategory._id, { name: 'Taken over', color: '#000000' }],
    ] as const;
    for (const [resource, id, changes] of records) {
      for (const method of ['GET', 'PATCH', 'DELETE', 'PUT', 'POST'] as const) {
        const request = (target: string): InjectOptions => ({
          method,
          url: `/api/${resource}/${target}`,
          headers: intruder.headers,
          ...(method === 'PATCH' || method === 'PUT' || method === 'POST' ? { payload: changes } : {}),
        });
        const foreign = await app.inject(request(id));
        const missing = await app.inject(request(MISSING_ID));
        assert.equal(foreign.statusCode, 404, `${method} ${resource}: ${foreign.body}`);
        assert.deepEqual(foreign.json(), missing.json(), `${method} ${resource}`);
      }
    }
    assert.deepEqual(await ownerSnapshot(), ownerDataBefore);
  });

  test('no list, day, range, analytics or export shows them', async () => {
    const reads = [
      '/api/tasks?date=2026-03-11',
      '/api/tasks?date=2026-03-11&done=false',
      '/api/tasks/today',
      '/api/events?from=2026-03-01&to=2026-04-01',
      '/api/events/today',
      '/api/categories',
      '/api/aggregation/analytics/weekly?date=2026-03-11',
      '/api/users/me/export',
      '/api/events/export.ics',
    ];
    for (const url of reads) {
      const response = await app.inject({ method: 'GET', url, headers: intruder.headers });
      assert.equal(response.statusCode, 200, url);
      for (const secret of ['Secret plan', 'Secret meeting', 'Private', ownerTask._id, ownerEvent._id]) {
        assert.equal(response.body.includes(secret), false, `${url} shows ${secret}`);
      }
    }
    const today = (
      await app.inject({ method: 'GET', url: '/api/tasks/today', headers: intruder.headers })
    ).json();
    assert.equal(today.spentHours, 1);
    const week = (
      await app.inject({
        method: 'GET',
        url: '/api/aggregation/analytics/weekly?date=2026-03-11',
        headers: intruder.headers,
      })
    ).json();
    assert.equal(week.totalMinutes, 60);
    assert.deepEqual(week.byCategory, []);
    const exported = (
      await app.inject({ method: 'GET', url: '/api/users/me/export', headers: intruder.headers })
    ).json();
    assert.deepEqual(exported.analyticsSnapshots, []);
  });

  test("a task can never point at another user's category", async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/api/tasks',
      headers: intruder.headers,
      payload: { title: 'x', categoryId: ownerCategory._id, startHHMM: '09:00', endHHMM: '10:00' },
    });
    assert.equal(created.statusCode, 400);
    assert.equal(created.json().errors[0].field, 'categoryId');
    const edited = await app.inject({
      method: 'PATCH',
      url: `/api/tasks/${intruderTask._id}`,
      headers: intruder.headers,
      payload: { categoryId: ownerCategory._id },
    });
    assert.equal(edited.statusCode, 400);
    assert.equal(edited.json().errors[0].field, 'categoryId');
  });

  test('no write can move a record to another user or onto another record', async () => {
    const attempts: Array<[string, string, object]> = [
      [`/api/tasks/${intruderTask._id}`, 'userId', { userId: owner.user.id }],
      [`/api/tasks/${intruderTask._id}`, 'user', { user: owner.user.id }],
      [`/api/tasks/${intruderTask._id}`, '_id', { _id: ownerTask._id, title: 'Overwrite' }],
      ['/api/categories', 'userId', { name: 'x', userId: owner.user.id }],
      ['/api/events', 'userId', { title: 'x', start: NOW, end: NOW, userId: owner.user.id }],
    ];
    for (const [url, field, payload] of attempts) {
      const response = await app.inject({
        method: url.split('/').length > 3 ? 'PATCH' : 'POST',
        url,
        headers: intruder.headers,
        payload,
      });
      assert.equal(response.statusCode, 400, `${url} ${JSON.stringify(payload)}: ${response.body}`);
      assert.equal(response.json().errors[0].field, field, response.body);
    }
    const intruderTasks = await app.inject({
      method: 'GET',
      url: '/api/tasks?date=2026-03-11',
      headers: intruder.headers,
    });
    assert.deepEqual(intruderTasks.json().tasks, [intruderTask]);
    assert.deepEqual(await ownerSnapshot(), ownerDataBefore);
  });

  test("importing another user's export copies the events and leaves theirs alone", async () => {
    const exported = await app.inject({
      method: 'GET',
      url: '/api/events/export.ics',
      headers: owner.headers,
    });
    const boundary = 'scoping-boundary';
    const payload = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="theirs.ics"\r\n` +
        `Content-Type: text/calendar\r\n\r\n${exported.body}\r\n--${boundary}--\r\n`,
    );
    const imported = await app.inject({
      method: 'POST',
      url: '/api/events/import',
      headers: { ...intruder.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    assert.deepEqual(imported.json(), { created: 1, updated: 0, skipped: 0 });
    const copies = (
      await app.inject({
        method: 'GET',
        url: '/api/events?from=2026-03-01&to=2026-04-01',
        headers: intruder.headers,
      })
    ).json();
    assert.equal(copies.length, 1);
    assert.notEqual(copies[0]._id, ownerEvent._id);
    assert.deepEqual(await ownerSnapshot(), ownerDataBefore);
  });
});
