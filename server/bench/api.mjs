#!/usr/bin/env node
// API benchmark (issue 8, items 4 and 5). Builds the compiled app (server/dist: run `npm run build -w server` first)
// on a temporary SQLite DATA_DIR in a child process, seeds three users there and drives it with autocannon from this
// process, 10 connections at a time:
//  - API: each main endpoint against a bench-only hello route with a response schema, served by the same process,
//    as a throughput ratio taken in the same round, plus the endpoint's p99 latency;
//  - growth: the read endpoints for a heavy user (20 tasks and 5 events a day) with one month of data and with five
//    years of it, in the same database and the same run (each connection alternates the two users' requests); the
//    five-year / one-month ratio of mean latency and of p99;
//  - reads at the quota: a user with 20,000 events and 20,000 tasks (the per-user quotas) reads both exports, a week
//    of events and today's tasks while one connection asks hello; hello's p99 beside each read shows whether the read
//    holds the event loop (an export built at once held it for its whole length).
// Every figure is the median over several rounds; in each round the runs being compared follow each other, in an
// order that alternates from round to round, so a load change on the machine hits both sides alike.
//
//   node server/bench/api.mjs [--quick] [--json <file>] [--rounds <n>] [--duration <seconds>]
//                             [--only <key,...>] [--server-cpu-prof <dir>]
// Keys: tasks-day, tasks-today, analytics-week, events-week, tasks-create, quota-export-ics, quota-export-json,
// quota-events-week, quota-tasks-today.
//
//   node server/bench/api.mjs --ab <git-ref> [--quick] [--json <file>] [--rounds <n>] [--duration <seconds>]
//                             [--only <key,...>] [--server-cpu-prof <dir>]
// Keys: tasks-today, tasks-day, ledger-week, analytics-week.
//   (or npm run bench -w server -- --ab <git-ref>)
// A/B (issue 31: the day reads no slower than before): builds the server at <git-ref> in a throwaway detached git
// worktree (node_modules linked to this checkout's; removed at the end), serves it beside the working tree's build,
// both on their own temporary SQLite DATA_DIR with the same bench clock and the same data (one user, 120 days of the
// tasks and events above, tracked time written through the API), and measures GET /api/tasks/today,
// /api/tasks?date, /api/ledger?from&to (7 days) and /api/aggregation/analytics/weekly on both in the same rounds,
// the side going first alternating. A markdown table to stdout: per read, req/s and p99 of A (working tree) and B
// (the ref) and the A/B throughput ratio, PASS at 0.9 or more (noise allowance). Before the reads, each side's
// production entry (dist/server.js) is started on a new DATA_DIR and restarted on it, in the same rounds: the ms to
// its first /api/health answer, A/B beside them. With --server-cpu-prof, each side writes its profile under <dir>/A
// and <dir>/B.
//
// A missed target is reported (SHORT) but the exit code stays 0; a failed run (a non-2xx answer, a crash) exits 1.
import { execFileSync, fork, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { apiProcessEnv, freePort } from '../test/reliability/api-process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const distDir = path.resolve(here, '../dist');

/** The bench clock: a Wednesday afternoon, so "this week" and "today" hold the same data whatever the real date. */
const NOW = Date.parse('2026-03-11T19:00:00.000Z');
const TIME_ZONE = 'America/New_York';
const TODAY = '2026-03-11';
/** Seeded days end on the Saturday of the bench week: both users have the same three days planned ahead. */
const LAST_SEEDED_DAY = '2026-03-14';
const ONE_MONTH_DAYS = 30;
const FIVE_YEAR_DAYS = 1826;
const TASKS_PER_DAY = 20;
const EVENTS_PER_DAY = 5;
const CATEGORIES = ['Work', 'Study', 'Exercise', 'Family', 'Errands', 'Reading'];
const CONNECTIONS = 10;
/** The user at the quotas: 20 tasks and 20 events a day for 1,000 days (RECORD_QUOTAS: 20,000 of each). */
const QUOTA_DAYS = 1000;
const QUOTA_PER_DAY = 20;
/** The A/B mode's one user: this many days of the bench's tasks and events, ending on LAST_SEEDED_DAY. */
const AB_DAYS = 120;
/** The A/B mode's target: the working tree's throughput at least this share of the ref's (the rest is noise). */
const AB_MIN_RATIO = 0.9;

const TARGETS = {
  read: { minRatio: 0.12, maxP99Ms: 10 },
  create: { minRatio: 0.1, maxP99Ms: 20 },
  growth: { maxRatio: 1.5 },
  /** Hello's p99 while a read at the quota runs beside it: a page or a batch of an export, never all of it. */
  quota: { maxHelloP99Ms: 100 },
};

// ---------------------------------------------------------------------------------------------------------------
// Server side (the child process)
// ---------------------------------------------------------------------------------------------------------------

/** Removes what the server made; a failed start runs it too, so no temporary directory is left behind. */
let cleanUp = async () => {};

/**
 * `dist`: the build to serve (the A/B mode serves a worktree's build of another commit); `seed`: 'all' (the default
 * bench's users) or 'ab' (one user with tracked time, written through the API; see seedDayReads()).
 */
async function serve({ dist = distDir, seed = 'all' } = {}) {
  const { buildApp } = await import(path.join(dist, 'app.js'));
  const { addDays, instantOfLocalTime, weekStartOf } = await import(path.join(dist, 'lib/time-zone.js'));
  const { sql } = await import('kysely');
  const { Type } = await import('@sinclair/typebox');

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'time-wallet-bench-'));
  cleanUp = () => rm(dataDir, { recursive: true, force: true });
  const app = await buildApp({
    env: {},
    logger: false,
    now: () => NOW,
    config: {
      dataDir,
      database: { kind: 'sqlite', file: path.join(dataDir, 'time-wallet.sqlite') },
      jwtSecret: randomBytes(48).toString('base64url'),
      // Only the three registrations hash a password; the production cost would add seconds for nothing measured.
      passwordHashCost: 10,
      corsOrigins: [],
      rateLimit: { globalPerMinute: 1_000_000_000, authPerMinute: 1_000_000_000 },
    },
  });

  // The baseline: every application-level hook (rate limit, time zone, helmet, request id) and a serialised
  // response schema, but no sign-in and no database.
  app.get(
    '/api/bench/hello',
    { schema: { response: { 200: Type.Object({ message: Type.String() }) } } },
    async () => ({ message: 'hello' }),
  );

  let closed = false;
  const beforeClose = [];
  const close = async () => {
    if (closed) return;
    closed = true;
    for (const step of beforeClose) await step();
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  cleanUp = close;
  process.on('disconnect', () => void close().finally(() => process.exit(0)));
  process.on('message', (message) => {
    if (message?.type === 'close') void close().finally(() => process.exit(0));
    // The server's own CPU time, read around each run: a cost per request that another process's load barely moves.
    if (message?.type === 'cpu') process.send({ type: 'cpu', usage: process.cpuUsage() });
  });

  await app.ready();
  const headers = { 'x-time-zone': TIME_ZONE };

  async function call(method, url, token, payload) {
    const response = await app.inject({
      method,
      url,
      headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(payload ? { payload } : {}),
    });
    if (response.statusCode >= 300) {
      throw new Error(`${method} ${url} answered ${response.statusCode}: ${response.body}`);
    }
    return response.json();
  }

  // Accounts and categories go through the API; the bulk of tasks and events is written straight to the tables, in
  // the rows the tasks and events routes write, in one transaction.
  async function registerUser(label) {
    const { token, user } = await call('POST', '/api/auth/register', undefined, {
      email: `bench-${label}@example.com`,
      password: `Bench-Password-1-${randomUUID()}`,
      name: `Bench ${label}`,
    });
    const categories = [];
    for (const [index, name] of CATEGORIES.entries()) {
      const color = `#${(0x3366cc + index * 0x151515).toString(16).slice(-6)}`;
      categories.push(await call('POST', '/api/categories', token, { name, color }));
    }
    return { token, userId: user._id, categoryIds: categories.map((category) => category._id) };
  }

  function rowsFor(user, days, perDay = { tasks: TASKS_PER_DAY, events: EVENTS_PER_DAY }) {
    const tasks = [];
    const events = [];
    const firstDay = addDays(LAST_SEEDED_DAY, -(days - 1));
    for (let dayIndex = 0; dayIndex < days; dayIndex += 1) {
      const date = addDays(firstDay, dayIndex);
      const past = date < TODAY;
      // 07:00..21:00 holds no daylight-saving change in the bench zone: offsets from 07:00 are wall-clock minutes.
      const seven = instantOfLocalTime(TIME_ZONE, date, '07:00');
      const hhmm = (minutes) =>
        `${String(7 + Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
      for (let index = 0; index < perDay.tasks; index += 1) {
        const startMinutes = index * 40;
        const endMinutes = startMinutes + 15 + ((dayIndex + index) % 4) * 5;
        const startAt = seven + startMinutes * 60_000;
        const createdAt = Math.min(NOW, startAt - 86_400_000 + index * 1000);
        const categorySlot = (dayIndex + index) % (user.categoryIds.length + 1);
        tasks.push({
          id: randomUUID(),
          userId: user.userId,
          title: `Task ${index + 1} of ${date}`,
          categoryId: categorySlot < user.categoryIds.length ? user.categoryIds[categorySlot] : null,
          startHhmm: hhmm(startMinutes),
          endHhmm: hhmm(endMinutes),
          notes: index % 5 === 0 ? 'Bring the notes from last time and the figures for the review.' : '',
          date,
          startAt,
          endAt: seven + endMinutes * 60_000,
          done: past && index % 4 !== 3 ? 1 : 0,
          isEvent: 0,
          isReminder: index === perDay.tasks - 1 ? 1 : 0,
          carryover: 0,
          createdAt,
          updatedAt: past ? startAt + 3_600_000 : createdAt,
        });
      }
      // Five events a day start 150 minutes apart from 08:15; more share the day evenly.
      const eventGap = Math.min(150, Math.floor(840 / perDay.events));
      for (let index = 0; index < perDay.events; index += 1) {
        const startAt = seven + (75 + index * eventGap) * 60_000;
        const imported = index === perDay.events - 1;
        const createdAt = Math.min(NOW, startAt - 7 * 86_400_000);
        events.push({
          id: randomUUID(),
          userId: user.userId,
          title: imported ? `Lecture ${date}` : `Meeting ${index + 1}`,
          startAt,
          endAt: startAt + 60 * 60_000,
          allDay: 0,
          source: imported ? 'ics' : 'manual',
          icsKey: imported ? `${randomUUID()}@calendar.example#` : null,
          createdAt,
          updatedAt: createdAt,
        });
      }
    }
    return { tasks, events };
  }

  async function seedAll() {
    const started = performance.now();
    const users = {
      month: await registerUser('month'),
      fiveYears: await registerUser('five-years'),
      creator: await registerUser('creator'),
      quota: await registerUser('quota'),
    };
    const seeded = { tasks: 0, events: 0 };
    await app.db.transaction().execute(async (trx) => {
      for (const [user, days, perDay] of [
        [users.month, ONE_MONTH_DAYS],
        [users.fiveYears, FIVE_YEAR_DAYS],
        [users.creator, ONE_MONTH_DAYS],
        [users.quota, QUOTA_DAYS, { tasks: QUOTA_PER_DAY, events: QUOTA_PER_DAY }],
      ]) {
        const { tasks, events } = rowsFor(user, days, perDay);
        for (let index = 0; index < tasks.length; index += 500) {
          await trx
            .insertInto('tasks')
            .values(tasks.slice(index, index + 500))
            .execute();
        }
        for (let index = 0; index < events.length; index += 500) {
          await trx
            .insertInto('events')
            .values(events.slice(index, index + 500))
            .execute();
        }
        seeded.tasks += tasks.length;
        seeded.events += events.length;
      }
    });
    const seedMs = performance.now() - started;

    // The data reads back through the API as seeded: a day of 20 tasks, a week of 35 events, spent hours today.
    const weekStart = weekStartOf(TODAY);
    const dates = { day: addDays(TODAY, -1), weekFrom: weekStart, weekTo: addDays(weekStart, 7) };
    for (const user of [users.month, users.fiveYears]) {
      const day = await call('GET', `/api/tasks?date=${dates.day}`, user.token);
      const today = await call('GET', '/api/tasks/today', user.token);
      const week = await call('GET', `/api/events?from=${dates.weekFrom}&to=${dates.weekTo}`, user.token);
      const analytics = await call('GET', '/api/aggregation/analytics/weekly', user.token);
      if (
        day.tasks.length !== TASKS_PER_DAY ||
        today.tasks.length !== TASKS_PER_DAY ||
        !(today.spentHours > 0) ||
        week.length !== 7 * EVENTS_PER_DAY ||
        analytics.weekStart !== dates.weekFrom ||
        // Every category has time, and the uncategorised time is its own entry.
        analytics.byCategory.filter((share) => share.categoryId !== '').length !== CATEGORIES.length
      ) {
        throw new Error(
          `Seeded data does not read back as expected: ${JSON.stringify({ day, today, analytics })}`,
        );
      }
    }
    const atQuota = {
      week: await call('GET', `/api/events?from=${dates.weekFrom}&to=${dates.weekTo}`, users.quota.token),
      today: await call('GET', '/api/tasks/today', users.quota.token),
    };
    if (atQuota.week.length !== 7 * QUOTA_PER_DAY || atQuota.today.tasks.length !== QUOTA_PER_DAY) {
      throw new Error(
        `The user at the quota does not read back as seeded: ${JSON.stringify(atQuota).slice(0, 300)}`,
      );
    }
    return {
      tokens: {
        month: users.month.token,
        fiveYears: users.fiveYears.token,
        creator: users.creator.token,
        quota: users.quota.token,
      },
      createCategoryId: users.creator.categoryIds[0],
      dates,
      seed: { ...seeded, users: 4, seedMs: Math.round(seedMs) },
    };
  }

  /**
   * The A/B seed: one user with AB_DAYS days of the bench's tasks and events (rows straight to the tasks and events
   * tables, which both sides of an A/B share), and tracked time written through the API, so that each build records it
   * its own way (a number on the task before time entries, entries after): PATCH trackedMinutes on every past task
   * done and on today's tasks ended by now (their planned length, 5 minutes less or more in turn; entries from each
   * task's start never overlap, as tasks start 40 minutes apart), and a timer left running on today's next task.
   */
  async function seedDayReads() {
    const started = performance.now();
    const user = await registerUser('ab');
    const { tasks, events } = rowsFor(user, AB_DAYS);
    await app.db.transaction().execute(async (trx) => {
      for (let index = 0; index < tasks.length; index += 500) {
        await trx
          .insertInto('tasks')
          .values(tasks.slice(index, index + 500))
          .execute();
      }
      for (let index = 0; index < events.length; index += 500) {
        await trx
          .insertInto('events')
          .values(events.slice(index, index + 500))
          .execute();
      }
    });
    const tracked = { tasks: 0, minutes: 0 };
    for (const task of tasks) {
      if (task.isReminder || task.endAt > NOW || !(task.done || task.date === TODAY)) continue;
      const minutes = (task.endAt - task.startAt) / 60_000 + ((tracked.tasks % 3) - 1) * 5;
      await call('PATCH', `/api/tasks/${task.id}`, user.token, { trackedMinutes: minutes });
      tracked.tasks += 1;
      tracked.minutes += minutes;
    }
    const next = tasks.find((task) => task.date === TODAY && task.endAt > NOW && !task.isReminder);
    await call('POST', `/api/tasks/${next.id}/timer/start`, user.token);
    const seedMs = performance.now() - started;

    const weekStart = weekStartOf(TODAY);
    const dates = { day: addDays(TODAY, -1), weekFrom: weekStart, weekTo: addDays(weekStart, 7) };
    const day = await call('GET', `/api/tasks?date=${dates.day}`, user.token);
    const today = await call('GET', '/api/tasks/today', user.token);
    const ledger = await call('GET', `/api/ledger?from=${dates.weekFrom}&to=${dates.weekTo}`, user.token);
    const analytics = await call('GET', '/api/aggregation/analytics/weekly', user.token);
    const readBack = {
      dayTrackedMinutes: day.tasks.reduce((sum, task) => sum + task.trackedMinutes, 0),
      todayTrackedHours: today.trackedHours,
      weekTrackedMinutes: ledger.days.reduce((sum, one) => sum + one.trackedMinutes, 0),
    };
    if (
      day.tasks.length !== TASKS_PER_DAY ||
      today.tasks.length !== TASKS_PER_DAY ||
      ledger.days.length !== 7 ||
      analytics.weekStart !== dates.weekFrom ||
      !(readBack.dayTrackedMinutes > 0 && readBack.todayTrackedHours > 0 && readBack.weekTrackedMinutes > 0)
    ) {
      throw new Error(
        `The A/B data does not read back as seeded: ${JSON.stringify({ readBack, today, ledger })}`,
      );
    }
    return {
      tokens: { ab: user.token },
      dates,
      seed: {
        tasks: tasks.length,
        events: events.length,
        users: 1,
        trackedTasks: tracked.tasks,
        trackedMinutes: tracked.minutes,
        readBack,
        seedMs: Math.round(seedMs),
      },
    };
  }

  /** Starts the V8 profiler in this process and writes its profile to `dir` when the server closes. */
  async function profileUntilClose(dir) {
    const { Session } = await import('node:inspector/promises');
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    beforeClose.push(async () => {
      const { profile } = await session.post('Profiler.stop');
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, `reads-${process.pid}.cpuprofile`), JSON.stringify(profile));
      session.disconnect();
    });
  }

  const seeded = seed === 'ab' ? await seedDayReads() : await seedAll();
  const {
    rows: [{ version: sqliteVersion }],
  } = await sql`select sqlite_version() as version`.execute(app.db);

  await app.listen({ host: '127.0.0.1', port: 0 });
  // The profile covers what is measured, from here on: the seeding's writes would hide the reads' costs.
  if (process.env.BENCH_CPU_PROF_DIR) await profileUntilClose(process.env.BENCH_CPU_PROF_DIR);
  process.send({
    type: 'ready',
    port: app.server.address().port,
    ...seeded,
    seed: { ...seeded.seed, sqliteVersion },
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Driver side (this process)
// ---------------------------------------------------------------------------------------------------------------

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

function percentile(sorted, fraction) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

/** The bench runs the compiled app: refuse a missing build, warn about one older than the sources. */
function checkBuild() {
  const built = path.join(distDir, 'app.js');
  if (!existsSync(built)) {
    console.error(`No build at ${built}: run \`npm run build -w server\` first.`);
    process.exit(1);
  }
  const sources = path.resolve(here, '../src');
  const newest = readdirSync(sources, { recursive: true })
    .map((file) => statSync(path.join(sources, String(file))).mtimeMs)
    .reduce((a, b) => Math.max(a, b), 0);
  if (newest > statSync(built).mtimeMs) {
    console.warn('Warning: server/src has changes newer than server/dist; run `npm run build -w server`.');
  }
}

/**
 * Starts a bench server (this script with --serve) in a child process: `dist`, the build to serve (server/dist when
 * not given); `seed`, 'all' or 'ab'; `cpuProfDir`, where the child writes a CPU profile of what it serves after its
 * seeding, when it closes.
 */
async function startServer({ dist, seed, cpuProfDir } = {}) {
  const serveArgs = ['--serve', ...(dist ? ['--dist', dist] : []), ...(seed ? ['--seed', seed] : [])];
  const child = fork(fileURLToPath(import.meta.url), serveArgs, {
    env: { ...process.env, ...(cpuProfDir ? { BENCH_CPU_PROF_DIR: cpuProfDir } : {}) },
    stdio: 'inherit',
  });
  const ready = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`The bench server exited early (code ${code})`)));
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', resolve);
      child.send({ type: 'close' });
    });
  const cpuMicros = () =>
    new Promise((resolve) => {
      child.once('message', (message) => resolve(message.usage.user + message.usage.system));
      child.send({ type: 'cpu' });
    });
  return { ready, stop, cpuMicros };
}

