import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  computeWeeklyAnalytics,
  ledgerDays,
  type Block,
  type DatedTask,
  type LedgerInput,
  type Span,
} from '../../src/services/ledger.js';
import { addDays, localDateAt, startOfLocalDay, weekStartOf } from '../../src/lib/time-zone.js';
import { buildTestApp, send, signUp } from '../helpers.js';

// Issue 31, "Done when": a property test over random days of blocks, events, entries, time zones and DST days. The
// generator is seeded (mulberry32), so a failure names its seed and iteration and replays exactly.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe'] as const;
/** Days the clocks change in 2026 in each zone (Lord Howe by 30 minutes), to be drawn often. */
const DST_DAYS_OF: Record<string, string[]> = {
  UTC: [],
  'Europe/Berlin': ['2026-03-29', '2026-10-25'],
  'America/New_York': ['2026-03-08', '2026-11-01'],
  'Australia/Lord_Howe': ['2026-04-05', '2026-10-04'],
};
const SEED = Number(process.env.LEDGER_PROPERTY_SEED ?? 0x31_2026);

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Random {
  next: () => number;
  int: (min: number, max: number) => number;
  pick: <T>(items: readonly T[]) => T;
  chance: (p: number) => boolean;
}

function randomOf(seed: number): Random {
  const next = mulberry32(seed);
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return { next, int, pick: (items) => items[int(0, items.length - 1)]!, chance: (p) => next() < p };
}

/** A random local day: one of the zone's DST days or a neighbour half the time, else any day of 2026. */
function randomDate(random: Random, zone: string): string {
  const dstDays = DST_DAYS_OF[zone] ?? [];
  if (dstDays.length > 0 && random.chance(0.5)) return addDays(random.pick(dstDays), random.int(-1, 1));
  return addDays('2026-01-01', random.int(0, 364));
}

const dayBounds = (zone: string, date: string) => ({
  from: startOfLocalDay(zone, date),
  to: startOfLocalDay(zone, addDays(date, 1)),
});

/** The length of the union of spans within [from, to), computed independently of the service. */
function unionMs(spans: readonly { startAt: number; endAt: number }[], from: number, to: number): number {
  const points = spans
    .map((span) => [Math.max(span.startAt, from), Math.min(span.endAt, to)] as const)
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let reachedStart = -Infinity;
  let reachedEnd = -Infinity;
  for (const [start, end] of points) {
    if (start > reachedEnd) {
      if (reachedEnd > reachedStart) total += reachedEnd - reachedStart;
      reachedStart = start;
      reachedEnd = end;
    } else {
      reachedEnd = Math.max(reachedEnd, end);
    }
  }
  if (reachedEnd > reachedStart) total += reachedEnd - reachedStart;
  return total;
}

interface Scenario {
  zone: string;
  date: string;
  now: number;
  input: LedgerInput;
  /** Every block (planned tasks and all timed events) and every entry: what productive can never exceed. */
  everything: Array<{ startAt: number; endAt: number }>;
}

