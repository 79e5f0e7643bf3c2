import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../../src/config.js';
import { DEFINITIONS } from '../../src/schemas/ledger.js';
import { addDays, startOfLocalDay } from '../../src/lib/time-zone.js';
import { buildTestApp, send, signUp } from '../helpers.js';
import { repositoryRoot } from '../support/source.js';

// Issue 31, "Wrong figures found" (rows 1-6) and "Inconsistencies" (rows 7-20): one test per row, each set up through
// the HTTP API with the app's injected clock, each asserting the figure the "What to build" requires.

const NEW_YORK = 'America/New_York';
const BERLIN = 'Europe/Berlin';
const TOKYO = 'Asia/Tokyo';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

interface LedgerDayJson {
  date: string;
  plannedMinutes: number;
  trackedMinutes: number;
  unscheduledMinutes: number;
  productiveMinutes: number;
  budgetMinutes: number;
  overMinutes: number;
  remainingMinutes: number;
}

interface DailyJson {
  date: string;
  minutes: number;
  productiveMinutes: number;
  plannedMinutes: number;
  trackedMinutes: number;
  budgetMinutes: number;
  overMinutes: number;
  remainingMinutes: number;
}

interface WeekJson {
  weekStart: string;
  totalMinutes: number;
  byCategory: Array<{ categoryId: string; name: string; minutes: number; percent: number }>;
  averageProductiveHours: number;
  streak: number;
  daily: DailyJson[];
}

interface TaskJson {
  _id: string;
  title: string;
  date: string;
  start: string;
  end: string;
  done: boolean;
  dismissed: boolean;
  scheduled: boolean;
  trackedMinutes: number;
  timerStartedAt: string | null;
}

interface EntryJson {
  id: string;
  taskId: string;
  start: string;
  end: string | null;
  source: 'timer' | 'manual';
}

/** minutes / 60 at one decimal, as /tasks/today reports hours (ISSUE 31, "What to build" 2). */
const hoursOf = (minutes: number) => Math.round((minutes / 60) * 10) / 10;

/** A signed-in user of a fresh app whose sessions outlive the clock jumps of a test. */
async function account(options: {
  now: number;
  zone: string;
  config?: Partial<Omit<AppConfig, 'rateLimit'>>;
}) {
  const { app, clock } = await buildTestApp({
    now: options.now,
    config: { sessionIdleMinutes: 60 * 24 * 365, tokenTtlSeconds: 3600 * 24 * 365, ...options.config },
  });
  const { headers } = await signUp(app, { timeZone: options.zone });
  return userOf(app, clock, headers);
}

function userOf(app: FastifyInstance, clock: { now: number }, headers: Headers) {
  const inZone = (zone?: string): Headers => (zone ? { ...headers, 'x-time-zone': zone } : headers);
  const call = async (method: Method, url: string, body?: object, zone?: string) => {
    const response = await send(app, inZone(zone), method, url, body as Record<string, unknown> | undefined);
    return {
      status: response.statusCode,
      json: response.body ? response.json() : undefined,
      body: response.body,
    };
  };
  const ok = async (method: Method, url: string, body?: object, zone?: string) => {
    const response = await call(method, url, body, zone);
    assert.ok(
      response.status < 300,
      `${method} ${url} ${JSON.stringify(body ?? {})}: ${response.status} ${response.body}`,
    );
    return response.json;
  };
  const task = (fields: Record<string, unknown>, zone?: string): Promise<TaskJson> =>
    ok('POST', '/api/tasks', { title: 'Task', ...fields }, zone);
  const event = (fields: Record<string, unknown>, zone?: string) =>
    ok('POST', '/api/events', { title: 'Event', ...fields }, zone);
  /** The ledger of the local days [from, to) (to defaults to the day after from). */
  const ledger = async (from: string, to = addDays(from, 1), zone?: string): Promise<LedgerDayJson[]> =>
    (await ok('GET', `/api/ledger?from=${from}&to=${to}`, undefined, zone)).days;
  const day = async (date: string, zone?: string): Promise<LedgerDayJson> =>
    (await ledger(date, undefined, zone))[0]!;
  const week = (date: string, zone?: string): Promise<WeekJson> =>
    ok('GET', `/api/aggregation/analytics/weekly?date=${date}`, undefined, zone);
  const today = (zone?: string) => ok('GET', '/api/tasks/today', undefined, zone);
  const dayList = async (date: string, query = '', zone?: string): Promise<TaskJson[]> =>
    (await ok('GET', `/api/tasks?date=${date}${query}`, undefined, zone)).tasks;
  const entries = async (from: string, to: string, zone?: string): Promise<EntryJson[]> =>
    (await ok('GET', `/api/time-entries?from=${from}&to=${to}`, undefined, zone)).entries;
  const findTask = async (id: string, date: string, zone?: string) => {
    const listed = [...(await dayList(date, '', zone)), ...(await dayList(date, '&scheduled=false', zone))];
    return listed.find((item) => item._id === id);
  };
  return { app, clock, headers, call, ok, task, event, ledger, day, week, today, dayList, entries, findTask };
}

