import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { InjectOptions } from 'fastify';
import {
  WRITE_ENDPOINTS,
  assertJsonMessage,
  buildSecurityApp,
  contextFor,
  databaseState,
  describeEndpoint,
  injectOptions,
  needsSubscriptions,
  multipart,
  report,
  seedActor,
  type Endpoint,
  type RequestContext,
} from './support.js';

const { app, dataDir } = await buildSecurityApp();
const victim = await seedActor(app, 'victim', { importEvent: false });
const injector = await seedActor(app, 'injector');
const ctx = contextFor(app, dataDir, injector);

/** Field name and its value as raw JSON text: __proto__ cannot be sent through JSON.stringify of an object. */
const INJECTED: Array<[string, string]> = [
  ['_id', JSON.stringify(victim.ids.task)],
  ['id', JSON.stringify(victim.ids.task)],
  ['userId', JSON.stringify(victim.user.id)],
  ['user_id', JSON.stringify(victim.user.id)],
  ['user', JSON.stringify(victim.user.id)],
  ['createdAt', JSON.stringify('2000-01-01T00:00:00.000Z')],
  ['source', JSON.stringify('ics')],
  // A calendar's or an event's own columns: the victim's own calendar (its id is the user's), the kind, the feed.
  ['calendarId', JSON.stringify(victim.user.id)],
  ['kind', JSON.stringify('own')],
  ['feedTokenHash', JSON.stringify('0'.repeat(64))],
  ['__proto__', JSON.stringify({ userId: victim.user.id, isAdmin: true })],
  ['constructor', JSON.stringify({ prototype: { isAdmin: true } })],
];

let cases = 0;
after(() =>
  report(
    `injected fields: ${INJECTED.length} fields x ${WRITE_ENDPOINTS.length} write endpoints = ${cases} cases, all 400, no row changed`,
  ),
);

/** The endpoint's valid request with one more field: first in the JSON object, or an extra form field. */
async function withInjected(endpoint: Endpoint, context: RequestContext, field: string, raw: string) {
  const valid = await endpoint.valid(context);
  const options: InjectOptions = injectOptions(endpoint, context, valid);
  const headers = { ...(options.headers as Record<string, string>) };
  if (endpoint.body === 'multipart') {
    const body = multipart([
      { name: field, content: raw },
      { name: 'file', filename: 'calendar.ics', content: valid.ics! },
    ]);
    return { ...options, headers: { ...headers, 'content-type': body.contentType }, payload: body.payload };
  }
  const rest = JSON.stringify(valid.body ?? {}).slice(1);
  const payload = `{${JSON.stringify(field)}:${raw}${rest === '}' ? '' : ','}${rest}`;
  return { ...options, headers: { ...headers, 'content-type': 'application/json' }, payload };
}

describe('write endpoints refuse fields the client may not set', () => {
  test('every write endpoint x every injected field: 400 with a message, and no stored row changes', async () => {
    for (const endpoint of WRITE_ENDPOINTS) {
      // Built first: a valid reset-password request asks for a token, which stores one.
      const requests = [];
      for (const [field, raw] of INJECTED)
        requests.push([field, await withInjected(endpoint, ctx, field, raw)] as const);
      // A change made by an accepted request stays, so one comparison per endpoint catches any of its cases.
      const before = await databaseState(app);
      for (const [field, request] of requests) {
        const response = await app.inject(request);
        cases += 1;
        const name = `${describeEndpoint(endpoint)} with ${field}`;
        assert.equal(response.statusCode, 400, `${name}: ${response.body}`);
        assertJsonMessage(response, name);
      }
      assert.deepEqual(await databaseState(app), before, `${describeEndpoint(endpoint)} changed stored rows`);
    }
    assert.equal(({} as Record<string, unknown>).isAdmin, undefined, 'Object.prototype was polluted');
  });

  test('the same requests without the extra field succeed (each one would have changed something)', async () => {
    // Destructive rows last, each on its own user, so every request is judged on its own.
    for (const endpoint of WRITE_ENDPOINTS) {
      const actor = await seedActor(app, 'writer', {
        importEvent: false,
        subscriptions: needsSubscriptions(endpoint),
      });
      const context = contextFor(app, dataDir, actor);
      const response = await app.inject(injectOptions(endpoint, context, await endpoint.valid(context)));
      assert.ok(response.statusCode < 300, `${describeEndpoint(endpoint)}: ${response.body}`);
    }
  });

  test("a task edit may send back the task's own _id (the documented exception), never another one", async () => {
    const own = await app.inject({
      method: 'PATCH',
      url: `/api/tasks/${injector.ids.task}`,
      headers: injector.headers,
      payload: { _id: injector.ids.task, title: 'Sent back whole' },
    });
    assert.equal(own.statusCode, 200, own.body);
    assert.equal(own.json()._id, injector.ids.task);
    const other = await app.inject({
      method: 'PATCH',
      url: `/api/tasks/${injector.ids.task}`,
      headers: injector.headers,
      payload: { _id: victim.ids.task, title: 'Hijack' },
    });
    assert.equal(other.statusCode, 400, other.body);
    assert.equal(other.json().errors[0].field, '_id');
  });
});
