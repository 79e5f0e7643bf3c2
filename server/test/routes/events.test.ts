import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, signUp, send } from '../helpers.js';

async function createEvent(
  app: FastifyInstance,
  headers: Record<string, string>,
  fields: Record<string, unknown>,
) {
  return send(app, headers, 'POST', '/api/events', {
    title: 'Dentist',
    start: '2026-03-11T14:00:00.000Z',
    end: '2026-03-11T15:00:00.000Z',
    allDay: false,
    ...fields,
  });
}

describe('/api/events', () => {
  test('creates, edits, moves and deletes an event', async () => {
    const { app } = await buildTestApp();
    const { headers, user } = await signUp(app, { timeZone: 'Europe/Paris' });
    const created = await createEvent(app, headers, {});
    assert.equal(created.statusCode, 201);
    const event = created.json();
    assert.deepEqual(
      { ...event, _id: undefined },
      {
        _id: undefined,
        title: 'Dentist',
        start: '2026-03-11T14:00:00.000Z',
        end: '2026-03-11T15:00:00.000Z',
        allDay: false,
        categoryId: '',
        source: 'manual',
        calendarId: user.id,
        readOnly: false,
        seriesId: '',
        rrule: '',
        recurrenceId: '',
      },
    );

    const renamed = await send(app, headers, 'PATCH', `/api/events/${event._id}`, {
      title: 'Dentist (moved)',
      start: '2026-03-12T09:00:00.000Z',
      end: '2026-03-12T10:30:00.000Z',
      allDay: false,
    });
    assert.equal(renamed.statusCode, 200);
    assert.equal(renamed.json().title, 'Dentist (moved)');
    const resized = await send(app, headers, 'PATCH', `/api/events/${event._id}`, {
      end: '2026-03-12T11:00:00.000Z',
    });
    assert.equal(resized.json().end, '2026-03-12T11:00:00.000Z');
    assert.equal(resized.json().start, '2026-03-12T09:00:00.000Z');

    const local = await createEvent(app, headers, { start: '2026-03-13T09:00', end: '2026-03-13T10:00' });
    assert.equal(local.json().start, '2026-03-13T08:00:00.000Z');

    const deleted = await app.inject({ method: 'DELETE', url: `/api/events/${event._id}`, headers });
    assert.equal(deleted.statusCode, 204);
    const gone = await send(app, headers, 'PATCH', `/api/events/${event._id}`, { title: 'x' });
    assert.equal(gone.statusCode, 404);
  });

  test('rejects bad dates, end before start and unknown fields', async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ start: 'not a date' }, 'start'],
      [{ end: '2026-02-30T10:00:00Z' }, 'end'],
      [{ end: '2026-03-11T13:00:00.000Z' }, 'end'],
      [{ end: '2026-03-11T14:00:00.000Z' }, 'end'],
      [{ title: '' }, 'title'],
      [{ source: 'ics' }, 'source'],
      [{ allDay: 'no' }, 'allDay'],
    ];
    for (const [fields, field] of cases) {
      const response = await createEvent(app, headers, fields);
      assert.equal(response.statusCode, 400, JSON.stringify(fields));
      assert.equal(response.json().errors[0].field, field, response.body);
    }
    const event = (await createEvent(app, headers, {})).json();
    const backwards = await send(app, headers, 'PATCH', `/api/events/${event._id}`, {
      start: '2026-03-11T16:00:00.000Z',
    });
    assert.equal(backwards.statusCode, 400);
    assert.equal(backwards.json().message, 'End must be after start');
  });

  test('lists events overlapping local days, to exclusive', async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app, { timeZone: 'America/Los_Angeles' });
    await createEvent(app, headers, {
      title: 'Before',
      start: '2026-03-08T06:00:00.000Z',
      end: '2026-03-08T07:30:00.000Z',
    });
    await createEvent(app, headers, {
      title: 'Overnight',
      start: '2026-03-08T07:00:00.000Z',
      end: '2026-03-08T09:00:00.000Z',
    });
    await createEvent(app, headers, {
      title: 'Inside',
      start: '2026-03-10T18:00:00.000Z',
      end: '2026-03-10T19:00:00.000Z',
    });
    await createEvent(app, headers, {
      title: 'Last day',
      start: '2026-03-15T06:00:00.000Z',
      end: '2026-03-15T07:00:00.000Z',
    });
    await createEvent(app, headers, {
      title: 'After',
      start: '2026-03-15T07:00:00.000Z',
      end: '2026-03-15T08:00:00.000Z',
    });
    const response = await send(app, headers, 'GET', '/api/events?from=2026-03-08&to=2026-03-15');
    assert.equal(response.statusCode, 200);
    assert.deepEqual(
      response.json().map((event: { title: string }) => event.title),
      ['Overnight', 'Inside', 'Last day'],
    );

    for (const query of [
      'from=2026-03-08',
      'from=2026-03-15&to=2026-03-08',
      'from=2026-03-08&to=2026-03-08',
      'from=2026-02-31&to=2026-03-08',
      'from=2020-01-01&to=2026-01-01',
    ]) {
      const bad = await app.inject({ method: 'GET', url: `/api/events?${query}`, headers });
      assert.equal(bad.statusCode, 400, query);
    }
  });

  test('a range read covers at most 62 days: a six-week month view fits, a longer one is refused', async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app);
    const read = (from: string, to: string) =>
      app.inject({ method: 'GET', url: `/api/events?from=${from}&to=${to}`, headers });
    for (const [from, to] of [
      ['2026-03-01', '2026-03-09'],
      ['2026-02-22', '2026-04-06'],
      ['2026-03-01', '2026-05-02'],
    ] as const) {
      assert.equal((await read(from, to)).statusCode, 200, `${from}..${to}`);
    }
    for (const [from, to] of [
      ['2026-03-01', '2026-05-03'],
      ['2025-03-01', '2026-04-05'],
    ] as const) {
      const refused = await read(from, to);
      assert.equal(refused.statusCode, 400, `${from}..${to}`);
      assert.deepEqual(refused.json(), {
        message: 'The range must not exceed 62 days: ask for longer periods in parts',
        errors: [
          { field: 'to', message: 'The range must not exceed 62 days: ask for longer periods in parts' },
        ],
      });
    }
  });

  test('/today answers a plain array of events overlapping today', async () => {
    // 15:00 UTC is already 00:00 on 12 March in Tokyo.
    const { app } = await buildTestApp({ now: Date.parse('2026-03-11T15:00:00Z') });
    const { headers } = await signUp(app, { timeZone: 'Asia/Tokyo' });
    await createEvent(app, headers, {
      title: 'Yesterday in Tokyo',
      start: '2026-03-11T00:00:00.000Z',
      end: '2026-03-11T01:00:00.000Z',
    });
    await createEvent(app, headers, {
      title: 'Just after midnight in Tokyo',
      start: '2026-03-11T16:00:00.000Z',
      end: '2026-03-11T17:00:00.000Z',
    });
    const response = await app.inject({ method: 'GET', url: '/api/events/today', headers });
    assert.equal(response.statusCode, 200);
    assert.ok(Array.isArray(response.json()));
    assert.deepEqual(
      response.json().map((event: { title: string }) => event.title),
      ['Just after midnight in Tokyo'],
    );
  });

  test("another user's event answers exactly like a missing one", async () => {
    const { app } = await buildTestApp();
    const owner = await signUp(app);
    const intruder = await signUp(app);
    const event = (await createEvent(app, owner.headers, {})).json();
    for (const [method, payload] of [
      ['PATCH', { title: 'Hijacked' }],
      ['DELETE', undefined],
    ] as const) {
      const foreign = await app.inject({
        method,
        url: `/api/events/${event._id}`,
        headers: intruder.headers,
        payload,
      });
      const missing = await app.inject({
        method,
        url: '/api/events/nope',
        headers: intruder.headers,
        payload,
      });
      assert.equal(foreign.statusCode, 404);
      assert.deepEqual(foreign.json(), missing.json());
    }
    const list = await send(app, intruder.headers, 'GET', '/api/events?from=2026-03-01&to=2026-04-01');
    assert.deepEqual(list.json(), []);
    const ownerList = await send(app, owner.headers, 'GET', '/api/events?from=2026-03-01&to=2026-04-01');
    assert.equal(ownerList.json()[0].title, 'Dentist');
  });
});
