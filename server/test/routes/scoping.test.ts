import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildTestApp, importAnswer, signUp, send } from '../helpers.js';

const NOW = Date.parse('2026-03-11T15:00:00Z');

// One app for the file: the owner's data is built once and every intrusion is checked against it.
const { app } = await buildTestApp({ now: NOW });
const owner = await signUp(app, { timeZone: 'Europe/Paris' });
const intruder = await signUp(app, { timeZone: 'Europe/Paris' });

async function post(headers: Record<string, string>, url: string, payload: object) {
  const response = await app.inject({ method: 'POST', url, headers, payload });
  assert.ok(response.statusCode < 300, response.body);
  return response.json();
}

const ownerEvent = await post(owner.headers, '/api/events', {
  title: 'Secret meeting',
  start: '2026-03-11T10:00:00Z',
  end: '2026-03-11T11:00:00Z',
});

async function ownerSnapshot() {
  const exported = await app.inject({ method: 'GET', url: '/api/users/me/export', headers: owner.headers });
  const { categories, tasks, events } = exported.json();
  return { categories, tasks, events };
}
const ownerDataBefore = await ownerSnapshot();

// Cross-user access (every verb on every record, lists, ranges, analytics, exports, foreign categories, injected
// owner fields) is covered table-driven in test/security/; this file keeps what that suite does not do.
describe("another user's records", () => {
  test("importing another user's export copies the events and leaves theirs alone", async () => {
    const exported = await send(app, owner.headers, 'GET', '/api/events/export.ics');
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
    assert.deepEqual(imported.json(), importAnswer({ created: 1 }));
    const copies = (
      await send(app, intruder.headers, 'GET', '/api/events?from=2026-03-01&to=2026-04-01')
    ).json();
    assert.equal(copies.length, 1);
    assert.notEqual(copies[0]._id, ownerEvent._id);
    assert.deepEqual(await ownerSnapshot(), ownerDataBefore);
  });
});