/** A random week around a random day: tasks (some done, some across midnight), timed events, disjoint entries. */
function scenario(random: Random): Scenario {
  const zone = random.pick(ZONES);
  const date = randomDate(random, zone);
  const weekStart = weekStartOf(date);
  const weekFrom = startOfLocalDay(zone, weekStart);
  const weekTo = startOfLocalDay(zone, addDays(weekStart, 7));
  // Now: somewhere from the week's start to a day after it, so some days are elapsed and some events have ended.
  const now = weekFrom + Math.floor(random.next() * (weekTo - weekFrom + 24 * HOUR));
  const instant = () =>
    weekFrom - 12 * HOUR + random.int(0, (weekTo - weekFrom + 24 * HOUR) / MINUTE) * MINUTE;
  const categories = ['work', 'home', null] as const;

  const tasks = Array.from({ length: random.int(0, 14) }, (_, index) => {
    const startAt = instant();
    // 5 minutes to 10 hours: a good share crosses a midnight.
    const endAt = startAt + random.int(5, 600) * MINUTE;
    return {
      id: `task-${index}`,
      startAt,
      endAt,
      done: random.chance(0.4),
      categoryId: random.pick(categories),
    };
  });
  const events = Array.from({ length: random.int(0, 8) }, () => {
    const startAt = instant() + (random.chance(0.2) ? random.int(1, 59) * 1000 : 0);
    const endAt =
      startAt + (random.chance(0.2) ? random.int(1, 120) * 1000 : random.int(1, 26 * 60) * MINUTE);
    return { startAt, endAt, categoryId: random.pick(categories) };
  });

  // Entries never overlap: laid one after another from before the week, each ending by now (one may run).
  const entries: Array<Span & { taskId: string }> = [];
  let cursor = weekFrom - random.int(0, 16) * HOUR;
  for (let count = random.int(0, 16); count > 0 && tasks.length > 0; count -= 1) {
    const startAt = cursor + random.int(0, 20 * 60) * MINUTE + random.int(0, 59) * 1000;
    if (startAt >= now) break;
    const running = random.chance(0.1);
    const endAt = running
      ? now
      : Math.min(now, startAt + random.int(1, 16 * 60) * MINUTE + random.int(0, 59) * 1000);
    if (endAt <= startAt) break;
    entries.push({ startAt, endAt, taskId: random.pick(tasks).id });
    cursor = endAt;
    if (running) break;
  }

  const trackedMsOf = (id: string) =>
    entries
      .filter((entry) => entry.taskId === id)
      .reduce((sum, entry) => sum + entry.endAt - entry.startAt, 0);
  const blocks: Block[] = [
    // A done task's block is productive while its entries hold less than it (DEFINITIONS.productive).
    ...tasks.map((task) => ({
      startAt: task.startAt,
      endAt: task.endAt,
      categoryId: task.categoryId,
      productive: task.done && trackedMsOf(task.id) < task.endAt - task.startAt,
    })),
    ...events.map((event) => ({ ...event, productive: event.endAt <= now })),
  ];
  const dated: DatedTask[] = tasks.map((task) => ({
    id: task.id,
    date: localDateAt(zone, task.startAt),
    done: task.done,
    scheduled: true,
    estimateMinutes: null,
  }));
  return {
    zone,
    date,
    now,
    input: {
      timeZone: zone,
      user: { budgetHours: random.int(0, 24), budgetHoursByWeekday: null },
      now,
      blocks,
      tasks: dated,
      entries: entries.map(({ startAt, endAt }) => ({ startAt, endAt })),
    },
    everything: [...blocks, ...entries],
  };
}

const ITERATIONS = 200;
const round1 = (value: number) => Math.round(value * 10) / 10;

