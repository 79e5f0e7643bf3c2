import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildTestApp, signUp, send } from './helpers.js';

describe('request handling', () => {
  test('GET /api/health answers after a database round trip', async () => {
    const { app } = await buildTestApp();
    const healthy = await app.inject({ method: 'GET', url: '/api/health' });
    assert.equal(healthy.statusCode, 200);
    assert.deepEqual(healthy.json(), { status: 'ok' });
    await app.db.destroy();
    const broken = await app.inject({ method: 'GET', url: '/api/health' });
    assert.equal(broken.statusCode, 503);
    assert.equal(broken.json().status, 'unavailable');
  });

  test('unknown routes answer 404 Not found', async () => {
    const { app } = await buildTestApp();
    for (const url of ['/api/nothing-here', '/elsewhere', '/api/tasks/x/y/z']) {
      const response = await app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 404);
      assert.deepEqual(response.json(), { message: 'Not found' });
    }
  });

  test('malformed JSON, wrong content type and oversized bodies get clear 4xx answers', async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app);
    const malformed = await app.inject({
      method: 'POST',
      url: '/api/categories',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{"name": "Work",',
    });
    assert.equal(malformed.statusCode, 400);
    assert.deepEqual(malformed.json(), { message: 'Malformed JSON in request body' });

    const wrongType = await app.inject({
      method: 'POST',
      url: '/api/categories',
      headers: { ...headers, 'content-type': 'application/xml' },
      payload: '<name>Work</name>',
    });
    assert.equal(wrongType.statusCode, 415);
    assert.match(wrongType.json().message, /Content-Type: application\/json/);

    const plainText = await app.inject({
      method: 'POST',
      url: '/api/categories',
      headers: { ...headers, 'content-type': 'text/plain' },
      payload: 'Work',
    });
    assert.equal(plainText.statusCode, 415);
    assert.match(plainText.json().message, /Content-Type: application\/json/);

    const oversized = await send(app, headers, 'POST', '/api/categories', { name: 'x'.repeat(200 * 1024) });
    assert.equal(oversized.statusCode, 413);
    assert.deepEqual(oversized.json(), { message: 'Request body is too large' });

    const notAnObject = await app.inject({
      method: 'POST',
      url: '/api/categories',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '[1,2]',
    });
    assert.equal(notAnObject.statusCode, 400);
    assert.deepEqual(notAnObject.json().errors, [
      { field: 'body', message: 'Request body must be a JSON object' },
    ]);
  });

  test('a server fault answers 500 with no details', async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app);
    app.categoriesRepository.list = async () => {
      throw new Error('connection string postgres://secret@db leaked?');
    };
    const response = await app.inject({ method: 'GET', url: '/api/categories', headers });
    assert.equal(response.statusCode, 500);
    assert.deepEqual(response.json(), { message: 'Internal server error' });
  });

  test('CORS allows the shell origin only, with the headers the client sends', async () => {
    const { app } = await buildTestApp({ config: { corsOrigins: ['http://localhost:3000'] } });
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/tasks',
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'authorization,content-type,x-time-zone',
      },
    });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], 'http://localhost:3000');
    assert.match(String(preflight.headers['access-control-allow-headers']), /X-Time-Zone/i);
    // The client sends credentials: 'include', and browsers cache the preflight for max-age seconds.
    assert.equal(preflight.headers['access-control-allow-credentials'], 'true');
    assert.ok(Number(preflight.headers['access-control-max-age']) >= 600);
    const simple = await app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { origin: 'http://localhost:3000' },
    });
    assert.equal(simple.headers['access-control-allow-origin'], 'http://localhost:3000');
    assert.equal(simple.headers['access-control-allow-credentials'], 'true');
    assert.match(String(simple.headers.vary), /Origin/);
    const foreign = await app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { origin: 'http://evil.example' },
    });
    assert.equal(foreign.headers['access-control-allow-origin'], undefined);
    const undecodableId = await app.inject({
      method: 'GET',
      url: '/api/tasks/%ff',
      headers: { origin: 'http://localhost:3000' },
    });
    assert.equal(undecodableId.statusCode, 404);
    assert.equal(undecodableId.headers['access-control-allow-origin'], 'http://localhost:3000');
    const foreignPreflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/tasks',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'GET' },
    });
    assert.equal(foreignPreflight.headers['access-control-allow-origin'], undefined);
  });

  test('responses carry security headers and a request id', async () => {
    const { app } = await buildTestApp();
    const response = await app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'trace-123' },
    });
    assert.equal(response.headers['x-content-type-options'], 'nosniff');
    assert.equal(response.headers['x-request-id'], 'trace-123');
  });

  test('the OpenAPI document lists every resource and is browsable at /api/docs', async () => {
    const { app } = await buildTestApp();
    const document = await app.inject({ method: 'GET', url: '/api/docs/json' });
    assert.equal(document.statusCode, 200);
    const paths = Object.keys(document.json().paths);
    for (const expected of [
      '/api/auth/register/user',
      '/api/auth/login',
      '/api/categories/',
      '/api/categories/{id}',
      '/api/tasks/',
      '/api/tasks/today',
      '/api/events/',
      '/api/events/import',
      '/api/aggregation/analytics/weekly',
      '/api/users/me',
      '/api/health/',
    ]) {
      assert.ok(paths.includes(expected), `${expected} missing from ${paths.join(', ')}`);
    }
    const ui = await app.inject({ method: 'GET', url: '/api/docs/' });
    assert.equal(ui.statusCode, 200);
    assert.match(ui.headers['content-type'] as string, /text\/html/);
  });
});