const dailyOf = (week: WeekJson, date: string) => {
  const found = week.daily.find((item) => item.date === date);
  assert.ok(found, `no daily entry for ${date}`);
  return found;
};
const dayLength = (zone: string, date: string) =>
  (startOfLocalDay(zone, addDays(date, 1)) - startOfLocalDay(zone, date)) / MINUTE;

describe('issue 31: the ledger findings, one test per row', () => {
  test('row 1: productive counts an ended event and the same tracked task once', async () => {
    // Thursday 12 March 2026, 11:00 in New York: Tuesday and Wednesday are over.
    const user = await account({ now: Date.parse('2026-03-12T15:00:00Z'), zone: NEW_YORK });
    await user.event({ start: '2026-03-11T08:00:00-04:00', end: '2026-03-11T10:00:00-04:00' });
    const work = await user.task({ date: '2026-03-11', startHHMM: '08:00', endHHMM: '10:00' });
    await user.ok('PATCH', `/api/tasks/${work._id}`, { done: true });
    await user.ok('PATCH', `/api/tasks/${work._id}`, { trackedMinutes: 120 });

    const wednesday = await user.day('2026-03-11');
    assert.equal(wednesday.plannedMinutes, 120);
    assert.equal(wednesday.trackedMinutes, 120);
    assert.equal(wednesday.productiveMinutes, 120, 'the event and the tracked task cover the same two hours');
    assert.equal(dailyOf(await user.week('2026-03-11'), '2026-03-11').productiveMinutes, 120);

    // A 24-hour event and a task tracked 1,440 minutes the same day: one day's worth, not two.
    await user.event({ start: '2026-03-10T00:00:00-04:00', end: '2026-03-11T00:00:00-04:00' });
    const long = await user.task({ date: '2026-03-10', startHHMM: '00:00', endHHMM: '23:59' });
    await user.ok('PATCH', `/api/tasks/${long._id}`, { done: true });
    await user.ok('PATCH', `/api/tasks/${long._id}`, { trackedMinutes: 1440 });
    const tuesday = await user.day('2026-03-10');
    assert.equal(tuesday.productiveMinutes, 1440);
    assert.equal(tuesday.trackedMinutes, 1440);
    assert.equal(dailyOf(await user.week('2026-03-10'), '2026-03-10').productiveMinutes, 1440);
  });

  test('row 2: tracked time never exceeds the length of a day', async () => {
    const user = await account({ now: Date.parse('2026-03-12T15:00:00Z'), zone: NEW_YORK });
    const first = await user.task({ date: '2026-03-10', startHHMM: '09:00', endHHMM: '10:00' });
    const second = await user.task({ date: '2026-03-10', startHHMM: '11:00', endHHMM: '12:00' });
    await user.ok('PATCH', `/api/tasks/${first._id}`, { trackedMinutes: 1440 });
    await user.ok('PATCH', `/api/tasks/${second._id}`, { trackedMinutes: 1440 });
    assert.equal((await user.findTask(first._id, '2026-03-10'))?.trackedMinutes, 1440);
    assert.equal((await user.findTask(second._id, '2026-03-10'))?.trackedMinutes, 1440);

    const days = await user.ledger('2026-03-08', '2026-03-15');
    for (const item of days) {
      assert.ok(
        item.trackedMinutes <= dayLength(NEW_YORK, item.date),
        `${item.date}: ${item.trackedMinutes} tracked minutes in a day of ${dayLength(NEW_YORK, item.date)}`,
      );
      assert.ok(item.productiveMinutes <= dayLength(NEW_YORK, item.date));
    }
    assert.equal(
      days.find((item) => item.date === '2026-03-10')!.trackedMinutes <= 1440,
      true,
      'Tuesday holds at most 1,440 tracked minutes',
    );
    const week = await user.week('2026-03-10');
    for (const item of week.daily)
      assert.ok(item.trackedMinutes <= dayLength(NEW_YORK, item.date), item.date);
    assert.ok((await user.today()).trackedHours <= 24);
  });

  test("row 3: the week's average counts only elapsed days (Sunday 00:40, a Tuesday task ticked)", async () => {
    // Sunday 15 March 2026, 00:40 in New York: the first day of the week, 40 minutes old.
    const user = await account({ now: Date.parse('2026-03-15T04:40:00Z'), zone: NEW_YORK });
    const early = await user.task({ date: '2026-03-15', startHHMM: '00:00', endHHMM: '00:30' });
    await user.ok('PATCH', `/api/tasks/${early._id}`, { done: true });
    assert.equal((await user.week('2026-03-15')).averageProductiveHours, 0.5);

    const tuesday = await user.task({ date: '2026-03-17', startHHMM: '09:00', endHHMM: '17:00' });
    await user.ok('PATCH', `/api/tasks/${tuesday._id}`, { done: true });
    const week = await user.week('2026-03-15');
    assert.equal(week.averageProductiveHours, 0.5, 'a future day counts in neither numerator nor divisor');
  });

  test('row 4: Put Back moves the plan, never the tracked time', async () => {
    // Friday 20 November 2026, 09:00 in Berlin.
    const user = await account({ now: Date.parse('2026-11-20T08:00:00Z'), zone: BERLIN });
    const report = await user.task({ date: '2026-11-20', startHHMM: '09:00', endHHMM: '10:00' });
    await user.ok('POST', `/api/tasks/${report._id}/timer/start`);
    user.clock.now += 40 * MINUTE;
    await user.ok('POST', `/api/tasks/${report._id}/timer/stop`);

    // Saturday 10:00: put back on Saturday.
    user.clock.now = Date.parse('2026-11-21T09:00:00Z');
    await user.ok('POST', '/api/tasks/put-back', { ids: [report._id], date: '2026-11-21' });
    const [friday, saturday] = await user.ledger('2026-11-20', '2026-11-22');
    assert.deepEqual(
      [friday!.trackedMinutes, friday!.plannedMinutes, friday!.productiveMinutes],
      [40, 0, 40],
      'Friday keeps the 40 minutes worked on Friday; only the plan moved',
    );
    assert.deepEqual(
      [saturday!.trackedMinutes, saturday!.plannedMinutes],
      [0, 60],
      'Saturday has the plan and none of the time tracked on Friday',
    );
    const fridayEntries = await user.entries('2026-11-20', '2026-11-21');
    assert.deepEqual(
      fridayEntries.map((entry) => [entry.taskId, entry.start, entry.end]),
      [[report._id, '2026-11-20T08:00:00.000Z', '2026-11-20T08:40:00.000Z']],
    );
    assert.equal(dailyOf(await user.week('2026-11-20'), '2026-11-20').trackedMinutes, 40);

    // Rescheduling it by PATCH moves its plan too, and its entries stay.
    await user.ok('PATCH', `/api/tasks/${report._id}`, {
      date: '2026-11-23',
      startHHMM: '14:00',
      endHHMM: '15:00',
    });
    assert.equal((await user.day('2026-11-20')).trackedMinutes, 40);
    assert.equal((await user.day('2026-11-23')).trackedMinutes, 0);
    const moved = await user.findTask(report._id, '2026-11-23');
    assert.equal(moved?.trackedMinutes, 40, "the task's total is still the sum of its entries");
  });

  test('row 5: the unscheduled figure of a day does not depend on the range read or the zone it was made in', async () => {
    // Friday 13 March 2026, 11:00 in New York (16:00 in Berlin).
    const user = await account({ now: Date.parse('2026-03-13T15:00:00Z'), zone: NEW_YORK });
    // A daily unscheduled series made in Berlin, from Monday.
    await user.task({ title: 'Read', date: '2026-03-09', estimateMinutes: 40, rrule: 'FREQ=DAILY' }, BERLIN);
    await user.task({ title: 'Inbox', date: '2026-03-13', estimateMinutes: 20 });

    // Every read of Friday in one comparison, so a failure shows them all.
    const unscheduled = (days: LedgerDayJson[]) => days.map((item) => [item.date, item.unscheduledMinutes]);
    const observed = {
      oneDay: unscheduled(await user.ledger('2026-03-13', '2026-03-14')),
      threeDays: unscheduled(await user.ledger('2026-03-12', '2026-03-15')),
      week: unscheduled(await user.ledger('2026-03-08', '2026-03-15')),
      unscheduledList: (await user.dayList('2026-03-13', '&scheduled=false'))
        .map((item) => item.title)
        .sort(),
      todayUnscheduledHours: (await user.today()).unscheduledHours,
      oneDayInBerlin: unscheduled(await user.ledger('2026-03-13', '2026-03-14', BERLIN)),
    };
    assert.deepEqual(
      observed,
      {
        oneDay: [['2026-03-13', 60]],
        threeDays: [
          ['2026-03-12', 40],
          ['2026-03-13', 60],
          ['2026-03-14', 40],
        ],
        week: [
          ['2026-03-08', 0],
          ['2026-03-09', 40],
          ['2026-03-10', 40],
          ['2026-03-11', 40],
          ['2026-03-12', 40],
          ['2026-03-13', 60],
          ['2026-03-14', 40],
        ],
        unscheduledList: ['Inbox', 'Read'],
        todayUnscheduledHours: 1,
        oneDayInBerlin: [['2026-03-13', 60]],
      },
      `observed: ${JSON.stringify(observed)}`,
    );
  });

  test('row 6: a budget change applies from the day it is made; past days keep their budget and over marks', async () => {
    // Wednesday 11 March 2026, 11:00 in New York; the budget is 15 h.
    const user = await account({ now: Date.parse('2026-03-11T15:00:00Z'), zone: NEW_YORK });
    await user.task({ date: '2026-03-03', startHHMM: '08:00', endHHMM: '18:00' });
    await user.task({ date: '2026-03-09', startHHMM: '08:00', endHHMM: '18:00' });
    const before = await user.ledger('2026-03-01', '2026-03-08');
    assert.ok(before.every((item) => item.budgetMinutes === 900));

    await user.ok('PATCH', '/api/users/me', { budgetHours: 8 });
    const lastWeek = await user.ledger('2026-03-01', '2026-03-08');
    assert.deepEqual(lastWeek, before, "last week's figures did not change");
    const tuesday = lastWeek.find((item) => item.date === '2026-03-03')!;
    assert.deepEqual([tuesday.budgetMinutes, tuesday.overMinutes, tuesday.remainingMinutes], [900, 0, 300]);
    const analytics = await user.week('2026-03-03');
    assert.ok(analytics.daily.every((item) => item.budgetMinutes === 900 && item.overMinutes === 0));

    const thisWeek = await user.ledger('2026-03-09', '2026-03-12');
    assert.deepEqual(
      thisWeek.map((item) => [item.date, item.budgetMinutes, item.overMinutes]),
      [
        ['2026-03-09', 900, 0],
        ['2026-03-10', 900, 0],
        ['2026-03-11', 480, 0],
      ],
      'Monday and Tuesday keep 15 h; the change applies from Wednesday',
    );
    assert.equal((await user.today()).budgetHours, 8);

    // The next day, budgets by weekday: Wednesday keeps 8 h, Thursday takes its weekday's entry.
    user.clock.now += 24 * HOUR;
    await user.ok('PATCH', '/api/users/me', { budgetHoursByWeekday: [0, 6, 6, 6, 6, 6, 0] });
    const after = await user.ledger('2026-03-09', '2026-03-13');
    assert.deepEqual(
      after.map((item) => item.budgetMinutes),
      [900, 900, 480, 360],
    );
  });

  test('row 7: tracked time splits at midnight like planned time', async () => {
    // Wednesday 11 March 2026, 23:30 in New York.
    const user = await account({ now: Date.parse('2026-03-12T03:30:00Z'), zone: NEW_YORK });
    const night = await user.task({ date: '2026-03-11', startHHMM: '23:00', endHHMM: '01:00' });
    await user.ok('POST', `/api/tasks/${night._id}/timer/start`);
    // Thursday 00:30: the timer has run 30 minutes on each day.
    user.clock.now = Date.parse('2026-03-12T04:30:00Z');
    const running = await user.today();
    assert.equal(running.date, '2026-03-12');
    assert.equal(running.trackedHours, 0.5, "today's half of the running timer");
    const [wednesday, thursday] = await user.ledger('2026-03-11', '2026-03-13');
    assert.deepEqual([wednesday!.trackedMinutes, thursday!.trackedMinutes], [30, 30]);
    assert.deepEqual([wednesday!.plannedMinutes, thursday!.plannedMinutes], [60, 60]);
    await user.ok('POST', `/api/tasks/${night._id}/timer/stop`);
    const stopped = await user.ledger('2026-03-11', '2026-03-13');
    assert.deepEqual(
      stopped.map((item) => item.trackedMinutes),
      [30, 30],
    );

    // A done task crossing midnight, then its tracked time entered by hand: productive stays on the days it covers.
    const late = await user.task({ date: '2026-03-09', startHHMM: '23:00', endHHMM: '01:00' });
    await user.ok('PATCH', `/api/tasks/${late._id}`, { done: true });
    const done = await user.ledger('2026-03-09', '2026-03-11');
    assert.deepEqual(
      done.map((item) => item.productiveMinutes),
      [60, 60],
    );
    await user.ok('PATCH', `/api/tasks/${late._id}`, { trackedMinutes: 120 });
    const entered = await user.ledger('2026-03-09', '2026-03-11');
    assert.deepEqual(
      entered.map((item) => [item.trackedMinutes, item.productiveMinutes]),
      [
        [60, 60],
        [60, 60],
      ],
    );
  });

  test("row 8: a task planned in another zone counts and lists on the days its block covers in the reader's zone", async () => {
    // Wednesday 11 March 2026, 11:00 in New York.
    const user = await account({ now: Date.parse('2026-03-11T15:00:00Z'), zone: NEW_YORK });
    // 09:00-10:00 on the 11th in Tokyo is 20:00-21:00 on the 10th in New York.
    const tokyo = await user.task({ date: '2026-03-11', startHHMM: '09:00', endHHMM: '10:00' }, TOKYO);
    await user.ok('PATCH', `/api/tasks/${tokyo._id}`, { done: true });
    await user.ok('PATCH', `/api/tasks/${tokyo._id}`, { trackedMinutes: 60 });

    const [tuesday, wednesday] = await user.ledger('2026-03-10', '2026-03-12');
    assert.deepEqual(
      [tuesday!.plannedMinutes, tuesday!.trackedMinutes, tuesday!.productiveMinutes],
      [60, 60, 60],
      'planned, tracked and productive all on Tuesday in New York',
    );
    assert.deepEqual(
      [wednesday!.plannedMinutes, wednesday!.trackedMinutes, wednesday!.productiveMinutes],
      [0, 0, 0],
    );
    const week = await user.week('2026-03-11');
    assert.equal(dailyOf(week, '2026-03-10').trackedMinutes, 60);
    assert.equal(dailyOf(week, '2026-03-11').productiveMinutes, 0);

    const ids = async (date: string) => (await user.dayList(date)).map((item) => item._id);
    assert.deepEqual(await ids('2026-03-10'), [tokyo._id], 'listed on Tuesday, where its block is');
    const range = (await user.ok('GET', '/api/tasks/range?from=2026-03-11&to=2026-03-12'))
      .tasks as TaskJson[];
    assert.deepEqual(
      range.map((item) => item._id),
      [],
      "the calendar's read of Wednesday does not hold it",
    );
    assert.deepEqual(await ids('2026-03-11'), [], 'and not listed on Wednesday, where its block is not');
  });

  test('row 9: over and remaining by a minute read the same in the ledger, analytics and the wallet', async () => {
    const user = await account({ now: Date.parse('2026-03-11T15:00:00Z'), zone: NEW_YORK });
    await user.ok('PATCH', '/api/users/me', { budgetHours: 1 });
    const block = await user.task({ date: '2026-03-11', startHHMM: '09:00', endHHMM: '10:01' });
    const read = async () => ({
      ledger: await user.day('2026-03-11'),
      daily: dailyOf(await user.week('2026-03-11'), '2026-03-11'),
      wallet: await user.today(),
    });

    let { ledger, daily, wallet } = await read();
    assert.deepEqual([ledger.budgetMinutes, ledger.overMinutes, ledger.remainingMinutes], [60, 1, 0]);
    assert.deepEqual([daily.overMinutes, daily.remainingMinutes], [1, 0], 'analytics says the same minute');
    assert.deepEqual([wallet.overHours, wallet.remainingHours], [hoursOf(1), 0]);

    for (const end of ['09:58', '09:59', '10:00', '10:02', '11:00', '11:01']) {
      await user.ok('PATCH', `/api/tasks/${block._id}`, { endHHMM: end });
      ({ ledger, daily, wallet } = await read());
      assert.equal(ledger.overMinutes, Math.max(0, ledger.plannedMinutes - ledger.budgetMinutes), end);
      assert.equal(ledger.remainingMinutes, Math.max(0, ledger.budgetMinutes - ledger.plannedMinutes), end);
      assert.deepEqual(
        [daily.overMinutes, daily.remainingMinutes],
        [ledger.overMinutes, ledger.remainingMinutes],
        end,
      );
      assert.deepEqual(
        [wallet.overHours, wallet.remainingHours],
        [hoursOf(ledger.overMinutes), hoursOf(ledger.remainingMinutes)],
        end,
      );
    }
  });

  test("row 10: the remaining hours the wallet reports are the ledger's remaining minutes / 60, for every minute", async () => {
    const user = await account({ now: Date.parse('2026-03-11T15:00:00Z'), zone: NEW_YORK });
    const block = await user.task({ date: '2026-03-11', startHHMM: '08:00', endHHMM: '13:15' });
    // 5.25 h planned of 15: 585 minutes remain, 9.75 h, shown as 9.8 everywhere.
    const wallet = await user.today();
    const ledger = await user.day('2026-03-11');
    assert.equal(ledger.remainingMinutes, 585);
    assert.equal(wallet.remainingHours, 9.8);

    for (let minutes = 300; minutes <= 336; minutes += 1) {
      const end = 8 * 60 + minutes;
      const endHHMM = `${String(Math.floor(end / 60)).padStart(2, '0')}:${String(end % 60).padStart(2, '0')}`;
      await user.ok('PATCH', `/api/tasks/${block._id}`, { endHHMM });
      const day = await user.day('2026-03-11');
      const today = await user.today();
      const daily = dailyOf(await user.week('2026-03-11'), '2026-03-11');
      assert.equal(day.plannedMinutes, minutes);
      assert.deepEqual(
        [today.plannedHours, today.remainingHours, today.overHours],
        [hoursOf(day.plannedMinutes), hoursOf(day.remainingMinutes), hoursOf(day.overMinutes)],
        `${minutes} planned minutes`,
      );
      assert.deepEqual(
        [daily.remainingMinutes, daily.overMinutes],
        [day.remainingMinutes, day.overMinutes],
        `${minutes} planned minutes`,
      );
    }
  });

  test('row 11: category time under overlaps follows the published rule (the block started last takes the overlap)', async () => {
    const user = await account({ now: Date.parse('2026-03-11T15:00:00Z'), zone: NEW_YORK });
    const work = await user.ok('POST', '/api/categories', { name: 'Work', color: '#112233' });
    const home = await user.ok('POST', '/api/categories', { name: 'Home', color: '#445566' });
    await user.task({ date: '2026-03-11', startHHMM: '09:00', endHHMM: '11:00', categoryId: work._id });
    await user.event({ start: '2026-03-11T10:00:00-04:00', end: '2026-03-11T11:00:00-04:00' });
    // And a Home task started inside a longer Work event: the task, started last, takes its hour.
    await user.event({
      start: '2026-03-12T09:00:00-04:00',
      end: '2026-03-12T12:00:00-04:00',
      categoryId: work._id,
    });
    await user.task({ date: '2026-03-12', startHHMM: '10:00', endHHMM: '11:00', categoryId: home._id });

    const week = await user.week('2026-03-11');
    const shares = Object.fromEntries(week.byCategory.map((share) => [share.name, share.minutes]));
    assert.deepEqual(shares, { Work: 60 + 120, 'No category': 60, Home: 60 });
    assert.equal(
      week.byCategory.reduce((sum, share) => sum + share.minutes, 0),
      week.totalMinutes,
    );

    const openApi = await user.ok('GET', '/api/docs/json');
    assert.ok(
      JSON.stringify(openApi).includes(JSON.stringify(DEFINITIONS.categories).slice(1, -1)),
      'the rule is in the OpenAPI descriptions',
    );
    const product = readFileSync(path.join(repositoryRoot(), 'docs/product.md'), 'utf8');
    assert.ok(
      /started last|switched to|later block/i.test(product),
      'docs/product.md ("What to build" 9: one text) states the rule the server applies: it does not',
    );
  });

  test('row 12: no timer on a dismissed task; dismissing closes the running entry at that moment', async () => {
    const user = await account({ now: Date.parse('2026-03-11T15:00:00Z'), zone: NEW_YORK });
    const aside = await user.task({ date: '2026-03-11', startHHMM: '09:00', endHHMM: '10:00' });
    await user.ok('PATCH', `/api/tasks/${aside._id}`, { dismissed: true });
    const refused = await user.call('POST', `/api/tasks/${aside._id}/timer/start`);
    assert.equal(refused.status, 409, refused.body);
    assert.deepEqual(await user.entries('2026-03-11', '2026-03-12'), [], 'nothing recorded');

    const timed = await user.task({ date: '2026-03-11', startHHMM: '11:00', endHHMM: '12:00' });
    await user.ok('POST', `/api/tasks/${timed._id}/timer/start`);
    user.clock.now += 20 * MINUTE;
    await user.ok('PATCH', `/api/tasks/${timed._id}`, { dismissed: true });
    user.clock.now += 60 * MINUTE;
    const back = await user.ok('PATCH', `/api/tasks/${timed._id}`, { dismissed: false });
    assert.deepEqual([back.trackedMinutes, back.timerStartedAt], [20, null], 'no hour appears at once');
    const listed = await user.entries('2026-03-11', '2026-03-12');
    assert.deepEqual(
      listed.map((entry) => [entry.taskId, entry.start, entry.end]),
      [[timed._id, '2026-03-11T15:00:00.000Z', '2026-03-11T15:20:00.000Z']],
    );
    assert.equal((await user.day('2026-03-11')).trackedMinutes, 20);
  });

  test('row 13: timing a done task never lowers its productive time', async () => {
    // 11:00 in New York, after the done task's 09:00-10:00 block.
    const user = await account({ now: Date.parse('2026-03-11T15:00:00Z'), zone: NEW_YORK });
    const done = await user.task({ date: '2026-03-11', startHHMM: '09:00', endHHMM: '10:00' });
    await user.ok('PATCH', `/api/tasks/${done._id}`, { done: true });
    assert.equal((await user.day('2026-03-11')).productiveMinutes, 60);

    await user.ok('POST', `/api/tasks/${done._id}/timer/start`);
    user.clock.now += 10 * MINUTE;
    const running = await user.day('2026-03-11');
    assert.ok(running.productiveMinutes >= 60, `running: ${running.productiveMinutes}`);
    assert.equal(running.productiveMinutes, 70, 'the block (its entries hold less) and the 10 minutes timed');
    assert.equal(dailyOf(await user.week('2026-03-11'), '2026-03-11').productiveMinutes, 70);
    await user.ok('POST', `/api/tasks/${done._id}/timer/stop`);
    const stopped = await user.day('2026-03-11');
    assert.equal(stopped.productiveMinutes, 70);
    assert.equal((await user.findTask(done._id, '2026-03-11'))?.trackedMinutes, 10);
  });

  test('row 14: delete a task whose timer runs, then Undo: the time it spent deleted is not tracked', async () => {
    const user = await account({ now: Date.parse('2026-03-11T15:00:00Z'), zone: NEW_YORK });
    const timed = await user.task({ date: '2026-03-11', startHHMM: '11:00', endHHMM: '12:00' });
    await user.ok('POST', `/api/tasks/${timed._id}/timer/start`);
    user.clock.now += 10 * MINUTE;
    const deleted = await user.call('DELETE', `/api/tasks/${timed._id}`);
    assert.equal(deleted.status, 204, deleted.body);
    user.clock.now += 30 * MINUTE;
    assert.equal((await user.day('2026-03-11')).trackedMinutes, 0, 'a deleted task counts nothing');
    const restored = await user.call('POST', `/api/tasks/${timed._id}/restore`);
    assert.equal(restored.status, 200, restored.body);
    user.clock.now += 5 * MINUTE;

    const back = await user.findTask(timed._id, '2026-03-11');
    assert.deepEqual([back?.trackedMinutes, back?.timerStartedAt], [10, null]);
    const listed = await user.entries('2026-03-11', '2026-03-12');
    assert.deepEqual(
      listed.map((entry) => [entry.start, entry.end]),
      [['2026-03-11T15:00:00.000Z', '2026-03-11T15:10:00.000Z']],
    );
    assert.equal((await user.day('2026-03-11')).trackedMinutes, 10);
    assert.equal((await user.today()).trackedHours, hoursOf(10));
  });

  test("row 15: occurrence edits count in the task quota, and Undo of a series' delete still works", async () => {
    const user = await account({
      now: Date.parse('2026-03-11T15:00:00Z'),
      zone: NEW_YORK,
      config: { quotas: { events: 100, tasks: 3, categories: 10, timeEntries: 100 } },
    });
    const rows = async () =>
      Number(
        (
          await user.app.db
            .selectFrom('tasks')
            .select((eb) => eb.fn.countAll().as('count'))
            .executeTakeFirstOrThrow()
        ).count,
      );
    const series = await user.task({
      title: 'Stretch',
      date: '2026-03-11',
      startHHMM: '08:00',
      endHHMM: '08:30',
      rrule: 'FREQ=DAILY;COUNT=5',
    });
    const single = await user.task({
      title: 'One',
      date: '2026-03-11',
      startHHMM: '12:00',
      endHHMM: '13:00',
    });
    await user.task({ title: 'Two', date: '2026-03-11', startHHMM: '14:00', endHHMM: '15:00' });
    assert.equal(await rows(), 3);

    const occurrence = async (date: string) =>
      (await user.dayList(date)).find((item) => /stretch/i.test(item.title))!;
    const edit = await user.call('PATCH', `/api/tasks/${(await occurrence('2026-03-12'))._id}`, {
      title: 'Long stretch',
    });
    assert.equal(edit.status, 409, `an occurrence edit at the quota: ${edit.status} ${edit.body}`);
    assert.match(edit.json.message, /limit of 3 tasks/);
    const tick = await user.call('PATCH', `/api/tasks/${(await occurrence('2026-03-13'))._id}`, {
      done: true,
    });
    assert.equal(tick.status, 409, `ticking an occurrence at the quota: ${tick.status} ${tick.body}`);
    const timer = await user.call('POST', `/api/tasks/${(await occurrence('2026-03-14'))._id}/timer/start`);
    assert.equal(timer.status, 409, `timing an occurrence at the quota: ${timer.status} ${timer.body}`);
    assert.equal(await rows(), 3, 'nothing passed the quota');

    // Room for one edit: it is made, and the series with its edit can be deleted and undone whole.
    assert.equal((await user.call('DELETE', `/api/tasks/${single._id}`)).status, 204);
    await user.ok('PATCH', `/api/tasks/${(await occurrence('2026-03-12'))._id}`, { title: 'Long stretch' });
    assert.equal(await rows(), 3);
    assert.equal((await user.call('DELETE', `/api/tasks/${series._id}`)).status, 204);
    assert.equal(await occurrence('2026-03-12'), undefined);
    const undo = await user.call('POST', `/api/tasks/${series._id}/restore`);
    assert.equal(undo.status, 200, `Undo of the series: ${undo.status} ${undo.body}`);
    assert.equal((await occurrence('2026-03-12'))?.title, 'Long stretch', 'its history came back');
    assert.equal((await occurrence('2026-03-13'))?.title, 'Stretch');
    assert.equal(await rows(), 3);
  });

  test('row 16: seven 30-second events: the week is the sum of its days', async () => {
    // Saturday 14 March 2026, 23:00 in New York: every day of the week is over.
    const user = await account({ now: Date.parse('2026-03-15T03:00:00Z'), zone: NEW_YORK });
    const dates = Array.from({ length: 7 }, (_, index) => addDays('2026-03-08', index));
    for (const date of dates) {
      const noon = startOfLocalDay(NEW_YORK, date) + 12 * HOUR;
      await user.event({
        start: new Date(noon).toISOString(),
        end: new Date(noon + 30_000).toISOString(),
      });
    }
    const days = await user.ledger('2026-03-08', '2026-03-15');
    const week = await user.week('2026-03-11');
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
    const plannedOfDays = sum(days.map((item) => item.plannedMinutes));
    assert.equal(week.totalMinutes, plannedOfDays, 'totalMinutes = the sum of the days');
    assert.equal(week.totalMinutes, sum(week.daily.map((item) => item.plannedMinutes)));
    assert.deepEqual(
      week.daily.map((item) => [item.plannedMinutes, item.productiveMinutes, item.trackedMinutes]),
      days.map((item) => [item.plannedMinutes, item.productiveMinutes, item.trackedMinutes]),
    );
    assert.equal(
      sum(week.byCategory.map((share) => share.minutes)),
      week.totalMinutes,
      "the week's category minutes add up to its planned minutes",
    );
    assert.equal(
      week.averageProductiveHours,
      hoursOf(sum(days.map((item) => item.productiveMinutes)) / 7),
      'the average is the sum of the elapsed days / those days',
    );
  });

  test('row 17: a dismissed task is marked dismissed in day lists and never reads as done unless it was ticked', async () => {
    const user = await account({ now: Date.parse('2026-03-11T15:00:00Z'), zone: NEW_YORK });
    const aside = await user.task({
      title: 'Aside',
      date: '2026-03-11',
      startHHMM: '09:00',
      endHHMM: '10:00',
    });
    await user.ok('PATCH', `/api/tasks/${aside._id}`, { dismissed: true });
    const ticked = await user.task({
      title: 'Ticked',
      date: '2026-03-11',
      startHHMM: '10:00',
      endHHMM: '11:00',
    });
    await user.ok('PATCH', `/api/tasks/${ticked._id}`, { done: true });
    await user.ok('PATCH', `/api/tasks/${ticked._id}`, { dismissed: true });

    const state = (tasks: TaskJson[]) =>
      Object.fromEntries(tasks.map((item) => [item.title, [item.done, item.dismissed]]));
    assert.deepEqual(
      state(await user.dayList('2026-03-11')),
      { Aside: [false, true], Ticked: [true, true] },
      'GET /tasks?date',
    );
    assert.deepEqual(
      state((await user.today()).tasks),
      { Aside: [false, true], Ticked: [true, true] },
      '/tasks/today',
    );
    const range = (await user.ok('GET', '/api/tasks/range?from=2026-03-11&to=2026-03-12'))
      .tasks as TaskJson[];
    assert.deepEqual(state(range), { Aside: [false, true], Ticked: [true, true] }, '/tasks/range');
    assert.deepEqual(
      (await user.dayList('2026-03-11', '&done=false')).map((item) => item.title),
      [],
      'neither is pending',
    );
    assert.ok(
      !(await user.dayList('2026-03-11', '&done=true')).some((item) => item.title === 'Aside'),
      'the put-aside task is not among the done ones',
    );
    const day = await user.day('2026-03-11');
    assert.deepEqual([day.plannedMinutes, day.productiveMinutes], [0, 0], 'dismissed counts in no figure');
    assert.equal((await user.week('2026-03-11')).streak, 0);
  });

  test('row 18: a block in the skipped hour of a DST change says the time does not exist that day', async () => {
    // Monday 30 March 2026 in Berlin; clocks went from 02:00 to 03:00 on Sunday 29 March.
    const user = await account({ now: Date.parse('2026-03-30T10:00:00Z'), zone: BERLIN });
    for (const [startHHMM, endHHMM] of [
      ['02:30', '03:00'],
      ['02:15', '02:45'],
      ['01:00', '02:30'],
    ] as const) {
      const refused = await user.call('POST', '/api/tasks', {
        title: 'Night',
        date: '2026-03-29',
        startHHMM,
        endHHMM,
      });
      assert.equal(refused.status, 400, `${startHHMM}-${endHHMM}: ${refused.status} ${refused.body}`);
      const message: string = refused.json.message;
      assert.doesNotMatch(message, /End time must be after start time/, `${startHHMM}-${endHHMM}`);
      assert.match(message, /(does not|doesn't|did not) exist/i, `${startHHMM}-${endHHMM}: ${message}`);
      assert.match(message, /clock|summer|daylight|DST/i, `${startHHMM}-${endHHMM}: says why: ${message}`);
    }
    // An edit into the gap is refused the same way.
    const task = await user.task({ date: '2026-03-29', startHHMM: '01:00', endHHMM: '01:30' });
    const moved = await user.call('PATCH', `/api/tasks/${task._id}`, {
      startHHMM: '02:30',
      endHHMM: '03:30',
    });
    assert.equal(moved.status, 400, moved.body);
    assert.match(moved.json.message, /(does not|doesn't|did not) exist/i);
  });

  test('row 19: 02:30-03:00 on the night clocks go back costs the 30 minutes written', async () => {
    // Monday 26 October 2026 in Berlin; clocks went from 03:00 back to 02:00 on Sunday 25 October.
    const user = await account({ now: Date.parse('2026-10-26T10:00:00Z'), zone: BERLIN });
    const task = await user.task({ date: '2026-10-25', startHHMM: '02:30', endHHMM: '03:00' });
    assert.equal(
      (Date.parse(task.end) - Date.parse(task.start)) / MINUTE,
      30,
      `${task.start} to ${task.end}`,
    );
    const day = await user.day('2026-10-25');
    assert.equal(dayLength(BERLIN, '2026-10-25'), 25 * 60);
    assert.equal(day.plannedMinutes, 30);
    assert.equal((await user.week('2026-10-25')).totalMinutes, 30);
  });

  test('row 20: no comment names a file that is not in the repository (services/wallet.ts, ARCHITECTURE.md)', () => {
    const root = repositoryRoot();
    const sourceDir = path.join(root, 'server/src');
    const files = filesUnder(sourceDir).filter((file) => /\.(ts|mts|mjs|js)$/.test(file));
    const repoFiles = filesUnder(root).map((file) => path.relative(root, file).split(path.sep).join('/'));
    const exists = (named: string) => repoFiles.some((file) => file === named || file.endsWith(`/${named}`));
    const missing: string[] = [];
    for (const file of files) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, index) => {
        const where = `${path.relative(root, file)}:${index + 1}`;
        if (/services\/wallet\.ts|ARCHITECTURE\.md/.test(line)) missing.push(`${where}: ${line.trim()}`);
        if (!/^\s*(\/\/|\*|\/\*)/.test(line)) return;
        for (const [named] of line.matchAll(
          /\b(?:services|routes|lib|plugins|schemas|db|docs)\/[A-Za-z0-9_./-]+\.(?:ts|md|mjs)\b/g,
        )) {
          if (!exists(named)) missing.push(`${where}: names ${named}`);
        }
      });
    }
    assert.ok(!existsSync(path.join(root, 'server/src/services/wallet.ts')));
    assert.deepEqual([...new Set(missing)], [], 'comments naming files that do not exist');
  });
});

function filesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || /^dist($|-)/.test(name) || name.startsWith('.')) continue;
    const full = path.join(dir, name);
    const stat = statSync(full);
    if (stat.isDirectory()) found.push(...filesUnder(full));
    else found.push(full);
  }
  return found;
}