describe('the ledger over random days (seeded property test)', () => {
  test(`${ITERATIONS} random weeks: each day's tracked and productive fit the day; productive fits blocks ∪ entries ∪ ended events; the week is the sum of its days`, () => {
    const random = randomOf(SEED);
    let daysChecked = 0;
    for (let iteration = 0; iteration < ITERATIONS; iteration += 1) {
      const { zone, date, now, input, everything } = scenario(random);
      const where = `seed ${SEED}, iteration ${iteration}, ${zone}, week of ${date}`;
      const week = computeWeeklyAnalytics({
        ...input,
        date,
        categories: [
          { id: 'work', name: 'Work', color: '#123456' },
          { id: 'home', name: 'Home', color: '#654321' },
        ],
      });
      const dates = Array.from({ length: 7 }, (_, index) => addDays(week.weekStart, index));
      const days = ledgerDays(input, dates);
      const today = localDateAt(zone, now);

      for (const day of days) {
        const { from, to } = dayBounds(zone, day.date);
        const length = (to - from) / MINUTE;
        const at = `${where}, ${day.date} (${length} min)`;
        assert.ok(day.trackedMinutes <= length, `${at}: tracked ${day.trackedMinutes}`);
        assert.ok(day.productiveMinutes <= length, `${at}: productive ${day.productiveMinutes}`);
        assert.ok(day.plannedMinutes <= length, `${at}: planned ${day.plannedMinutes}`);
        const bound = Math.round(unionMs(everything, from, to) / MINUTE);
        assert.ok(
          day.productiveMinutes <= bound,
          `${at}: productive ${day.productiveMinutes} > union ${bound}`,
        );
        // Tracked is the union of the entries of that day, nothing else.
        assert.equal(
          day.trackedMinutes,
          Math.round(unionMs(input.entries, from, to) / MINUTE),
          `${at}: tracked`,
        );
        assert.equal(day.overMinutes, Math.max(0, day.plannedMinutes - day.budgetMinutes), at);
        assert.equal(day.remainingMinutes, Math.max(0, day.budgetMinutes - day.plannedMinutes), at);
        daysChecked += 1;
      }

      const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
      assert.equal(week.totalMinutes, sum(days.map((day) => day.plannedMinutes)), `${where}: totalMinutes`);
      assert.deepEqual(
        week.daily.map((day) => [
          day.date,
          day.minutes,
          day.plannedMinutes,
          day.productiveMinutes,
          day.trackedMinutes,
          day.budgetMinutes,
          day.overMinutes,
          day.remainingMinutes,
        ]),
        days.map((day) => [
          day.date,
          day.plannedMinutes,
          day.plannedMinutes,
          day.productiveMinutes,
          day.trackedMinutes,
          day.budgetMinutes,
          day.overMinutes,
          day.remainingMinutes,
        ]),
        `${where}: daily[] is the days`,
      );
      const elapsed = days.filter((day) => day.date <= today);
      const average =
        elapsed.length === 0
          ? 0
          : round1(sum(elapsed.map((day) => day.productiveMinutes)) / 60 / elapsed.length);
      assert.equal(week.averageProductiveHours, average, `${where}: the average of the elapsed days`);
    }
    assert.equal(daysChecked, ITERATIONS * 7);
  });

  test(`${ITERATIONS} random weeks: the category minutes of a week add up to its planned minutes (issue 31 row 16)`, () => {
    const random = randomOf(SEED);
    const mismatches: string[] = [];
    for (let iteration = 0; iteration < ITERATIONS; iteration += 1) {
      const { zone, date, input } = scenario(random);
      const week = computeWeeklyAnalytics({
        ...input,
        date,
        categories: [
          { id: 'work', name: 'Work', color: '#123456' },
          { id: 'home', name: 'Home', color: '#654321' },
        ],
      });
      const shares = week.byCategory.reduce((total, share) => total + share.minutes, 0);
      if (shares !== week.totalMinutes) {
        mismatches.push(
          `iteration ${iteration} (${zone}, ${date}): categories ${shares}, total ${week.totalMinutes}`,
        );
      }
    }
    assert.deepEqual(mismatches, [], `seed ${SEED}: ${mismatches.length} of ${ITERATIONS} weeks`);
  });

  test('through the API: a 1-day and a 7-day GET /api/ledger agree on every day, and with analytics', async () => {
    const API_ITERATIONS = 6;
    const random = randomOf(SEED ^ 0x5eed);
    const { app, clock } = await buildTestApp({
      config: { sessionIdleMinutes: 60 * 24 * 365, tokenTtlSeconds: 3600 * 24 * 365 },
    });
    for (let iteration = 0; iteration < API_ITERATIONS; iteration += 1) {
      const madeIn = random.pick(ZONES);
      const readIn = random.pick(ZONES);
      // The first iterations read a week with a DST day of the reading zone's, the others any week.
      const weekStart = weekStartOf(
        iteration < 3 && readIn !== 'UTC' ? DST_DAYS_OF[readIn]![iteration % 2]! : randomDate(random, readIn),
      );
      const weekFrom = startOfLocalDay(readIn, weekStart);
      // Now: within the week or a day after it, so some days are to come and some events have not ended.
      clock.now = weekFrom + Math.floor(random.next() * 8 * 24 * HOUR);
      const { headers } = await signUp(app, { timeZone: madeIn });
      const where = `seed ${SEED}, API iteration ${iteration}, made in ${madeIn}, read in ${readIn}, week of ${weekStart}`;
      const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, body?: object, zone = madeIn) => {
        const response = await send(
          app,
          { ...headers, 'x-time-zone': zone },
          method,
          url,
          body as Record<string, unknown>,
        );
        return {
          status: response.statusCode,
          json: response.body ? response.json() : undefined,
          body: response.body,
        };
      };
      const hhmm = () =>
        `${String(random.int(0, 23)).padStart(2, '0')}:${String(random.pick([0, 15, 30, 45])).padStart(2, '0')}`;

      const taskIds: string[] = [];
      for (let count = random.int(2, 8); count > 0; count -= 1) {
        const created = await call('POST', '/api/tasks', {
          title: `Task ${count}`,
          date: addDays(weekStart, random.int(-1, 7)),
          startHHMM: hhmm(),
          endHHMM: hhmm(),
        });
        // A clock time that does not exist that day (or equal times) is refused; the property is about the rest.
        if (created.status === 400) continue;
        assert.equal(created.status, 201, `${where}: ${created.body}`);
        taskIds.push(created.json._id);
        if (random.chance(0.4)) {
          assert.equal((await call('PATCH', `/api/tasks/${created.json._id}`, { done: true })).status, 200);
        }
      }
      for (let count = random.int(0, 5); count > 0; count -= 1) {
        const startAt = weekFrom + random.int(-12 * 60, 7 * 24 * 60) * MINUTE;
        const endAt =
          startAt + (random.chance(0.2) ? random.int(1, 90) * 1000 : random.int(1, 20 * 60) * MINUTE);
        const created = await call('POST', '/api/events', {
          title: 'Event',
          start: new Date(startAt).toISOString(),
          end: new Date(endAt).toISOString(),
        });
        assert.equal(created.status, 201, `${where}: ${created.body}`);
      }
      let cursor = weekFrom - random.int(0, 12) * HOUR;
      for (let count = random.int(0, 8); count > 0 && taskIds.length > 0; count -= 1) {
        const startAt = cursor + random.int(0, 16 * 60) * MINUTE + random.int(0, 59) * 1000;
        const endAt = Math.min(clock.now, startAt + random.int(1, 10 * 60) * MINUTE);
        if (endAt - startAt < 1000) break;
        const created = await call('POST', '/api/time-entries', {
          taskId: random.pick(taskIds),
          start: new Date(startAt).toISOString(),
          end: new Date(endAt).toISOString(),
        });
        assert.equal(created.status, 201, `${where}: ${created.body}`);
        cursor = endAt;
      }

      const ledger = async (from: string, to: string) => {
        const response = await call('GET', `/api/ledger?from=${from}&to=${to}`, undefined, readIn);
        assert.equal(response.status, 200, response.body);
        return response.json.days as Array<Record<string, number | string>>;
      };
      const week = await ledger(weekStart, addDays(weekStart, 7));
      for (const [index, day] of week.entries()) {
        const date = addDays(weekStart, index);
        const [alone] = await ledger(date, addDays(date, 1));
        assert.deepEqual(alone, day, `${where}: ${date} read alone and in its week`);
        const { from, to } = dayBounds(readIn, date);
        assert.ok(Number(day.trackedMinutes) <= (to - from) / MINUTE, `${where}: ${date} tracked`);
        assert.ok(Number(day.productiveMinutes) <= (to - from) / MINUTE, `${where}: ${date} productive`);
      }
      const analytics = await call(
        'GET',
        `/api/aggregation/analytics/weekly?date=${weekStart}`,
        undefined,
        readIn,
      );
      assert.equal(analytics.status, 200, analytics.body);
      for (const daily of analytics.json.daily as Array<Record<string, number | string>>) {
        const day = week.find((item) => item.date === daily.date)!;
        for (const field of [
          'plannedMinutes',
          'productiveMinutes',
          'trackedMinutes',
          'budgetMinutes',
          'overMinutes',
          'remainingMinutes',
        ]) {
          assert.equal(
            daily[field],
            day[field],
            `${where}: ${String(daily.date)} ${field} in analytics and the ledger`,
          );
        }
      }
      assert.equal(
        analytics.json.totalMinutes,
        week.reduce((sum, day) => sum + Number(day.plannedMinutes), 0),
        `${where}: totalMinutes`,
      );
    }
  });
});
