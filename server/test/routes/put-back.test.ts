import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, injectFailure, send, signUp } from '../helpers.js';

// POST /tasks/put-back (issue 29): the Yesterday screen's Put Back in one call and one transaction, including the
// series rule the client used to apply with several requests.
const BERLIN = 'Europe/Berlin';
const NOW = Date.parse('2026-11-23T10:00:00Z');
const TODAY = '2026-11-23';
const YESTERDAY = '2026-11-22';

interface TaskJson {
  _id: string;
  title: string;
  date: string;
  startHHMM: string;
  endHHMM: string;
  start: string;
  end: string;
  done: boolean;
  seriesId: string;
  recurrenceId: string;
  notes: string;
}

async function user() {
  const { app } = await buildTestApp({ now: NOW });
  const { headers } = await signUp(app, { timeZone: BERLIN });
  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: object) => {
    const response = await send(app, headers, method, url, body as Record<string, unknown>);
    return { status: response.statusCode, json: response.body ? response.json() : undefined };
  };
  const create = async (fields: Record<string, unknown>) => {
    const created = await call('POST', '/api/tasks', { date: YESTERDAY, ...fields });
    assert.equal(created.status, 201, JSON.stringify(created.json));
    return created.json as TaskJson;
  };
  const dayOf = async (date: string, query = '') => {
    const listed = await call('GET', `/api/tasks?date=${date}${query}`);
    assert.equal(listed.status, 200);
    return listed.json.tasks as TaskJson[];
  };
  const putBack = (ids: string[], date = TODAY) => call('POST', '/api/tasks/put-back', { ids, date });
  return { app, headers, call, create, dayOf, putBack };
}

const allTasks = (app: FastifyInstance) => app.db.selectFrom('tasks').selectAll().orderBy('id').execute();

