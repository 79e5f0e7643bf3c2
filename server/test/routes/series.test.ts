import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, send, signUp } from '../helpers.js';

// Series are stored once and expanded on every read (issue 17): these pin the API's behaviour with numbers.
const BERLIN = 'Europe/Berlin';

interface Item {
  _id: string;
  title: string;
  start: string;
  end: string;
  seriesId: string;
  rrule: string;
  recurrenceId: string;
  done?: boolean;
  date?: string;
  trackedMinutes?: number;
  startHHMM?: string;
}

async function user(now = Date.parse('2026-11-23T10:00:00Z')) {
  const { app } = await buildTestApp({ now });
  const { headers } = await signUp(app, { timeZone: BERLIN });
  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: object) => {
    const response = await send(app, headers, method, url, body as Record<string, unknown>);
    return { status: response.statusCode, json: response.body ? response.json() : undefined };
  };
  return { app, call };
}

const eventsIn = async (call: Awaited<ReturnType<typeof user>>['call'], from: string, to: string) => {
  const response = await call('GET', `/api/events?from=${from}&to=${to}`);
  assert.equal(response.status, 200);
  return response.json as Item[];
};

describe('event series', () => {
  test('a weekly series from 2020 shows in 2028 and a COUNT series in 2030 has exactly its occurrences', async () => {
    const { call } = await user();
    const weekly = await call('POST', '/api/events', {
      title: 'Standup',
      start: '2020-01-06T09:00:00',
      end: '2020-01-06T09:30:00',
      rrule: 'FREQ=WEEKLY;BYDAY=MO,WE',
    });
    assert.equal(weekly.status, 201);
    assert.equal(weekly.json.seriesId, weekly.json._id);
    assert.equal(weekly.json.rrule, 'FREQ=WEEKLY;BYDAY=MO,WE');
    assert.equal(weekly.json.end, '2020-01-06T08:30:00.000Z');

    const in2028 = await eventsIn(call, '2028-03-05', '2028-03-12');
    assert.deepEqual(
      in2028.map((event) => [event.title, event.start, event.seriesId, event.recurrenceId === event.start]),
      [
        ['Standup', '2028-03-06T08:00:00.000Z', weekly.json._id, true],
        ['Standup', '2028-03-08T08:00:00.000Z', weekly.json._id, true],
      ],
    );

    await call('POST', '/api/events', {
      title: 'Course',
      start: '2030-05-06T18:00:00',
      end: '2030-05-06T20:00:00',
      rrule: 'FREQ=WEEKLY;COUNT=4',
    });
    const may = await eventsIn(call, '2030-05-01', '2030-06-30');
    assert.deepEqual(
      may.filter((event) => event.title === 'Course').map((event) => event.start),
      [
        '2030-05-06T16:00:00.000Z',
        '2030-05-13T16:00:00.000Z',
        '2030-05-20T16:00:00.000Z',
        '2030-05-27T16:00:00.000Z',
      ],
    );
    assert.equal(
      (await eventsIn(call, '2026-11-01', '2026-12-31')).filter((e) => e.title === 'Course').length,
      0,
    );
  });

  test('a daily series keeps its wall-clock time across a DST change', async () => {
    const { call } = await user();
    await call('POST', '/api/events', {
      title: 'Run',
      start: '2026-03-27T07:00:00',
      end: '2026-03-27T08:00:00',
      rrule: 'FREQ=DAILY',
    });
    const days = await eventsIn(call, '2026-03-28', '2026-03-31');
    assert.deepEqual(
      days.map((event) => event.start),
      ['2026-03-28T06:00:00.000Z', '2026-03-29T05:00:00.000Z', '2026-03-30T05:00:00.000Z'],
    );
  });

  test('skip one occurrence, undo it; move one; change this and following; change all', async () => {
    const { call } = await user();
    const series = (
      await call('POST', '/api/events', {
        title: 'Gym',
        start: '2026-11-02T18:00:00',
        end: '2026-11-02T19:00:00',
        rrule: 'FREQ=WEEKLY;BYDAY=MO,WE',
      })
    ).json as Item;
    const week = () => eventsIn(call, '2026-11-01', '2026-11-22');
    const [first, second, third, fourth] = await week();
    assert.equal((await week()).length, 6);

    // Skip: by the series' id and the occurrence's start; Undo brings it back.
    const skipped = await call('DELETE', `/api/events/${series._id}?occurrence=${second!.recurrenceId}`);
    assert.equal(skipped.status, 204);
    assert.deepEqual(
      (await week()).map((event) => event._id),
      [first, third, fourth]
        .map((event) => event!._id)
        .concat((await week()).slice(3).map((event) => event._id)),
    );
    assert.equal((await week()).length, 5);
    assert.equal((await call('POST', `/api/events/${second!._id}/restore`)).status, 200);
    assert.equal((await week()).length, 6);
    assert.equal(
      (await call('DELETE', `/api/events/${series._id}?occurrence=2026-11-03T17:00:00.000Z`)).status,
      404,
    );
    assert.equal((await call('DELETE', `/api/events/${series._id}?occurrence=tuesday`)).status, 400);

    // This occurrence: moved an hour later, keeping its id; the others stay.
    const moved = await call('PATCH', `/api/events/${third!._id}`, {
      start: '2026-11-09T19:00:00',
      end: '2026-11-09T20:00:00',
    });
    assert.equal(moved.status, 200);
    assert.equal(moved.json._id, third!._id);
    assert.equal(moved.json.recurrenceId, third!.start);
    const afterMove = await week();
    assert.equal(afterMove.length, 6);
    assert.equal(afterMove.find((event) => event._id === third!._id)!.start, '2026-11-09T18:00:00.000Z');
    assert.equal(afterMove.filter((event) => event.start.endsWith('T17:00:00.000Z')).length, 5);

    // This and following, from the fourth: earlier ones keep the old time, later ones move to 07:00.
    const following = await call('PATCH', `/api/events/${fourth!._id}?scope=following`, {
      title: 'Morning gym',
      start: '2026-11-11T07:00:00',
      end: '2026-11-11T08:00:00',
    });
    assert.equal(following.status, 200);
    const afterSplit = await week();
    assert.deepEqual(
      afterSplit.map((event) => [event.title, event.start]),
      [
        ['Gym', '2026-11-02T17:00:00.000Z'],
        ['Gym', '2026-11-04T17:00:00.000Z'],
        ['Gym', '2026-11-09T18:00:00.000Z'],
        ['Morning gym', '2026-11-11T06:00:00.000Z'],
        ['Morning gym', '2026-11-16T06:00:00.000Z'],
        ['Morning gym', '2026-11-18T06:00:00.000Z'],
      ],
    );
    assert.notEqual(afterSplit[3]!.seriesId, series._id);

    // All: the first series renamed; its moved occurrence takes the title and keeps its own time.
    const all = await call('PATCH', `/api/events/${first!._id}?scope=all`, { title: 'Evening gym' });
    assert.equal(all.status, 200);
    assert.deepEqual(
      (await week()).slice(0, 3).map((event) => [event.title, event.start]),
      [
        ['Evening gym', '2026-11-02T17:00:00.000Z'],
        ['Evening gym', '2026-11-04T17:00:00.000Z'],
        ['Evening gym', '2026-11-09T18:00:00.000Z'],
      ],
    );

    // Deleting the series deletes every occurrence, moved ones included.
    assert.equal((await call('DELETE', `/api/events/${series._id}`)).status, 204);
    assert.deepEqual(
      (await week()).map((event) => event.title),
      ['Morning gym', 'Morning gym', 'Morning gym'],
    );
  });

  test("a series edit renames the occurrences that had the series' title; one renamed alone keeps its own", async () => {
    const { call } = await user();
    const series = (
      await call('POST', '/api/events', {
        title: 'Swim',
        start: '2026-11-02T07:00:00',
        end: '2026-11-02T08:00:00',
        rrule: 'FREQ=WEEKLY',
      })
    ).json as Item;
    const weeks = async () =>
      (await eventsIn(call, '2026-11-01', '2026-12-06')).map((event) => [
        event.title,
        event.start.slice(5, 16),
      ]);
    const [, week2, week3, week4] = await eventsIn(call, '2026-11-01', '2026-12-06');
    // Week 2 renamed alone; week 3 only moved an hour, so it still has the series' title.
    assert.equal(
      (await call('PATCH', `/api/events/${week2!._id}`, { title: 'Swim (pool closed)' })).status,
      200,
    );
    const week3Moved = await call('PATCH', `/api/events/${week3!._id}`, {
      start: '2026-11-16T08:00:00',
      end: '2026-11-16T09:00:00',
    });
    assert.equal(week3Moved.status, 200);

    // The whole series renamed from week 1: week 2 keeps its own title, week 3 takes the new one at its own time.
    assert.equal((await call('PATCH', `/api/events/${series._id}?scope=all`, { title: 'Laps' })).status, 200);
    assert.deepEqual(await weeks(), [
      ['Laps', '11-02T06:00'],
      ['Swim (pool closed)', '11-09T06:00'],
      ['Laps', '11-16T07:00'],
      ['Laps', '11-23T06:00'],
      ['Laps', '11-30T06:00'],
    ]);

    // From week 4 on, half an hour later: the split keeps week 2's title, and the occurrence edited takes the edit.
    const following = await call('PATCH', `/api/events/${week4!._id}?scope=following`, {
      title: 'Late laps',
      start: '2026-11-23T07:30:00',
      end: '2026-11-23T08:30:00',
    });
    assert.equal(following.status, 200);
    // The one renamed alone, edited for all: it is what it was edited to, and so is the series.
    const [, renamed] = await eventsIn(call, '2026-11-01', '2026-11-15');
    const all = await call('PATCH', `/api/events/${renamed!._id}?scope=all`, { title: 'Pool' });
    assert.equal(all.status, 200);
    assert.deepEqual(await weeks(), [
      ['Pool', '11-02T06:00'],
      ['Pool', '11-09T06:00'],
      ['Pool', '11-16T07:00'],
      ['Late laps', '11-23T06:30'],
      ['Late laps', '11-30T06:30'],
    ]);
  });

  test("'following' with no rule makes the rest one event; the earlier occurrences and their edits stay", async () => {
    const { call } = await user();
    await call('POST', '/api/events', {
      title: 'Class',
      start: '2026-11-02T10:00:00',
      end: '2026-11-02T11:00:00',
      rrule: 'FREQ=DAILY;COUNT=5',
    });
    const [first, second, third] = await eventsIn(call, '2026-11-01', '2026-11-08');
    assert.equal((await call('PATCH', `/api/events/${first!._id}`, { title: 'First class' })).status, 200);
    const single = await call('PATCH', `/api/events/${third!._id}?scope=following`, { rrule: '' });
    assert.equal(single.status, 200);
    assert.equal(single.json.rrule, '');
    assert.equal(single.json.seriesId, '');
    const after = await eventsIn(call, '2026-11-01', '2026-11-08');
    assert.deepEqual(
      after.map((event) => [event.title, event.start, event.rrule]),
      [
        ['First class', first!.start, 'FREQ=DAILY;UNTIL=20261104T085959Z'],
        ['Class', second!.start, 'FREQ=DAILY;UNTIL=20261104T085959Z'],
        ['Class', third!.start, ''],
      ],
    );
  });

  test('pathological and malformed rules are refused with a message, never a 5xx', async () => {
    const { call } = await user();
    for (const rrule of [
      'FREQ=SECONDLY',
      'FREQ=DAILY;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11;BYMINUTE=0,1,2,3,4,5',
      'FREQ=DAILY;COUNT=5000',
      'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=31',
      'FREQ=WEEKLY;UNTIL=',
      'nonsense',
    ]) {
      const response = await call('POST', '/api/events', {
        title: 'Bad',
        start: '2026-11-23T09:00:00',
        end: '2026-11-23T10:00:00',
        rrule,
      });
      assert.equal(response.status, 400, rrule);
      assert.match(response.json.message, /\w/, rrule);
    }
  });
});

