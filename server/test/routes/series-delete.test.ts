import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildTestApp, injectFailure, send, signUp } from '../helpers.js';

// DELETE takes the same scopes as PATCH, so a client deletes "this and following" in one request, and Undo is always
// POST /{the id deleted}/restore.
const BERLIN = 'Europe/Berlin';

async function weekly(kind: 'events' | 'tasks' = 'events') {
  const { app } = await buildTestApp({ now: Date.parse('2026-11-27T10:00:00Z') });
  const { headers } = await signUp(app, { timeZone: BERLIN });
  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: object) => {
    const response = await send(app, headers, method, url, body as Record<string, unknown>);
    return { status: response.statusCode, json: response.body ? response.json() : undefined };
  };
  const created = await call(
    'POST',
    `/api/${kind}`,
    kind === 'events'
      ? { title: 'Weekly', start: '2026-11-02T09:00:00', end: '2026-11-02T10:00:00', rrule: 'FREQ=WEEKLY' }
      : { title: 'Weekly', date: '2026-11-02', startHHMM: '09:00', endHHMM: '10:00', rrule: 'FREQ=WEEKLY' },
  );
  assert.equal(created.status, 201);
  const seriesId = created.json._id as string;
  const occurrence = (day: string) => `${seriesId}_202611${day}T080000Z`;
  // Edited alone after the point the tests delete from, so it must go with the later ones and come back with them.
  assert.equal((await call('PATCH', `/api/${kind}/${occurrence('30')}`, { title: 'Alone' })).status, 200);
  const titlesOn = async () => {
    const read = await call('GET', '/api/events?from=2026-11-01&to=2026-12-15');
    return (read.json as { title: string; start: string }[]).map(
      (event) => `${event.start.slice(5, 10)} ${event.title}`,
    );
  };
  return { app, call, seriesId, occurrence, titlesOn };
}

const ALL = [
  '11-02 Weekly',
  '11-09 Weekly',
  '11-16 Weekly',
  '11-23 Weekly',
  '11-30 Alone',
  '12-07 Weekly',
  '12-14 Weekly',
];

describe('DELETE with a scope', () => {
  test("'following' ends the series before the occurrence in one request, and Undo by the same id brings them back", async () => {
    const { call, occurrence, titlesOn } = await weekly();
    assert.deepEqual(await titlesOn(), ALL);
    const deleted = await call('DELETE', `/api/events/${occurrence('23')}?scope=following`);
    assert.equal(deleted.status, 204);
    assert.deepEqual(await titlesOn(), ALL.slice(0, 3));
    const restored = await call('POST', `/api/events/${occurrence('23')}/restore`);
    assert.equal(restored.status, 200, JSON.stringify(restored.json));
    assert.deepEqual(await titlesOn(), ALL);
  });

  test("'following' from the first occurrence and 'all' from any delete the whole series; Undo takes the same id", async () => {
    const { call, occurrence, titlesOn } = await weekly();
    assert.equal((await call('DELETE', `/api/events/${occurrence('02')}?scope=following`)).status, 204);
    assert.deepEqual(await titlesOn(), []);
    assert.equal((await call('POST', `/api/events/${occurrence('02')}/restore`)).status, 200);
    assert.deepEqual(await titlesOn(), ALL);

    assert.equal((await call('DELETE', `/api/events/${occurrence('16')}?scope=all`)).status, 204);
    assert.deepEqual(await titlesOn(), []);
    assert.equal((await call('POST', `/api/events/${occurrence('16')}/restore`)).status, 200);
    assert.deepEqual(await titlesOn(), ALL);
  });

  test("'this' skips one occurrence, as without a scope; a series' own id takes only 'all'", async () => {
    const { call, seriesId, occurrence, titlesOn } = await weekly();
    assert.equal((await call('DELETE', `/api/events/${occurrence('09')}?scope=this`)).status, 204);
    assert.deepEqual(await titlesOn(), [ALL[0], ...ALL.slice(2)]);
    const refused = await call('DELETE', `/api/events/${seriesId}?scope=following`);
    assert.equal(refused.status, 400);
    assert.match(refused.json.message, /names an occurrence/);
    const withOccurrence = await call(
      'DELETE',
      `/api/events/${seriesId}?scope=following&occurrence=2026-12-07T08:00:00.000Z`,
    );
    assert.equal(withOccurrence.status, 204);
    assert.deepEqual(await titlesOn(), [ALL[0], ...ALL.slice(2, 5)]);
    assert.equal(
      (await call('DELETE', `/api/events/${seriesId}_20991207T080000Z?scope=following`)).status,
      404,
    );
    // Half past eight is no occurrence's start: nothing is split there.
    const between = await call(
      'DELETE',
      `/api/events/${seriesId}?scope=following&occurrence=2026-11-16T08:30:00Z`,
    );
    assert.equal(between.status, 404);
    assert.deepEqual(await titlesOn(), [ALL[0], ...ALL.slice(2, 5)]);
  });

  test("a task series' following occurrences go in one request too, and come back whole with Undo", async () => {
    const { call, occurrence } = await weekly('tasks');
    const datesIn = async (from: string, to: string) => {
      const range = await call('GET', `/api/tasks/range?from=${from}&to=${to}`);
      return (range.json.tasks as { date: string }[]).map((task) => task.date);
    };
    assert.equal((await call('DELETE', `/api/tasks/${occurrence('23')}?scope=following`)).status, 204);
    assert.deepEqual(await datesIn('2026-11-01', '2026-12-15'), ['2026-11-02', '2026-11-09', '2026-11-16']);
    assert.equal((await call('POST', `/api/tasks/${occurrence('23')}/restore`)).status, 200);
    // Read alone, far from where the part restored starts: its span reaches every later week.
    assert.deepEqual(await datesIn('2027-03-01', '2027-03-08'), ['2027-03-01']);
    const onThe30th = await call('GET', '/api/tasks?date=2026-11-30');
    assert.deepEqual(
      (onThe30th.json.tasks as { title: string }[]).map((task) => task.title),
      ['Alone'],
    );
  });

  test("a 'following' delete that fails once the split is written leaves the series as it was", async () => {
    const { app, call, occurrence, titlesOn } = await weekly();
    const before = await app.db.selectFrom('events').selectAll().orderBy('id').execute();
    // The split is written first; keeping the deleted part for Undo then fails.
    await injectFailure(app, { table: 'deleted_records', on: 'insert' });
    assert.equal((await call('DELETE', `/api/events/${occurrence('23')}?scope=following`)).status, 500);
    assert.deepEqual(await app.db.selectFrom('events').selectAll().orderBy('id').execute(), before);
    assert.deepEqual(await titlesOn(), ALL);
  });
});