describe('POST /api/tasks/put-back', () => {
  test("moves yesterday's tasks to the day at the same clock times, not done, and answers them", async () => {
    const { create, putBack, dayOf } = await user();
    const report = await create({ title: 'Report', startHHMM: '09:00', endHHMM: '10:30' });
    const late = await create({ title: 'Late shift', startHHMM: '23:00', endHHMM: '01:00', done: true });

    const answer = await putBack([report._id, late._id]);
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    const pick = ({ _id, date, startHHMM, endHHMM, start, end, done }: TaskJson) => ({
      _id,
      date,
      startHHMM,
      endHHMM,
      start,
      end,
      done,
    });
    // A block crossing midnight keeps its length: 23:00 today to 01:00 tomorrow.
    assert.deepEqual((answer.json.tasks as TaskJson[]).map(pick), [
      {
        _id: report._id,
        date: TODAY,
        startHHMM: '09:00',
        endHHMM: '10:30',
        start: '2026-11-23T08:00:00.000Z',
        end: '2026-11-23T09:30:00.000Z',
        done: false,
      },
      {
        _id: late._id,
        date: TODAY,
        startHHMM: '23:00',
        endHHMM: '01:00',
        start: '2026-11-23T22:00:00.000Z',
        end: '2026-11-24T00:00:00.000Z',
        done: false,
      },
    ]);
    assert.deepEqual((await dayOf(TODAY)).map(pick), (answer.json.tasks as TaskJson[]).map(pick));
    assert.deepEqual(await dayOf(YESTERDAY, '&done=false'), []);
  });

  test("yesterday's occurrence of a daily task takes the place of today's untouched one", async () => {
    const { create, putBack, dayOf } = await user();
    const series = await create({
      title: 'Stretch',
      date: '2026-11-20',
      startHHMM: '07:00',
      endHHMM: '07:30',
      rrule: 'FREQ=DAILY',
    });
    const [yesterdays] = await dayOf(YESTERDAY, '&done=false');
    assert.equal(yesterdays!.seriesId, series._id);

    const answer = await putBack([yesterdays!._id]);
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    // Today holds it once: the occurrence put back, with yesterday's id, at the same clock time.
    const todays = await dayOf(TODAY);
    assert.deepEqual(
      todays.map((task) => [task._id, task.startHHMM, task.seriesId, task.done]),
      [[yesterdays!._id, '07:00', series._id, false]],
    );
    assert.deepEqual(answer.json.tasks, todays);
    assert.deepEqual(await dayOf(YESTERDAY), []);
    // The series goes on: tomorrow has its own.
    assert.equal((await dayOf('2026-11-24')).length, 1);
  });

  test("today's occurrence stays when it was ticked, tracked, timed, noted or moved", async () => {
    const touches: Array<[string, 'PATCH' | 'POST', string, object?]> = [
      ['ticked', 'PATCH', '', { done: true }],
      ['tracked', 'PATCH', '', { trackedMinutes: 5 }],
      ['timed', 'POST', '/timer/start'],
      ['noted', 'PATCH', '', { notes: 'left knee' }],
      ['moved', 'PATCH', '', { startHHMM: '08:00', endHHMM: '08:30' }],
    ];
    for (const [touch, method, action, body] of touches) {
      const { create, putBack, dayOf, call } = await user();
      await create({
        title: 'Stretch',
        date: '2026-11-20',
        startHHMM: '07:00',
        endHHMM: '07:30',
        rrule: 'FREQ=DAILY',
      });
      const [yesterdays] = await dayOf(YESTERDAY);
      const [todays] = await dayOf(TODAY);
      const touched = await call(method, `/api/tasks/${todays!._id}${action}`, body);
      assert.equal(touched.status, 200, touch);

      const answer = await putBack([yesterdays!._id]);
      assert.equal(answer.status, 200, touch);
      assert.deepEqual(
        (await dayOf(TODAY)).map((task) => task._id).sort(),
        [yesterdays!._id, todays!._id].sort(),
        `today's ${touch} occurrence stays beside the one put back`,
      );
    }
  });

  test('one occurrence is replaced per series, and single tasks beside them move as well', async () => {
    const { create, putBack, dayOf } = await user();
    await create({
      title: 'Stretch',
      date: '2026-11-20',
      startHHMM: '07:00',
      endHHMM: '07:30',
      rrule: 'FREQ=DAILY',
    });
    const single = await create({ title: 'Report', startHHMM: '09:00', endHHMM: '10:00' });
    const [twoDaysAgo] = await dayOf('2026-11-21');
    const [yesterdays] = (await dayOf(YESTERDAY)).filter((task) => task.seriesId !== '');

    const answer = await putBack([twoDaysAgo!._id, yesterdays!._id, single._id]);
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    assert.deepEqual(
      (await dayOf(TODAY)).map((task) => [task._id, task.startHHMM]),
      [
        [twoDaysAgo!._id, '07:00'],
        [yesterdays!._id, '07:00'],
        [single._id, '09:00'],
      ],
    );
  });

  test('a failure midway changes nothing', async () => {
    const { app, create, putBack, dayOf } = await user();
    const first = await create({ title: 'Report', startHHMM: '09:00', endHHMM: '10:00' });
    const refused = await create({ title: 'Refused', startHHMM: '11:00', endHHMM: '12:00' });
    await create({
      title: 'Stretch',
      date: '2026-11-20',
      startHHMM: '07:00',
      endHHMM: '07:30',
      rrule: 'FREQ=DAILY',
    });
    const [yesterdays] = (await dayOf(YESTERDAY)).filter((task) => task.seriesId !== '');
    const before = await allTasks(app);

    // The first task's move is written, then the second's is refused.
    const allowMoves = await injectFailure(app, {
      table: 'tasks',
      on: 'update of start_at',
      when: "NEW.title = 'Refused'",
    });
    const moved = await putBack([first._id, refused._id]);
    assert.equal(moved.status, 500);
    assert.deepEqual(await allTasks(app), before);

    // The occurrence's move is written, then skipping today's own (the series' last write) is refused.
    await allowMoves();
    await injectFailure(app, { table: 'tasks', on: 'update of exdates', when: 'NEW.exdates is not null' });
    const replaced = await putBack([yesterdays!._id, first._id]);
    assert.equal(replaced.status, 500);
    assert.deepEqual(await allTasks(app), before);
    assert.equal((await dayOf(TODAY)).length, 1);
  });

  test('refuses bad input with a message and changes nothing', async () => {
    const { app, create, putBack, call } = await user();
    const mine = await create({ title: 'Report', startHHMM: '09:00', endHHMM: '10:00' });
    const stranger = await signUp(app, { timeZone: BERLIN });
    const theirs = await send(app, stranger.headers, 'POST', '/api/tasks', {
      title: 'Theirs',
      date: YESTERDAY,
      startHHMM: '09:00',
      endHHMM: '10:00',
    });
    const before = await allTasks(app);

    const cases: Array<[string, { status: number; json: { message?: string } }, number, RegExp]> = [
      ['no ids', await putBack([]), 400, /ids/],
      ['an unknown id', await putBack([mine._id, 'no-such-task']), 404, /Task not found: no-such-task/],
      ["another user's id", await putBack([mine._id, theirs.json()._id]), 404, /Task not found/],
      ['an impossible date', await putBack([mine._id], '2026-02-30'), 400, /date/],
      ['not a date', await putBack([mine._id], 'tomorrow'), 400, /date/],
      [
        'an unknown property',
        await call('POST', '/api/tasks/put-back', { ids: [mine._id], date: TODAY, done: false }),
        400,
        /done/,
      ],
      ['too many ids', await putBack(Array.from({ length: 201 }, (_, index) => `id-${index}`)), 400, /ids/],
      ['no body', await call('POST', '/api/tasks/put-back'), 400, /./],
    ];
    for (const [name, response, status, message] of cases) {
      assert.equal(response.status, status, name);
      assert.match(JSON.stringify(response.json), message, name);
      assert.equal(typeof response.json.message, 'string', name);
    }
    assert.deepEqual(await allTasks(app), before);
  });

  test("PATCH with start, end and done false still puts back one task, as SPEC's other clients send it", async () => {
    const { create, call, dayOf } = await user();
    const report = await create({ title: 'Report', startHHMM: '09:00', endHHMM: '10:30', done: true });
    const patched = await call('PATCH', `/api/tasks/${report._id}`, {
      start: '2026-11-23T08:00:00.000Z',
      end: '2026-11-23T09:30:00.000Z',
      done: false,
    });
    assert.equal(patched.status, 200);
    assert.deepEqual(
      (await dayOf(TODAY)).map(({ _id, startHHMM, endHHMM, done }) => ({ _id, startHHMM, endHHMM, done })),
      [{ _id: report._id, startHHMM: '09:00', endHHMM: '10:30', done: false }],
    );
  });
});
