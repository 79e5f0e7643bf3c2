import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { TRASH_LIMITS } from '../../src/plugins/app/trash-repository.js';
import { buildTestApp, signUp, send } from '../helpers.js';

type Headers = Record<string, string>;

const samples = {
  tasks: {
    title: 'Write report',
    categoryId: '',
    startHHMM: '09:00',
    endHHMM: '10:30',
    notes: 'Quarterly numbers',
    date: '2026-03-11',
    done: true,
    isEvent: false,
    isReminder: true,
    carryover: false,
  },
  events: {
    title: 'Dentist',
    start: '2026-03-11T14:00:00.000Z',
    end: '2026-03-11T15:00:00.000Z',
    allDay: false,
  },
  categories: { name: 'Health', color: '#E0533D' },
} as const;

type Kind = keyof typeof samples;
const LIST_QUERY: Record<Kind, string> = {
  tasks: '?date=2026-03-11',
  events: '?from=2026-03-10&to=2026-03-12',
  categories: '',
};
const KINDS = Object.keys(samples) as Kind[];

async function create(app: FastifyInstance, headers: Headers, kind: Kind, changes: object = {}) {
  const response = await send(app, headers, 'POST', `/api/${kind}`, { ...samples[kind], ...changes });
  assert.equal(response.statusCode, 201, response.body);
  return response.json() as { _id: string };
}

const remove = (app: FastifyInstance, headers: Headers, kind: Kind, id: string) =>
  app.inject({ method: 'DELETE', url: `/api/${kind}/${id}`, headers });
const restore = (app: FastifyInstance, headers: Headers, kind: Kind, id: string) =>
  app.inject({ method: 'POST', url: `/api/${kind}/${id}/restore`, headers });

