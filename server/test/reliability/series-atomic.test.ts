import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, injectFailure, send, signUp } from '../helpers.js';

// A series edit writes several rows (the later half of a split, the ended master, re-keyed overrides): a failure after
// the first write must leave the series exactly as it was. The failure is a real one, raised by the database.
const BERLIN = 'Europe/Berlin';

const allEvents = (app: FastifyInstance) => app.db.selectFrom('events').selectAll().orderBy('id').execute();

async function weeklyWithEdits() {
  const { app } = await buildTestApp({ now: Date.parse('2026-11-27T10:00:00Z') });
  const { headers } = await signUp(app, { timeZone: BERLIN });
  const weekly = await send(app, headers, 'POST', '/api/events', {
    title: 'Weekly',
    start: '2026-11-02T09:00:00',
    end: '2026-11-02T10:00:00',
    rrule: 'FREQ=WEEKLY',
  });
  assert.equal(weekly.statusCode, 201);
  const seriesId = weekly.json()._id as string;
  // Edited alone before and after the split point, so a split re-keys one of them.
  for (const stamp of ['20261109T080000Z', '20261130T080000Z']) {
    const edited = await send(app, headers, 'PATCH', `/api/events/${seriesId}_${stamp}`, { title: 'Alone' });
    assert.equal(edited.statusCode, 200);
  }
  return { app, headers, seriesId };
}

describe('series edits are one transaction', () => {
  test('a split that fails after writing its later half leaves the series as it was', async () => {
    const { app, headers, seriesId } = await weeklyWithEdits();
    const before = await allEvents(app);
    // The split inserts the later half and re-keys an override first; ending the old rule then fails.
    await injectFailure(app, { table: 'events', on: 'update of rrule', when: "NEW.rrule like '%UNTIL=%'" });
    const split = await send(
      app,
      headers,
      'PATCH',
      `/api/events/${seriesId}_20261123T080000Z?scope=following`,
      {
        title: 'Later',
      },
    );
    assert.equal(split.statusCode, 500);
    assert.deepEqual(await allEvents(app), before);
  });

  test('a move of the whole series that fails while re-keying its overrides leaves every row as it was', async () => {
    const { app, headers, seriesId } = await weeklyWithEdits();
    const before = await allEvents(app);
    // The master is saved at its new time first; re-keying its overrides then fails.
    await injectFailure(app, { table: 'events', on: 'update of id', when: 'NEW.series_id is not null' });
    const moved = await send(app, headers, 'PATCH', `/api/events/${seriesId}_20261116T080000Z?scope=all`, {
      start: '2026-11-16T11:00:00',
      end: '2026-11-16T12:00:00',
    });
    assert.equal(moved.statusCode, 500);
    assert.deepEqual(await allEvents(app), before);
  });
});
