import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildTestApp, signUp, send } from '../helpers.js';

describe('/api/categories', () => {
  test('creates, lists, renames, recolours and deletes categories', async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app);
    const created = await send(app, headers, 'POST', '/api/categories', {
      name: '  Deep Work ',
      color: '#aa00ff',
    });
    assert.equal(created.statusCode, 201);
    const work = created.json();
    assert.deepEqual(Object.keys(work).sort(), ['_id', 'color', 'name']);
    assert.deepEqual({ name: work.name, color: work.color }, { name: 'Deep Work', color: '#AA00FF' });

    const defaulted = await send(app, headers, 'POST', '/api/categories', { name: 'Rest' });
    assert.equal(defaulted.statusCode, 201);
    assert.equal(defaulted.json().color, '#2D967C');

    const list = await app.inject({ method: 'GET', url: '/api/categories', headers });
    assert.equal(list.statusCode, 200);
    assert.deepEqual(list.json(), [work, defaulted.json()]);

    const renamed = await send(app, headers, 'PATCH', `/api/categories/${work._id}`, { name: 'Focus' });
    assert.equal(renamed.statusCode, 200);
    assert.deepEqual(renamed.json(), { _id: work._id, name: 'Focus', color: '#AA00FF' });
    const recoloured = await send(app, headers, 'PATCH', `/api/categories/${work._id}`, {
      name: 'Focus',
      color: '#123456',
    });
    assert.deepEqual(recoloured.json(), { _id: work._id, name: 'Focus', color: '#123456' });

    const removed = await app.inject({ method: 'DELETE', url: `/api/categories/${work._id}`, headers });
    assert.equal(removed.statusCode, 204);
    const afterDelete = await app.inject({ method: 'GET', url: '/api/categories', headers });
    assert.deepEqual(afterDelete.json(), [defaulted.json()]);
    const again = await app.inject({ method: 'DELETE', url: `/api/categories/${work._id}`, headers });
    assert.equal(again.statusCode, 404);
  });

  test('validates name and colour', async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app);
    const cases: Array<[unknown, string, string]> = [
      [{ name: '   ' }, 'name', 'Name is required'],
      [{ name: 'x'.repeat(41) }, 'name', 'Name must not exceed 40 characters'],
      [{ name: 'Ok', color: 'green' }, 'color', 'color must be a colour in #RRGGBB format'],
      [{ name: 'Ok', color: '#12345' }, 'color', 'color must be a colour in #RRGGBB format'],
      [{ color: '#123456' }, 'name', 'name is required'],
      [{ name: 'Ok', owner: 'x' }, 'owner', 'owner is not an accepted field'],
      [{ name: 5 }, 'name', 'name must be a string'],
    ];
    for (const [payload, field, message] of cases) {
      const response = await send(app, headers, 'POST', '/api/categories', payload as object);
      assert.equal(response.statusCode, 400, JSON.stringify(payload));
      assert.deepEqual(response.json(), { message: 'Validation failed', errors: [{ field, message }] });
    }
    const created = await send(app, headers, 'POST', '/api/categories', { name: 'Ok' });
    const patch = await send(app, headers, 'PATCH', `/api/categories/${created.json()._id}`, { name: '' });
    assert.equal(patch.statusCode, 400);
  });

  test('names are unique per user without regard to case', async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app);
    const other = await signUp(app);
    const create = (name: string, as = headers) =>
      app.inject({ method: 'POST', url: '/api/categories', headers: as, payload: { name } });
    const work = (await create('Work')).json();
    const clash = await create('  wORK ');
    assert.equal(clash.statusCode, 409);
    assert.deepEqual(clash.json(), {
      message: 'A tag named "Work" already exists',
      errors: [{ field: 'name', message: 'A tag named "Work" already exists' }],
    });
    assert.equal((await create('work', other.headers)).statusCode, 201, "another user's names are theirs");

    const home = (await create('Home')).json();
    const rename = await send(app, headers, 'PATCH', `/api/categories/${home._id}`, { name: 'WORK' });
    assert.equal(rename.statusCode, 409);
    const recase = await send(app, headers, 'PATCH', `/api/categories/${work._id}`, { name: 'WORK' });
    assert.equal(recase.statusCode, 200, 'a tag may change the case of its own name');
    const list = (await app.inject({ method: 'GET', url: '/api/categories', headers })).json();
    assert.deepEqual(list.map((category: { name: string }) => category.name).sort(), ['Home', 'WORK']);
  });

  test('keeps each user to their own categories', async () => {
    const { app } = await buildTestApp();
    const owner = await signUp(app);
    const intruder = await signUp(app);
    const created = await send(app, owner.headers, 'POST', '/api/categories', { name: 'Private' });
    const id = created.json()._id;
    assert.deepEqual(
      (await app.inject({ method: 'GET', url: '/api/categories', headers: intruder.headers })).json(),
      [],
    );
    const missing = await send(app, intruder.headers, 'PATCH', '/api/categories/no-such-id', {
      name: 'Mine',
    });
    const foreign = await send(app, intruder.headers, 'PATCH', `/api/categories/${id}`, { name: 'Mine' });
    assert.equal(foreign.statusCode, 404);
    assert.deepEqual(foreign.json(), missing.json());
    const foreignDelete = await send(app, intruder.headers, 'DELETE', `/api/categories/${id}`);
    assert.equal(foreignDelete.statusCode, 404);
    const stillThere = await app.inject({ method: 'GET', url: '/api/categories', headers: owner.headers });
    assert.deepEqual(stillThere.json(), [{ _id: id, name: 'Private', color: '#2D967C' }]);
  });

  test('needs a signed-in user', async () => {
    const { app } = await buildTestApp();
    for (const [method, url] of [
      ['GET', '/api/categories'],
      ['POST', '/api/categories'],
      ['PATCH', '/api/categories/x'],
      ['DELETE', '/api/categories/x'],
    ] as const) {
      const response = await app.inject({ method, url });
      assert.equal(response.statusCode, 401);
      assert.deepEqual(response.json(), { message: 'Unauthorized' });
    }
  });
});