describe('task series', () => {
  test("one occurrence done leaves the next undone; Yesterday lists only yesterday's; figures count each day", async () => {
    const { call } = await user(Date.parse('2026-11-24T10:00:00Z'));
    const created = await call('POST', '/api/tasks', {
      title: 'Stretch',
      date: '2026-11-20',
      startHHMM: '08:00',
      endHHMM: '08:30',
      rrule: 'FREQ=DAILY',
    });
    assert.equal(created.status, 201);

    const today = await call('GET', '/api/tasks/today');
    assert.equal(today.status, 200);
    const [occurrence] = today.json.tasks as Item[];
    assert.equal(today.json.tasks.length, 1);
    assert.equal(occurrence!.date, '2026-11-24');
    assert.equal(occurrence!.seriesId, created.json._id);
    assert.equal(today.json.plannedHours, 0.5);

    const ticked = await call('PATCH', `/api/tasks/${occurrence!._id}`, { done: true });
    assert.equal(ticked.status, 200);
    assert.equal(ticked.json._id, occurrence!._id);
    assert.equal(ticked.json.done, true);
    const tomorrow = await call('GET', '/api/tasks?date=2026-11-25');
    assert.deepEqual(
      (tomorrow.json.tasks as Item[]).map((task) => [task.title, task.done]),
      [['Stretch', false]],
    );
    const todayDone = await call('GET', '/api/tasks?date=2026-11-24&done=true');
    assert.deepEqual(
      (todayDone.json.tasks as Item[]).map((task) => task._id),
      [occurrence!._id],
    );
    const yesterdayPending = await call('GET', '/api/tasks?date=2026-11-23&done=false');
    assert.deepEqual(
      (yesterdayPending.json.tasks as Item[]).map((task) => task.date),
      ['2026-11-23'],
    );

    // The ledger counts every day's occurrence once, the ticked one as done.
    const ledger = await call('GET', '/api/ledger?from=2026-11-19&to=2026-11-26');
    assert.equal(ledger.status, 200);
    const planned = (ledger.json.days as { date: string; plannedMinutes: number }[]).map((day) => [
      day.date,
      day.plannedMinutes,
    ]);
    assert.deepEqual(planned, [
      ['2026-11-19', 0],
      ['2026-11-20', 30],
      ['2026-11-21', 30],
      ['2026-11-22', 30],
      ['2026-11-23', 30],
      ['2026-11-24', 30],
      ['2026-11-25', 30],
    ]);
  });

  test('a timer runs on an occurrence across requests', async () => {
    const { app, call } = await user(Date.parse('2026-11-24T10:00:00Z'));
    const series = (
      await call('POST', '/api/tasks', {
        title: 'Read',
        date: '2026-11-24',
        startHHMM: '11:00',
        endHHMM: '12:00',
        rrule: 'FREQ=WEEKLY;BYDAY=TU',
      })
    ).json as Item;
    const [occurrence] = (await call('GET', '/api/tasks/today')).json.tasks as Item[];
    assert.equal(occurrence!.seriesId, series._id);
    assert.equal((await call('POST', `/api/tasks/${occurrence!._id}/timer/start`)).status, 200);
    (app as FastifyInstance & { now: () => number }).now = () => Date.parse('2026-11-24T10:25:00Z');
    const stopped = await call('POST', `/api/tasks/${occurrence!._id}/timer/stop`);
    assert.equal(stopped.status, 200);
    assert.equal(stopped.json.trackedMinutes, 25);
    const nextWeek = (await call('GET', '/api/tasks?date=2026-12-01')).json.tasks as Item[];
    assert.deepEqual(
      nextWeek.map((task) => task.trackedMinutes),
      [0],
    );
  });

  test('an unscheduled series plans its estimate every day; a ticked occurrence reads once', async () => {
    const { call } = await user(Date.parse('2026-11-24T10:00:00Z'));
    await call('POST', '/api/tasks', {
      title: 'Inbox zero',
      date: '2026-11-24',
      estimateMinutes: 20,
      rrule: 'FREQ=DAILY',
    });
    const unscheduled = await call('GET', '/api/tasks?date=2026-11-26&scheduled=false');
    assert.deepEqual(
      (unscheduled.json.tasks as Item[]).map((task) => [task.title, task.date]),
      [['Inbox zero', '2026-11-26']],
    );
    const today = await call('GET', '/api/tasks/today');
    assert.equal(today.json.unscheduledHours, 0.3);
    // Its occurrence ticked is read once, as the override it now is.
    const [inbox] = (await call('GET', '/api/tasks?date=2026-11-24&scheduled=false')).json.tasks as Item[];
    assert.equal((await call('PATCH', `/api/tasks/${inbox!._id}`, { done: true })).status, 200);
    const afterTick = (await call('GET', '/api/tasks?date=2026-11-24&scheduled=false')).json.tasks as Item[];
    assert.deepEqual(
      afterTick.map((task) => [task._id, task.done]),
      [[inbox!._id, true]],
    );
  });
  test('a block dragged on the grid moves this, the following or all occurrences by start and end', async () => {
    const { call } = await user(Date.parse('2026-11-24T10:00:00Z'));
    await call('POST', '/api/tasks', {
      title: 'Stretch',
      date: '2026-11-20',
      startHHMM: '08:00',
      endHHMM: '08:30',
      rrule: 'FREQ=DAILY',
    });
    const onDay = async (date: string) =>
      ((await call('GET', `/api/tasks?date=${date}`)).json.tasks as Item[]).map((task) => task.startHHMM);
    const occurrenceOn = async (date: string) =>
      ((await call('GET', `/api/tasks?date=${date}`)).json.tasks as Item[])[0]!;

    // 'following' from Monday 23rd, dropped at 09:00 (Berlin is UTC+1): the days before keep 08:00.
    const monday = await occurrenceOn('2026-11-23');
    const following = await call('PATCH', `/api/tasks/${monday._id}?scope=following`, {
      start: '2026-11-23T08:00:00.000Z',
      end: '2026-11-23T08:30:00.000Z',
    });
    assert.equal(following.status, 200);
    assert.deepEqual(
      [await onDay('2026-11-22'), await onDay('2026-11-23'), await onDay('2026-11-26')],
      [['08:00'], ['09:00'], ['09:00']],
    );

    // 'all' from Wednesday 25th dropped on Thursday 26th at 11:00: that part of the series shifts a day and two hours.
    const wednesday = await occurrenceOn('2026-11-25');
    const all = await call('PATCH', `/api/tasks/${wednesday._id}?scope=all`, {
      start: '2026-11-26T10:00:00.000Z',
      end: '2026-11-26T10:30:00.000Z',
    });
    assert.equal(all.status, 200);
    assert.deepEqual(
      [
        await onDay('2026-11-23'),
        await onDay('2026-11-24'),
        await onDay('2026-11-26'),
        await onDay('2026-11-27'),
      ],
      [[], ['11:00'], ['11:00'], ['11:00']],
    );
    // The half before the split is untouched by an 'all' on the other half.
    assert.deepEqual(await onDay('2026-11-22'), ['08:00']);
  });

  test('deleting a series takes its edited occurrences with it, and one Undo brings all of them back', async () => {
    const { call } = await user(Date.parse('2026-11-24T10:00:00Z'));
    const series = (
      await call('POST', '/api/tasks', {
        title: 'Stretch',
        date: '2026-11-23',
        startHHMM: '08:00',
        endHHMM: '08:30',
        rrule: 'FREQ=DAILY;COUNT=5',
      })
    ).json as Item;
    const day = async (date: string) =>
      ((await call('GET', `/api/tasks?date=${date}`)).json.tasks as Item[]).map((task) => [
        task._id,
        task.title,
        task.startHHMM,
        task.done,
        task.trackedMinutes,
      ]);
    const [ticked] = ((await call('GET', '/api/tasks?date=2026-11-24')).json.tasks as Item[]) ?? [];
    assert.equal(
      (await call('PATCH', `/api/tasks/${ticked!._id}`, { done: true, trackedMinutes: 25 })).status,
      200,
    );
    const [moved] = ((await call('GET', '/api/tasks?date=2026-11-25')).json.tasks as Item[]) ?? [];
    const movedEdit = { title: 'Long stretch', startHHMM: '09:00', endHHMM: '10:00' };
    assert.equal((await call('PATCH', `/api/tasks/${moved!._id}?scope=this`, movedEdit)).status, 200);
    const before = [await day('2026-11-23'), await day('2026-11-24'), await day('2026-11-25')];
    assert.deepEqual(before[1]![0]!.slice(3), [true, 25]);
    assert.deepEqual(before[2]![0]!.slice(1, 3), ['Long stretch', '09:00']);

    assert.equal((await call('DELETE', `/api/tasks/${series._id}`)).status, 204);
    for (const date of ['2026-11-23', '2026-11-24', '2026-11-25']) assert.deepEqual(await day(date), []);

    const undone = await call('POST', `/api/tasks/${series._id}/restore`);
    assert.equal(undone.status, 200);
    assert.equal(undone.json._id, series._id);
    assert.deepEqual([await day('2026-11-23'), await day('2026-11-24'), await day('2026-11-25')], before);
    // Undone once: a second Undo has nothing left to bring back.
    assert.equal((await call('POST', `/api/tasks/${series._id}/restore`)).status, 404);
  });
});
