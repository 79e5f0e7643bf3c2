import assert from 'node:assert/strict';
import { Agent, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { newId } from '../../src/lib/ids.js';
import { buildTestApp, signUp } from '../helpers.js';

const NOW = Date.parse('2026-03-11T15:00:00Z');
const ROWS = 3000;

/** A user with a few thousand events and tasks, written straight to the tables as the routes write them. */
async function seedHeavyUser(app: FastifyInstance, userId: string) {
  const base = Date.parse('2025-06-01T08:00:00Z');
  const events = Array.from({ length: ROWS }, (_, index) => ({
    id: newId(),
    userId,
    title: `Lecture ${index} on a subject with a reasonably long name`,
    startAt: base + index * 3 * 3_600_000,
    endAt: base + index * 3 * 3_600_000 + 3_600_000,
    allDay: 0,
    source: 'ics' as const,
    icsKey: `lecture-${index}@university.example#`,
    calendarId: userId,
    createdAt: NOW,
    updatedAt: NOW,
  }));
  const tasks = events.map((event, index) => ({
    id: newId(),
    userId,
    title: `Task ${index}`,
    categoryId: null,
    startHhmm: '08:00',
    endHhmm: '09:00',
    notes: 'Bring the notes from last time.',
    date: new Date(event.startAt).toISOString().slice(0, 10),
    startAt: event.startAt,
    endAt: event.endAt,
    done: 0,
    isEvent: 0,
    isReminder: 0,
    carryover: 0,
    createdAt: NOW,
    updatedAt: NOW,
  }));
  for (let index = 0; index < ROWS; index += 200) {
    await app.db
      .insertInto('events')
      .values(events.slice(index, index + 200))
      .execute();
    await app.db
      .insertInto('tasks')
      .values(tasks.slice(index, index + 200))
      .execute();
  }
}

interface Answer {
  status: number;
  body: string;
}

/** A GET over real HTTP; `onHeaders` runs when the status line and headers have arrived, before the body. */
function fetchOverHttp(
  app: FastifyInstance,
  path: string,
  headers: Record<string, string>,
  agent: Agent | false,
  onHeaders?: () => void,
): Promise<Answer> {
  const { port } = app.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, headers, agent }, (response) => {
      onHeaders?.();
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * Starts the export, and once its answer has begun asks /api/health on a connection opened beforehand. Returns the
 * order in which the two bodies ended, and the export.
 */
async function exportBesideHealth(app: FastifyInstance, path: string, headers: Record<string, string>) {
  const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    assert.equal((await fetchOverHttp(app, '/api/health', {}, keepAlive)).status, 200);
    const finished: string[] = [];
    let health: Promise<Answer> | undefined;
    const exported = fetchOverHttp(app, path, headers, false, () => {
      health = fetchOverHttp(app, '/api/health', {}, keepAlive).then((answer) => {
        finished.push('health');
        return answer;
      });
    }).then((answer) => {
      finished.push('export');
      return answer;
    });
    const exportAnswer = await exported;
    assert.ok(health, 'the export answered');
    assert.equal((await health).status, 200);
    return { finished, exportAnswer };
  } finally {
    keepAlive.destroy();
  }
}

describe('large exports are streamed', () => {
  test('/api/health answers while an export of thousands of events is still being written', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers, user } = await signUp(app, { timeZone: 'Europe/Paris' });
    await seedHeavyUser(app, user.id);
    await app.listen({ host: '127.0.0.1', port: 0 });

    const calendar = await exportBesideHealth(app, '/api/events/export.ics', headers);
    assert.deepEqual(calendar.finished, ['health', 'export']);
    assert.equal(calendar.exportAnswer.status, 200);
    assert.equal(calendar.exportAnswer.body.split('BEGIN:VEVENT').length - 1, ROWS);
    assert.match(calendar.exportAnswer.body, /^BEGIN:VCALENDAR\r\n[\s\S]*\r\nEND:VCALENDAR\r\n$/);

    const everything = await exportBesideHealth(app, '/api/users/me/export', headers);
    assert.deepEqual(everything.finished, ['health', 'export']);
    assert.equal(everything.exportAnswer.status, 200);
    const data = JSON.parse(everything.exportAnswer.body) as {
      tasks: unknown[];
      events: Array<{ title: string }>;
    };
    assert.equal(data.tasks.length, ROWS);
    assert.equal(data.events.length, ROWS);
    assert.equal(data.events.at(-1)?.title, `Lecture ${ROWS - 1} on a subject with a reasonably long name`);
  });

  test('both exports keep their headers, and an account without records exports empty lists', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app);
    const calendar = await app.inject({ method: 'GET', url: '/api/events/export.ics', headers });
    assert.equal(calendar.headers['content-type'], 'text/calendar; charset=utf-8');
    assert.equal(calendar.headers['content-disposition'], 'attachment; filename="time-wallet.ics"');
    assert.equal(calendar.body.split('BEGIN:VEVENT').length, 1);
    const everything = await app.inject({ method: 'GET', url: '/api/users/me/export', headers });
    assert.equal(everything.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(everything.headers['content-disposition'], 'attachment; filename="time-wallet-export.json"');
    const data = everything.json();
    assert.deepEqual(
      {
        categories: data.categories,
        tasks: data.tasks,
        events: data.events,
        snapshots: data.analyticsSnapshots,
      },
      { categories: [], tasks: [], events: [], snapshots: [] },
    );
    assert.equal(data.exportedAt, '2026-03-11T15:00:00.000Z');
  });
});