const request = (target, token) => ({
  method: target.method ?? 'GET',
  path: target.url,
  headers: {
    'x-time-zone': TIME_ZONE,
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...(target.body ? { 'content-type': 'application/json' } : {}),
  },
  ...(target.body ? { body: JSON.stringify(target.body) } : {}),
});

/**
 * One autocannon run of 10 connections against `server`. With several requests, each connection sends them in turn, so
 * they are measured side by side under the same load; a response is told apart by the request its connection last
 * sent. Latencies are collected here at full precision (autocannon's histogram keeps whole milliseconds).
 */
async function runLoad(autocannon, server, requests, seconds) {
  const latencies = requests.map(() => []);
  let non2xx = 0;
  const cpuBefore = await server.cpuMicros();
  const instance = autocannon({
    url: `http://127.0.0.1:${server.ready.port}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests,
  });
  instance.on('response', (client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) {
      latencies[client.requestIterator.currentRequestIndex].push(responseTime);
    } else non2xx += 1;
  });
  const result = await instance;
  const cpuMicros = (await server.cpuMicros()) - cpuBefore;
  if (non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    const paths = requests.map((one) => `${one.method} ${one.path}`).join(', ');
    throw new Error(
      `${paths}: ${non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  const total = latencies.reduce((sum, list) => sum + list.length, 0);
  return latencies.map((list) => {
    list.sort((a, b) => a - b);
    return {
      rps: list.length / result.duration,
      meanMs: list.reduce((sum, value) => sum + value, 0) / list.length,
      p50Ms: percentile(list, 0.5),
      p99Ms: percentile(list, 0.99),
      requests: list.length,
      serverCpuMsPerRequest: cpuMicros / 1000 / total,
    };
  });
}

async function drive() {
  const { values: args } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      json: { type: 'string' },
      rounds: { type: 'string' },
      duration: { type: 'string' },
      only: { type: 'string' },
      'server-cpu-prof': { type: 'string' },
      ab: { type: 'string' },
    },
  });
  checkBuild();
  if (args.ab !== undefined) return driveAb(args);
  const rounds = Number(args.rounds ?? (args.quick ? 2 : 5));
  const duration = Number(args.duration ?? (args.quick ? 1 : 2));
  const warmup = args.quick ? 0.5 : 1;
  if (!(rounds >= 1 && duration > 0)) throw new Error('--rounds and --duration must be positive');
  const only = args.only ? new Set(args.only.split(',')) : null;

  const { default: autocannon } = await import('autocannon');
  const startedAt = Date.now();
  const loadBefore = os.loadavg();

  const server = await startServer({
    cpuProfDir: args['server-cpu-prof'] && path.resolve(args['server-cpu-prof']),
  });
  const { ready, stop: stopServer } = server;
  const { dates, tokens } = ready;
  const measure = (requests, seconds = duration) => runLoad(autocannon, server, requests, seconds);

  /**
   * A read by the user at the quota (on `connections` connections) and hello on one connection, side by side; or hello
   * alone when `target` is null. Latencies per request as in measure().
   */
  async function measureBeside(target, seconds) {
    const run = (requests, connections, onAnswer) => {
      const instance = autocannon({
        url: `http://127.0.0.1:${ready.port}`,
        connections,
        duration: seconds,
        requests,
      });
      let failed = 0;
      instance.on('response', (_client, statusCode, bytes, responseTime) => {
        if (statusCode >= 200 && statusCode < 300) onAnswer(responseTime, bytes);
        else failed += 1;
      });
      return instance.then((result) => {
        if (failed > 0 || result.errors > 0 || result.timeouts > 0) {
          throw new Error(
            `${requests[0].path}: ${failed} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`,
          );
        }
        return result;
      });
    };
    const helloLatencies = [];
    const readLatencies = [];
    let readBytes = 0;
    const [, readResult] = await Promise.all([
      run([request(hello)], 1, (latency) => helloLatencies.push(latency)),
      target
        ? run([request(target, tokens.quota)], target.connections, (latency, bytes) => {
            readLatencies.push(latency);
            readBytes += bytes;
          })
        : null,
    ]);
    helloLatencies.sort((a, b) => a - b);
    readLatencies.sort((a, b) => a - b);
    return {
      helloP99Ms: percentile(helloLatencies, 0.99),
      helloRequests: helloLatencies.length,
      ...(readResult && {
        rps: readLatencies.length / readResult.duration,
        meanMs: readLatencies.reduce((sum, value) => sum + value, 0) / readLatencies.length,
        p99Ms: percentile(readLatencies, 0.99),
        requests: readLatencies.length,
        bytesPerAnswer: readBytes / readLatencies.length,
      }),
    };
  }

  const hello = { key: 'hello', url: '/api/bench/hello' };
  const reads = [
    { key: 'tasks-day', name: 'GET /api/tasks?date (a day)', url: `/api/tasks?date=${dates.day}` },
    { key: 'tasks-today', name: 'GET /api/tasks/today', url: '/api/tasks/today' },
    {
      key: 'analytics-week',
      name: 'GET /api/aggregation/analytics/weekly',
      url: '/api/aggregation/analytics/weekly',
    },
    {
      key: 'events-week',
      name: 'GET /api/events?from&to (a week)',
      url: `/api/events?from=${dates.weekFrom}&to=${dates.weekTo}`,
    },
  ].filter((target) => !only || only.has(target.key));
  const creates = [
    {
      key: 'tasks-create',
      name: 'POST /api/tasks',
      method: 'POST',
      url: '/api/tasks',
      // A user of its own: the created tasks land on its today, not on the days the reads measure.
      token: tokens.creator,
      body: { title: 'Bench task', categoryId: ready.createCategoryId, startHHMM: '09:00', endHHMM: '09:30' },
    },
  ].filter((target) => !only || only.has(target.key));

  // One connection asks each read at the quota (an export takes a second or more there), in runs of at least 3 s, so
  // hello's wait beside it is what one such request holds the event loop for.
  const quotaSeconds = Math.max(duration, 3);
  const quotaReads = [
    {
      key: 'quota-export-ics',
      name: 'GET /api/events/export.ics (20,000 events)',
      url: '/api/events/export.ics',
      connections: 1,
    },
    {
      key: 'quota-export-json',
      name: 'GET /api/users/me/export (20,000 tasks and events)',
      url: '/api/users/me/export',
      connections: 1,
    },
    {
      key: 'quota-events-week',
      name: 'GET /api/events?from&to (a week: 140 events)',
      url: `/api/events?from=${dates.weekFrom}&to=${dates.weekTo}`,
      connections: 1,
    },
    {
      key: 'quota-tasks-today',
      name: 'GET /api/tasks/today (20 of 20,000 tasks)',
      url: '/api/tasks/today',
      connections: 1,
    },
  ].filter((target) => !only || only.has(target.key));

  const samples = {};
  const record = (key, round, figures) => ((samples[key] ??= [])[round] = figures);

  try {
    // Warm-up: JIT, statement caches, the page cache of both users' data.
    await measure([request(hello)], warmup);
    for (const target of creates) await measure([request(target, target.token)], warmup);
    for (const target of reads) {
      await measure([request(target, tokens.month), request(target, tokens.fiveYears)], warmup);
    }
    for (const target of quotaReads) await measureBeside(target, warmup);

    for (let round = 0; round < rounds; round += 1) {
      // Each run is compared with its neighbour only; the order flips every round.
      const runs = [
        ...reads.flatMap((target) => [
          [[`hello@${target.key}`], [request(hello)]],
          [[target.key], [request(target, tokens.month)]],
          [
            [`${target.key}@month`, `${target.key}@fiveYears`],
            [request(target, tokens.month), request(target, tokens.fiveYears)],
          ],
        ]),
        ...creates.flatMap((target) => [
          [[`hello@${target.key}`], [request(hello)]],
          [[target.key], [request(target, target.token)]],
        ]),
      ];
      for (const [keys, requests] of round % 2 ? runs.reverse() : runs) {
        const figures = await measure(requests);
        keys.forEach((key, index) => record(key, round, figures[index]));
      }
      for (const target of quotaReads) {
        const pair = [
          [`hello-alone@${target.key}`, null],
          [target.key, target],
        ];
        for (const [key, beside] of round % 2 ? pair.reverse() : pair) {
          record(key, round, await measureBeside(beside, quotaSeconds));
        }
      }
      process.stderr.write(`round ${round + 1}/${rounds} done\n`);
    }
  } finally {
    await stopServer();
  }

  const medianOf = (key, field) => median(samples[key].map((figures) => figures[field]));
  const medianRatio = (numerator, denominator, field) =>
    median(samples[numerator].map((figures, round) => figures[field] / samples[denominator][round][field]));

  const api = [
    ...reads.map((target) => ({ ...target, kind: 'read' })),
    ...creates.map((target) => ({ ...target, kind: 'create' })),
  ].map((target) => {
    const goal = TARGETS[target.kind];
    const helloKey = `hello@${target.key}`;
    const ratioToHello = medianRatio(target.key, helloKey, 'rps');
    const p99Ms = medianOf(target.key, 'p99Ms');
    return {
      endpoint: target.name,
      kind: target.kind,
      rps: medianOf(target.key, 'rps'),
      meanMs: medianOf(target.key, 'meanMs'),
      p99Ms,
      ratioToHello,
      roundRatios: samples[target.key].map((figures, round) => figures.rps / samples[helloKey][round].rps),
      hello: { rps: medianOf(helloKey, 'rps'), p99Ms: medianOf(helloKey, 'p99Ms') },
      // Cross-check, less sensitive to other processes: the server's CPU time per request, hello's over this one's.
      cpuRatioToHello: medianRatio(helloKey, target.key, 'serverCpuMsPerRequest'),
      serverCpuMsPerRequest: medianOf(target.key, 'serverCpuMsPerRequest'),
      target: { minRatioToHello: goal.minRatio, maxP99Ms: goal.maxP99Ms },
      pass: ratioToHello >= goal.minRatio && p99Ms <= goal.maxP99Ms,
    };
  });

  const growth = reads.map((target) => {
    const month = `${target.key}@month`;
    const fiveYears = `${target.key}@fiveYears`;
    const meanRatio = medianRatio(fiveYears, month, 'meanMs');
    const p99Ratio = medianRatio(fiveYears, month, 'p99Ms');
    const figures = (key) => ({ meanMs: medianOf(key, 'meanMs'), p99Ms: medianOf(key, 'p99Ms') });
    return {
      endpoint: target.name,
      oneMonth: figures(month),
      fiveYears: figures(fiveYears),
      meanRatio,
      p99Ratio,
      meanRatioOfMedians: medianOf(fiveYears, 'meanMs') / medianOf(month, 'meanMs'),
      p99RatioOfMedians: medianOf(fiveYears, 'p99Ms') / medianOf(month, 'p99Ms'),
      target: { maxRatio: TARGETS.growth.maxRatio },
      pass: meanRatio <= TARGETS.growth.maxRatio && p99Ratio <= TARGETS.growth.maxRatio,
    };
  });

  const quota = quotaReads.map((target) => {
    const helloBeside = medianOf(target.key, 'helloP99Ms');
    return {
      endpoint: target.name,
      connections: target.connections,
      rps: medianOf(target.key, 'rps'),
      meanMs: medianOf(target.key, 'meanMs'),
      p99Ms: medianOf(target.key, 'p99Ms'),
      bytesPerAnswer: medianOf(target.key, 'bytesPerAnswer'),
      helloP99MsAlone: medianOf(`hello-alone@${target.key}`, 'helloP99Ms'),
      helloP99MsBeside: helloBeside,
      target: { maxHelloP99Ms: TARGETS.quota.maxHelloP99Ms },
      pass: helloBeside <= TARGETS.quota.maxHelloP99Ms,
    };
  });

  const report = {
    benchmark: 'server/bench/api.mjs',
    startedAt: new Date(startedAt).toISOString(),
    elapsedSeconds: Math.round((Date.now() - startedAt) / 1000),
    settings: {
      quick: args.quick,
      rounds,
      durationSeconds: duration,
      quotaSeconds,
      connections: CONNECTIONS,
      timeZone: TIME_ZONE,
    },
    machine: {
      node: process.version,
      cpus: os.cpus().length,
      loadAverageBefore: loadBefore,
      loadAverageAfter: os.loadavg(),
    },
    database: { kind: 'sqlite', ...ready.seed },
    data: {
      tasksPerDay: TASKS_PER_DAY,
      eventsPerDay: EVENTS_PER_DAY,
      oneMonthDays: ONE_MONTH_DAYS,
      fiveYearDays: FIVE_YEAR_DAYS,
      benchToday: TODAY,
      quotaUser: { days: QUOTA_DAYS, tasksPerDay: QUOTA_PER_DAY, eventsPerDay: QUOTA_PER_DAY },
    },
    api,
    growth,
    quota,
    pass: api.every((row) => row.pass) && growth.every((row) => row.pass) && quota.every((row) => row.pass),
  };

  printReport(report);
  if (args.json) {
    await writeFile(path.resolve(args.json), `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nJSON written to ${path.resolve(args.json)}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// A/B mode (issue 31): the working tree's build against a git ref's, in the same run
// ---------------------------------------------------------------------------------------------------------------

/** Runs a command, its output on stderr (stdout carries the report); rejects on a non-zero exit. */
function runCommand(command, commandArgs, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { cwd, stdio: ['ignore', 2, 2] });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(
            new Error(`${command} ${commandArgs.join(' ')} in ${cwd} failed (${signal ?? `exit ${code}`})`),
          ),
    );
  });
}

/** Resolves once `url` answers 200, polling every 10 ms; rejects when `child` exits first or after a minute. */
async function waitFor200(url, child, output) {
  const deadline = performance.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the API exited while starting:\n${output()}`);
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (performance.now() > deadline) throw new Error(`no 200 from ${url} within a minute:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * The production entry of a build (`node <dist>/server.js`, what `npm start` runs) started twice on one new SQLite
 * DATA_DIR: the first start (which also writes the secrets and runs the migrations) and a restart. Each figure is
 * the milliseconds from spawning the process to the first 200 of /api/health, the moment a supervisor or a load
 * balancer would count it as up.
 */
async function timeStarts(dist) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'time-wallet-bench-start-'));
  const port = await freePort();
  const once = async () => {
    const started = performance.now();
    const child = spawn(process.execPath, [path.join(dist, 'server.js')], {
      env: apiProcessEnv(port, { DATA_DIR: dataDir }),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let output = '';
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await waitFor200(`http://127.0.0.1:${port}/api/health`, child, () => output);
      return performance.now() - started;
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
  };
  try {
    const first = await once();
    return { first, restart: await once() };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * `--ab <ref>`: builds the server at <ref> in a throwaway detached git worktree (its node_modules a link to this
 * checkout's, so both builds run the same dependencies), starts it beside the working tree's build (server/dist),
 * seeds both alike through seedDayReads(), and measures the day reads on both in the same rounds, the side that goes
 * first alternating from round to round. A is the working tree, B the ref. The worktree goes at the end, even on a
 * failure or an interrupt; the main working tree and its index are never touched.
 */
async function driveAb(args) {
  const rounds = Number(args.rounds ?? (args.quick ? 2 : 5));
  const duration = Number(args.duration ?? (args.quick ? 1 : 2));
  const warmup = args.quick ? 0.5 : 1;
  if (!(rounds >= 1 && duration > 0)) throw new Error('--rounds and --duration must be positive');
  if (!args.ab) throw new Error('--ab needs a git ref');
  const startedAt = Date.now();

  const repoRoot = execFileSync('git', ['rev-parse', '--show-toplevel'], {
    cwd: here,
    encoding: 'utf8',
  }).trim();
  const git = (...gitArgs) =>
    execFileSync('git', gitArgs, {
      cwd: repoRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  const refSha = git('rev-parse', '--verify', `${args.ab}^{commit}`);
  const headSha = git('rev-parse', 'HEAD');
  const serverChanges = git('status', '--porcelain', '--', 'server/src', 'server/package.json');

  const tmp = await mkdtemp(path.join(os.tmpdir(), 'time-wallet-ab-'));
  const tree = path.join(tmp, 'tree');
  const links = [];
  const servers = [];
  let worktreeAdded = false;
  let cleaned = null;
  const cleanUpAb = () =>
    (cleaned ??= (async () => {
      await Promise.all(servers.map((server) => server.stop()));
      // The links first, so that nothing below can reach the main checkout's node_modules through them.
      for (const link of links) await unlink(link).catch(() => {});
      if (worktreeAdded) {
        try {
          git('worktree', 'remove', '--force', tree);
        } catch (error) {
          console.error(`git worktree remove failed (${error.message.trim()}); removing ${tree} and pruning`);
          await rm(tree, { recursive: true, force: true });
          try {
            git('worktree', 'prune');
          } catch (pruneError) {
            console.error(`git worktree prune failed too: ${pruneError.message.trim()}`);
          }
        }
      }
      await rm(tmp, { recursive: true, force: true });
    })());
  const onSignal = (signal) => {
    console.error(`\n${signal}: removing the A/B worktree`);
    void cleanUpAb().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    process.stderr.write(`A/B: worktree of ${args.ab} (${refSha.slice(0, 7)}) at ${tree}\n`);
    git('worktree', 'add', '--detach', tree, refSha);
    worktreeAdded = true;
    for (const folder of ['.', 'server']) {
      const modules = path.join(repoRoot, folder, 'node_modules');
      if (!existsSync(modules)) continue;
      const link = path.join(tree, folder, 'node_modules');
      await symlink(modules, link, 'dir');
      links.push(link);
    }
    // The build command of server/package.json ("build"), as `npm run build -w server` runs it.
    const buildStarted = performance.now();
    await runCommand('npm', ['run', 'build'], path.join(tree, 'server'));
    const buildSeconds = (performance.now() - buildStarted) / 1000;

    const { default: autocannon } = await import('autocannon');
    const loadBefore = os.loadavg();
    const profile = args['server-cpu-prof'] && path.resolve(args['server-cpu-prof']);
    const sides = [
      { key: 'A', name: 'working tree', sha: headSha, dist: distDir },
      { key: 'B', name: args.ab, sha: refSha, dist: path.join(tree, 'server', 'dist') },
    ];
    // Start-up first, with nothing else of the bench running: each round starts A and B back to back.
    const startSamples = { A: [], B: [] };
    for (let round = 0; round < rounds; round += 1) {
      for (const side of round % 2 ? [...sides].reverse() : sides) {
        startSamples[side.key].push(await timeStarts(side.dist));
      }
    }
    process.stderr.write('A/B: start-up timed\n');
    for (const side of sides) {
      process.stderr.write(`A/B: starting and seeding ${side.key} (${side.name})\n`);
      side.server = await startServer({
        dist: side.dist,
        seed: 'ab',
        cpuProfDir: profile && path.join(profile, side.key),
      });
      servers.push(side.server);
    }
    const [a, b] = sides;
    const { dates } = a.server.ready;
    if (JSON.stringify(dates) !== JSON.stringify(b.server.ready.dates)) {
      throw new Error(`A and B read different days: ${JSON.stringify([dates, b.server.ready.dates])}`);
    }

    const allReads = [
      { key: 'tasks-today', name: 'GET /api/tasks/today', url: '/api/tasks/today' },
      { key: 'tasks-day', name: 'GET /api/tasks?date (a day)', url: `/api/tasks?date=${dates.day}` },
      {
        key: 'ledger-week',
        name: 'GET /api/ledger?from&to (7 days)',
        url: `/api/ledger?from=${dates.weekFrom}&to=${dates.weekTo}`,
      },
      {
        key: 'analytics-week',
        name: 'GET /api/aggregation/analytics/weekly',
        url: '/api/aggregation/analytics/weekly',
      },
    ];
    // --only picks reads here too (by these keys), e.g. one read's profile without the others in it.
    const only = args.only ? new Set(args.only.split(',')) : null;
    const reads = allReads.filter((target) => !only || only.has(target.key));
    if (reads.length === 0)
      throw new Error(`--only names none of ${allReads.map(({ key }) => key).join(', ')}`);
    const load = (side, target, seconds) =>
      runLoad(autocannon, side.server, [request(target, side.server.ready.tokens.ab)], seconds);

    const samples = {};
    for (const target of reads) for (const side of sides) await load(side, target, warmup);
    for (let round = 0; round < rounds; round += 1) {
      // Each read on A and on B back to back; which goes first, and the order of the reads, flip every round.
      const order = round % 2 ? [b, a] : [a, b];
      for (const target of round % 2 ? [...reads].reverse() : reads) {
        for (const side of order) {
          const [figures] = await load(side, target, duration);
          (samples[`${target.key}@${side.key}`] ??= [])[round] = figures;
        }
      }
      process.stderr.write(`round ${round + 1}/${rounds} done\n`);
    }
    await cleanUpAb();

    const of = (target, side) => samples[`${target.key}@${side.key}`];
    const medianOf = (target, side, field) => median(of(target, side).map((figures) => figures[field]));
    const medianRatio = (target, field) =>
      median(of(target, a).map((figures, round) => figures[field] / of(target, b)[round][field]));
    const rows = reads.map((target) => {
      const ratio = medianRatio(target, 'rps');
      const side = (one) => ({
        rps: medianOf(target, one, 'rps'),
        meanMs: medianOf(target, one, 'meanMs'),
        p99Ms: medianOf(target, one, 'p99Ms'),
        serverCpuMsPerRequest: medianOf(target, one, 'serverCpuMsPerRequest'),
      });
      return {
        key: target.key,
        endpoint: target.name,
        a: side(a),
        b: side(b),
        ratio,
        roundRatios: of(target, a).map((figures, round) => figures.rps / of(target, b)[round].rps),
        cpuRatio: medianRatio(target, 'serverCpuMsPerRequest'),
        target: { minRatio: AB_MIN_RATIO },
        pass: ratio >= AB_MIN_RATIO,
      };
    });
    const report = {
      benchmark: 'server/bench/api.mjs --ab',
      startedAt: new Date(startedAt).toISOString(),
      elapsedSeconds: Math.round((Date.now() - startedAt) / 1000),
      buildSeconds: Math.round(buildSeconds),
      a: { name: a.name, head: headSha, serverChanges: serverChanges !== '', seed: a.server.ready.seed },
      b: { name: b.name, sha: refSha, seed: b.server.ready.seed },
      settings: {
        rounds,
        durationSeconds: duration,
        warmupSeconds: warmup,
        connections: CONNECTIONS,
        days: AB_DAYS,
      },
      machine: {
        node: process.version,
        cpus: os.cpus().length,
        loadAverageBefore: loadBefore,
        loadAverageAfter: os.loadavg(),
      },
      dates,
      reads: rows,
      starts: ['first', 'restart'].map((kind) => {
        const ms = (side) => startSamples[side].map((sample) => sample[kind]);
        return {
          kind,
          aMs: median(ms('A')),
          bMs: median(ms('B')),
          ratio: median(ms('A').map((value, round) => value / ms('B')[round])),
        };
      }),
      pass: rows.every((row) => row.pass),
    };
    printAbReport(report);
    if (args.json) {
      await writeFile(path.resolve(args.json), `${JSON.stringify(report, null, 2)}\n`);
      console.log(`\nJSON written to ${path.resolve(args.json)}`);
    }
  } finally {
    await cleanUpAb();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

function printAbReport(report) {
  const { a, b, settings, machine } = report;
  const fixed = (value, digits = 2) => value.toFixed(digits);
  const short = (sha) => sha.slice(0, 7);
  const seedLine = (side) =>
    `${side.seed.tasks} tasks, ${side.seed.events} events, ${side.seed.trackedTasks} tasks tracked ` +
    `(${side.seed.trackedMinutes} min) and a timer running; reads back ${side.seed.readBack.dayTrackedMinutes} min ` +
    `tracked on ${report.dates.day}, ${side.seed.readBack.weekTrackedMinutes} min in the week, ` +
    `${side.seed.readBack.todayTrackedHours} h today; seeded in ${side.seed.seedMs} ms`;
  console.log(
    `\nDay reads, A = working tree (HEAD ${short(a.head)}${a.serverChanges ? ' plus uncommitted server changes' : ''})` +
      ` vs B = ${b.name} (${short(b.sha)}), same run. Median of ${settings.rounds} rounds of ` +
      `${settings.durationSeconds} s per read and side, ${settings.connections} connections, A and B back to back ` +
      `with the one going first alternating each round; A/B req/s is the median of the rounds' ratios. ` +
      `PASS when A's throughput is at least ${AB_MIN_RATIO} x B's (a ${Math.round((1 - AB_MIN_RATIO) * 100)} % ` +
      `allowance for noise on a shared machine), SHORT otherwise. CPU/req A/B (the server process's CPU time per ` +
      `request, A over B; above 1 = A costs more) is a cross-check, not a target. SQLite ` +
      `${a.seed.sqliteVersion}, Node ${machine.node}, ${machine.cpus} CPUs, load ` +
      `${machine.loadAverageBefore.map((load) => load.toFixed(1)).join('/')} before, ` +
      `${machine.loadAverageAfter.map((load) => load.toFixed(1)).join('/')} after.\n`,
  );
  const header = ['read', 'A req/s', 'A p99 ms', 'B req/s', 'B p99 ms', 'A/B req/s', 'CPU/req A/B', 'result'];
  const lines = report.reads.map((row) => [
    `\`${row.endpoint}\``,
    fixed(row.a.rps, 0),
    fixed(row.a.p99Ms),
    fixed(row.b.rps, 0),
    fixed(row.b.p99Ms),
    fixed(row.ratio),
    fixed(row.cpuRatio),
    row.pass ? 'PASS' : 'SHORT',
  ]);
  console.log(`| ${header.join(' | ')} |`);
  console.log(
    `| ${header.map((_, column) => (column === 0 || column === 7 ? '---' : '---:')).join(' | ')} |`,
  );
  for (const line of lines) console.log(`| ${line.join(' | ')} |`);
  console.log(
    `\nStart-up: \`node dist/server.js\` on a new SQLite DATA_DIR, then again on the same one; ms from spawning ` +
      `the process to the first 200 of /api/health, median of ${settings.rounds} rounds (A and B back to back); ` +
      `A/B is the median of the rounds' ratios, below 1 = A starts sooner. Not a target.\n`,
  );
  console.log('| start | A ms | B ms | A/B |\n| --- | ---: | ---: | ---: |');
  for (const row of report.starts) {
    console.log(`| ${row.kind} | ${fixed(row.aMs, 0)} | ${fixed(row.bMs, 0)} | ${fixed(row.ratio)} |`);
  }
  console.log(
    `\nData, each side (one user, ${settings.days} days, the day read ${report.dates.day}, the week from ` +
      `${report.dates.weekFrom}):`,
  );
  console.log(`- A: ${seedLine(a)}`);
  console.log(`- B: ${seedLine(b)}`);
  console.log(
    `\nOverall: ${report.pass ? 'PASS' : 'SHORT'} (${report.elapsedSeconds} s, of which ${report.buildSeconds} s building ${short(b.sha)})`,
  );
}

function printTable(header, rows) {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column].length)),
  );
  const line = (cells) => cells.map((cell, column) => cell.padEnd(widths[column])).join('  ');
  console.log(line(header));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const row of rows) console.log(line(row));
}

function printReport(report) {
  const { settings, machine, database } = report;
  const fixed = (value, digits = 2) => value.toFixed(digits);
  console.log(
    `\nAPI benchmark: SQLite ${database.sqliteVersion}, Node ${machine.node}, ${machine.cpus} CPUs, ` +
      `${settings.connections} connections, ${settings.rounds} rounds of ${settings.durationSeconds} s, ` +
      `load ${machine.loadAverageBefore.map((load) => load.toFixed(1)).join('/')}`,
  );
  console.log(
    `Seeded ${database.tasks} tasks and ${database.events} events for ${database.users} users in ${database.seedMs} ms\n`,
  );
  console.log('Item 4: throughput as a ratio to hello (same round), p99 at 10 connections, one-month user');
  printTable(
    ['endpoint', 'req/s', 'ratio', 'p99 ms', 'hello req/s', 'hello p99', 'CPU ratio', 'target', 'result'],
    report.api.map((row) => [
      row.endpoint,
      fixed(row.rps, 0),
      fixed(row.ratioToHello, 3),
      fixed(row.p99Ms),
      fixed(row.hello.rps, 0),
      fixed(row.hello.p99Ms),
      fixed(row.cpuRatioToHello, 3),
      `>= ${row.target.minRatioToHello}, p99 <= ${row.target.maxP99Ms} ms`,
      row.pass ? 'PASS' : 'SHORT',
    ]),
  );
  console.log(
    "(CPU ratio: hello's server CPU time per request over the endpoint's, a cross-check; not a target)",
  );
  console.log(
    '\nItem 5: growth, five years / one month of data (20 tasks + 5 events a day), both users in the same run',
  );
  printTable(
    ['endpoint', '1 month mean/p99 ms', '5 years mean/p99 ms', 'mean ratio', 'p99 ratio', 'target', 'result'],
    report.growth.map((row) => [
      row.endpoint,
      `${fixed(row.oneMonth.meanMs)} / ${fixed(row.oneMonth.p99Ms)}`,
      `${fixed(row.fiveYears.meanMs)} / ${fixed(row.fiveYears.p99Ms)}`,
      fixed(row.meanRatio),
      fixed(row.p99Ratio),
      `<= ${row.target.maxRatio}`,
      row.pass ? 'PASS' : 'SHORT',
    ]),
  );
  console.log(
    `\nReads at the quota (20,000 tasks and 20,000 events), beside hello on one connection; ${report.settings.quotaSeconds} s runs`,
  );
  printTable(
    [
      'endpoint',
      'conn',
      'req/s',
      'mean ms',
      'p99 ms',
      'KB/answer',
      'hello p99 alone',
      'hello p99 beside',
      'target',
      'result',
    ],
    report.quota.map((row) => [
      row.endpoint,
      String(row.connections),
      fixed(row.rps, 1),
      fixed(row.meanMs, 1),
      fixed(row.p99Ms, 1),
      fixed(row.bytesPerAnswer / 1024, 1),
      fixed(row.helloP99MsAlone),
      fixed(row.helloP99MsBeside),
      `hello p99 <= ${row.target.maxHelloP99Ms} ms`,
      row.pass ? 'PASS' : 'SHORT',
    ]),
  );
  console.log(`\nOverall: ${report.pass ? 'PASS' : 'SHORT'} (${report.elapsedSeconds} s)`);
}

if (process.argv.includes('--serve')) {
  const { values: serveArgs } = parseArgs({
    options: { serve: { type: 'boolean' }, dist: { type: 'string' }, seed: { type: 'string' } },
  });
  serve({ dist: serveArgs.dist, seed: serveArgs.seed }).catch(async (error) => {
    console.error(error);
    await cleanUp().catch(() => {});
    process.exit(1);
  });
} else {
  drive().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