describe('undoing a delete', () => {
  for (const kind of KINDS) {
    test(`a deleted ${kind.slice(0, -1)} comes back whole, with its id, once`, async () => {
      const { app } = await buildTestApp();
      const { headers } = await signUp(app);
      const created = await create(app, headers, kind);
      assert.equal((await remove(app, headers, kind, created._id)).statusCode, 204);
      const listed = async () => {
        const response = await app.inject({ method: 'GET', url: `/api/${kind}${LIST_QUERY[kind]}`, headers });
        assert.equal(response.statusCode, 200, response.body);
        return response.body;
      };
      assert.doesNotMatch(await listed(), new RegExp(created._id));

      const restored = await restore(app, headers, kind, created._id);
      assert.equal(restored.statusCode, 200, restored.body);
      assert.deepEqual(restored.json(), created);
      assert.match(await listed(), new RegExp(created._id));

      const again = await restore(app, headers, kind, created._id);
      assert.equal(again.statusCode, 404);
      assert.match(again.json().message, /Nothing to undo/);
    });
  }

  test("one user cannot bring back another's record, and a delete is undone only within the hour", async () => {
    const { app, clock } = await buildTestApp();
    const owner = await signUp(app);
    const stranger = await signUp(app);
    const task = await create(app, owner.headers, 'tasks');
    await remove(app, owner.headers, 'tasks', task._id);
    assert.equal((await restore(app, stranger.headers, 'tasks', task._id)).statusCode, 404);

    clock.now += TRASH_LIMITS.keptMs + 1;
    // The session has idled out meanwhile: sign in again.
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: owner.user.username, password: owner.password },
    });
    const late = await restore(app, { authorization: `Bearer ${login.json().token}` }, 'tasks', task._id);
    assert.equal(late.statusCode, 404);
    assert.match(late.json().message, /not deleted in the last hour/);
  });

  test('a restore that would clash or break a quota is refused with 409, and stays possible', async () => {
    const { app } = await buildTestApp({
      config: { quotas: { events: 5, tasks: 1, categories: 5, timeEntries: 100 } },
    });
    const { headers } = await signUp(app);
    const health = await create(app, headers, 'categories');
    await remove(app, headers, 'categories', health._id);
    const newHealth = await create(app, headers, 'categories', { name: 'HEALTH' });
    const clash = await restore(app, headers, 'categories', health._id);
    assert.equal(clash.statusCode, 409);
    assert.match(clash.json().message, /A tag named "HEALTH" already exists/);
    await remove(app, headers, 'categories', newHealth._id);
    assert.equal((await restore(app, headers, 'categories', health._id)).statusCode, 200);

    const task = await create(app, headers, 'tasks');
    await remove(app, headers, 'tasks', task._id);
    await create(app, headers, 'tasks');
    const full = await restore(app, headers, 'tasks', task._id);
    assert.equal(full.statusCode, 409);
    assert.match(full.json().message, /limit of 1 tasks/);
  });

  test(`an account keeps at most ${TRASH_LIMITS.perUser} deleted records`, async () => {
    const { app, clock } = await buildTestApp();
    const { headers } = await signUp(app);
    const ids: string[] = [];
    for (let index = 0; index <= TRASH_LIMITS.perUser; index += 1) {
      const category = await create(app, headers, 'categories', { name: `Tag ${index}` });
      clock.now += 1;
      await remove(app, headers, 'categories', category._id);
      ids.push(category._id);
    }
    assert.equal((await restore(app, headers, 'categories', ids[0]!)).statusCode, 404, 'the oldest is gone');
    assert.equal((await restore(app, headers, 'categories', ids[1]!)).statusCode, 200);
    assert.equal((await restore(app, headers, 'categories', ids.at(-1)!)).statusCode, 200);
  });

  test("an account's trash is bounded in bytes: the oldest deletes lose their Undo first, one over the bound alone is not kept", async () => {
    const bytesPerUser = 4000;
    const { app, clock } = await buildTestApp({
      config: {
        trash: { ...TRASH_LIMITS, bytesPerUser },
        quotas: { events: 100, tasks: 100, categories: 5, timeEntries: 100 },
      },
    });
    const { headers } = await signUp(app);
    // About 1,600 bytes each as stored: two fit in the bound, three do not.
    const tasks: string[] = [];
    for (const title of ['First', 'Second', 'Third']) {
      const task = await create(app, headers, 'tasks', { title, notes: 'n'.repeat(1000) });
      clock.now += 1;
      assert.equal((await remove(app, headers, 'tasks', task._id)).statusCode, 204);
      tasks.push(task._id);
    }
    const [first, second, third] = tasks as [string, string, string];
    assert.equal((await restore(app, headers, 'tasks', first)).statusCode, 404, 'the oldest lost its Undo');
    assert.equal((await restore(app, headers, 'tasks', third)).statusCode, 200);
    assert.equal((await remove(app, headers, 'tasks', third)).statusCode, 204);

    // Larger than the bound on its own: deleted all the same, not kept, and the others keep their Undo.
    const large = await create(app, headers, 'tasks', { notes: 'n'.repeat(5000) });
    assert.equal((await remove(app, headers, 'tasks', large._id)).statusCode, 204);
    assert.equal((await restore(app, headers, 'tasks', large._id)).statusCode, 404);
    const listed = await app.inject({ method: 'GET', url: `/api/tasks${LIST_QUERY.tasks}`, headers });
    assert.doesNotMatch(listed.body, new RegExp(large._id));
    assert.equal((await restore(app, headers, 'tasks', second)).statusCode, 200);
    assert.equal((await restore(app, headers, 'tasks', third)).statusCode, 200);

    // A series with its edited occurrences is one entry: over the bound, the delete still takes them all.
    const series = await create(app, headers, 'events', { rrule: 'FREQ=DAILY;COUNT=40' });
    const week = `/api/events?from=2026-03-11&to=2026-03-18`;
    const occurrences = (await send(app, headers, 'GET', week)).json() as Array<{ _id: string }>;
    for (const occurrence of occurrences) {
      const edit = { title: `Dentist ${'d'.repeat(150)}` };
      assert.equal(
        (await send(app, headers, 'PATCH', `/api/events/${occurrence._id}`, edit)).statusCode,
        200,
      );
    }
    assert.equal((await remove(app, headers, 'events', series._id)).statusCode, 204);
    assert.deepEqual((await send(app, headers, 'GET', week)).json(), []);
    assert.equal((await restore(app, headers, 'events', series._id)).statusCode, 404);
    const stored = await app.db.selectFrom('events').select('id').execute();
    assert.deepEqual(stored, [], 'no override outlived its series');
  });

  test('a restore passes the quota as a create does: a full account gets its 409 and nothing of the delete comes back', async () => {
    const { app } = await buildTestApp({
      config: { quotas: { events: 5, tasks: 2, categories: 5, timeEntries: 100 } },
    });
    const { headers } = await signUp(app);
    const day = async () => {
      const response = await app.inject({ method: 'GET', url: '/api/tasks?date=2026-03-12', headers });
      return (response.json().tasks as Array<{ _id: string; title: string }>).map((task) => task.title);
    };
    const series = {
      title: 'Stretch',
      date: '2026-03-11',
      startHHMM: '08:00',
      endHHMM: '08:30',
      rrule: 'FREQ=DAILY;COUNT=3',
    };
    assert.equal((await send(app, headers, 'POST', '/api/tasks', series)).statusCode, 201);
    const [occurrence] = (
      await app.inject({ method: 'GET', url: '/api/tasks?date=2026-03-12', headers })
    ).json().tasks as Array<{ _id: string }>;
    const edited = await send(app, headers, 'PATCH', `/api/tasks/${occurrence!._id}`, {
      title: 'Long stretch',
    });
    assert.equal(edited.statusCode, 200);
    assert.equal((await remove(app, headers, 'tasks', occurrence!._id)).statusCode, 204);
    assert.deepEqual(await day(), []);
    const filler = await create(app, headers, 'tasks');

    const full = await restore(app, headers, 'tasks', occurrence!._id);
    assert.equal(full.statusCode, 409);
    assert.equal(
      full.json().message,
      'You have reached the limit of 2 tasks; delete some before adding more',
    );
    assert.deepEqual(await day(), [], 'the refused Undo brought the occurrence back all the same');

    await remove(app, headers, 'tasks', filler._id);
    assert.equal((await restore(app, headers, 'tasks', occurrence!._id)).statusCode, 200);
    assert.deepEqual(await day(), ['Long stretch']);
  });

  test('deleting what does not exist still answers 404', async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app);
    for (const kind of KINDS) {
      const response = await remove(app, headers, kind, 'no-such-id');
      assert.equal(response.statusCode, 404);
    }
  });
});
