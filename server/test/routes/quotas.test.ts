import { SINGLE_ITEM } from '../../src/services/series.js';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { newId } from '../../src/lib/ids.js';
import { RECORD_QUOTAS } from '../../src/lib/quotas.js';
import { buildTestApp, importAnswer, signUp, send } from '../helpers.js';

// Lowered through the app's config, so reaching them takes a few requests instead of 20,000 rows.
const quotas = { events: 3, tasks: 2, categories: 2, timeEntries: 3 };
const BOUNDARY = '----time-wallet-quota-test';

function importFile(app: FastifyInstance, headers: Record<string, string>, uids: string[]) {
  const events = uids.map((uid, index) =>
    [
      'BEGIN:VEVENT',
      `UID:${uid}`,
      'DTSTAMP:20260301T000000Z',
      `SUMMARY:Imported ${uid}`,
      `DTSTART:202603${String(12 + index).padStart(2, '0')}T100000Z`,
      `DTEND:202603${String(12 + index).padStart(2, '0')}T110000Z`,
      'END:VEVENT',
    ].join('\r\n'),
  );
  const file = ['BEGIN:VCALENDAR', 'VERSION:2.0', ...events, 'END:VCALENDAR', ''].join('\r\n');
  return app.inject({
    method: 'POST',
    url: '/api/events/import',
    headers: { ...headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload:
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.ics"\r\n` +
      `Content-Type: text/calendar\r\n\r\n${file}\r\n--${BOUNDARY}--\r\n`,
  });
}

const event = (day: number) => ({
  title: `Event ${day}`,
  start: `2026-03-${String(day).padStart(2, '0')}T09:00:00Z`,
  end: `2026-03-${String(day).padStart(2, '0')}T10:00:00Z`,
});
const task = (title: string) => ({ title, startHHMM: '09:00', endHHMM: '10:00', date: '2026-03-11' });

async function eventsOfMarch(app: FastifyInstance, headers: Record<string, string>) {
  const response = await send(app, headers, 'GET', '/api/events?from=2026-03-01&to=2026-04-01');
  return (response.json() as Array<{ title: string }>).map((listed) => listed.title);
}

describe('per-user quotas', () => {
  test('the defaults are far above real use', () => {
    assert.deepEqual(RECORD_QUOTAS, { events: 20_000, tasks: 20_000, categories: 500, timeEntries: 50_000 });
  });

  test('at the quota the next create answers 409 with a clear message and stores nothing', async () => {
    const { app } = await buildTestApp({ config: { quotas } });
    const { headers } = await signUp(app);
    const other = await signUp(app);
    const cases = [
      { url: '/api/events', payloads: [1, 2, 3, 4].map(event), kind: 'events' },
      { url: '/api/tasks', payloads: ['One', 'Two', 'Three'].map(task), kind: 'tasks' },
      {
        url: '/api/categories',
        payloads: ['Work', 'Home', 'Gym'].map((name) => ({ name })),
        kind: 'categories',
      },
    ] as const;
    for (const { url, payloads, kind } of cases) {
      const limit = quotas[kind];
      const answers = [];
      for (const payload of payloads)
        answers.push(await app.inject({ method: 'POST', url, headers, payload }));
      assert.deepEqual(
        answers.map((answer) => answer.statusCode),
        [...Array.from({ length: limit }, () => 201), 409],
        url,
      );
      assert.deepEqual(answers.at(-1)!.json(), {
        message: `You have reached the limit of ${limit} ${kind}; delete some before adding more`,
      });
      // Another account is not affected.
      const theirs = await app.inject({ method: 'POST', url, headers: other.headers, payload: payloads[0] });
      assert.equal(theirs.statusCode, 201, url);
    }
    assert.deepEqual(await eventsOfMarch(app, headers), ['Event 1', 'Event 2', 'Event 3']);
    const tasks = await app.inject({ method: 'GET', url: '/api/tasks?date=2026-03-11', headers });
    assert.deepEqual(
      tasks
        .json()
        .tasks.map((listed: { title: string }) => listed.title)
        .sort(),
      ['One', 'Two'],
    );
    const categories = await app.inject({ method: 'GET', url: '/api/categories', headers });
    assert.deepEqual(
      categories
        .json()
        .map((listed: { name: string }) => listed.name)
        .sort(),
      ['Home', 'Work'],
    );

    // Deleting one makes room for one.
    const first = (await app.inject({ method: 'GET', url: '/api/categories', headers })).json()[0];
    await app.inject({ method: 'DELETE', url: `/api/categories/${first._id}`, headers });
    const again = await send(app, headers, 'POST', '/api/categories', { name: 'Gym' });
    assert.equal(again.statusCode, 201);
  });

  test('an import that would pass the quota is refused whole and changes nothing; duplicates still pass', async () => {
    const { app } = await buildTestApp({ config: { quotas } });
    const { headers } = await signUp(app);
    assert.deepEqual((await importFile(app, headers, ['a', 'b'])).json(), importAnswer({ created: 2 }));

    const over = await importFile(app, headers, ['a', 'c', 'd']);
    assert.equal(over.statusCode, 409);
    assert.deepEqual(over.json(), {
      message:
        'This import would pass the limit of 3 events (you have 2; it adds 2); delete some before importing',
    });
    assert.deepEqual(await eventsOfMarch(app, headers), ['Imported a', 'Imported b']);

    // Events already here (changed in the file or not) are duplicates and add none, so they pass even at the quota.
    await app.inject({ method: 'POST', url: '/api/events', headers, payload: event(20) });
    const changed = await importFile(app, headers, ['b', 'a']);
    assert.deepEqual(
      changed.json(),
      importAnswer({
        skipped: 2,
        duplicates: 2,
      }),
    );
    assert.deepEqual(await eventsOfMarch(app, headers), ['Imported a', 'Imported b', 'Event 20']);
  });

  test('list reads return at most the quota of their kind, however many rows a user has', async () => {
    const { app } = await buildTestApp({ config: { quotas } });
    const { headers, user } = await signUp(app);
    // Rows written around the routes and the repositories' checks (as an older version without quotas could have).
    const now = Date.parse('2026-03-11T15:00:00Z');
    for (let index = 0; index < 5; index += 1) {
      const startAt = Date.parse('2026-03-11T09:00:00Z') + index * 60_000;
      await app.db
        .insertInto('events')
        .values({
          id: newId(),
          userId: user.id,
          title: `Event ${index}`,
          startAt,
          endAt: startAt + 3_600_000,
          allDay: 0,
          categoryId: null,
          source: 'manual',
          icsKey: null,
          calendarId: user.id,
          ...SINGLE_ITEM,
          createdAt: now,
          updatedAt: now,
        })
        .execute();
      await app.db
        .insertInto('tasks')
        .values({
          id: newId(),
          userId: user.id,
          title: `Task ${index}`,
          categoryId: null,
          startHhmm: '09:00',
          endHhmm: '10:00',
          notes: '',
          date: '2026-03-11',
          startAt,
          endAt: startAt + 3_600_000,
          scheduled: 1,
          estimateMinutes: null,
          trackedMinutes: 0,
          timerAutoStopped: 0,
          done: 0,
          dismissed: 0,
          isEvent: 0,
          isReminder: 0,
          carryover: 0,
          ...SINGLE_ITEM,
          createdAt: now,
          updatedAt: now,
        })
        .execute();
      await app.categoriesRepository.create({
        id: newId(),
        userId: user.id,
        name: `Category ${index}`,
        color: '#2D967C',
        createdAt: now + index,
        updatedAt: now,
      });
    }
    const read = async (url: string) => (await app.inject({ method: 'GET', url, headers })).json();
    assert.equal((await read('/api/events?from=2026-03-11&to=2026-03-12')).length, quotas.events);
    assert.equal((await read('/api/events/today')).length, quotas.events);
    assert.equal((await read('/api/tasks?date=2026-03-11')).tasks.length, quotas.tasks);
    assert.equal((await read('/api/tasks/today')).tasks.length, quotas.tasks);
    assert.equal((await read('/api/categories')).length, quotas.categories);
  });
});
