import assert from 'node:assert/strict';
import { setTimeout as pause } from 'node:timers/promises';
import { after, describe, mock, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { TRASH_SWEEP_INTERVAL_MS } from '../../src/plugins/app/trash-sweep.js';
import { TRASH_LIMITS } from '../../src/plugins/app/trash-repository.js';
import { buildTestApp, send, signUp, withSchemaLock } from '../helpers.js';

// Only the app's interval is driven by hand; the database's and the test's own waits keep real timers.
mock.timers.enable({ apis: ['setInterval'] });
after(() => mock.timers.reset());

const HOUR = TRASH_LIMITS.keptMs;

/** A task of the user, deleted through the API at the app's current time. */
async function deletedTask(app: FastifyInstance, headers: Record<string, string>, title: string) {
  const created = await send(app, headers, 'POST', '/api/tasks', {
    title,
    date: '2026-03-11',
    startHHMM: '09:00',
    endHHMM: '10:00',
  });
  assert.equal(created.statusCode, 201, created.body);
  const id = (created.json() as { _id: string })._id;
  assert.equal((await send(app, headers, 'DELETE', `/api/tasks/${id}`)).statusCode, 204);
  return id;
}

const trashOf = async (app: FastifyInstance) =>
  (await app.db.selectFrom('deletedRecords').select('recordId').orderBy('deletedAt').execute()).map(
    (entry) => entry.recordId,
  );

async function waitFor(condition: () => Promise<boolean>, what: string) {
  for (let waited = 0; !(await condition()); waited += 20) {
    if (waited > 3000) assert.fail(`still waiting for ${what}`);
    await pause(20);
  }
}

describe('the expired trash of every account is deleted', () => {
  test('every few minutes, though neither account deletes anything again', async () => {
    const { app, clock } = await buildTestApp();
    const first = await signUp(app);
    const second = await signUp(app);
    // The diagnosis appointment of the review: deleted once, then never another delete by that account.
    const diagnosis = await deletedTask(app, first.headers, 'Diagnosis appointment (private)');
    const other = await deletedTask(app, second.headers, 'Call the bank');
    clock.now += HOUR - 60_000;
    // The session has idled out meanwhile: sign in again.
    const login = await send(app, {}, 'POST', '/api/auth/login', {
      username: second.user.username,
      password: second.password,
    });
    const recent = await deletedTask(
      app,
      { authorization: `Bearer ${login.json().token}` },
      'Water the plants',
    );
    assert.deepEqual(await trashOf(app), [diagnosis, other, recent]);

    clock.now += 2 * 60_000;
    mock.timers.tick(TRASH_SWEEP_INTERVAL_MS);
    await waitFor(async () => (await trashOf(app)).length === 1, 'the sweep');
    assert.deepEqual(await trashOf(app), [recent], 'only the delete still within its hour is kept');
  });

  test('at start-up, before the first request', async () => {
    const { app, clock } = await buildTestApp();
    const { headers } = await signUp(app);
    const diagnosis = await deletedTask(app, headers, 'Diagnosis appointment (private)');
    const recent = await deletedTask(app, headers, 'Water the plants');
    await app.db
      .updateTable('deletedRecords')
      .set({ deletedAt: clock.now - HOUR - 1 })
      .where('recordId', '=', diagnosis)
      .execute();

    // A second process on the same database, started later.
    const restarted = await withSchemaLock('shared', () =>
      buildApp({ env: {}, logger: false, now: () => clock.now, config: app.config }),
    );
    try {
      assert.deepEqual(await trashOf(restarted), [recent]);
    } finally {
      await restarted.close();
    }
  });
});
