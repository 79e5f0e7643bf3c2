import assert from 'node:assert/strict';
import { setTimeout as pause } from 'node:timers/promises';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { JOB_RETRIES } from '../../src/plugins/app/jobs.js';
import { buildTestApp, isPostgresRun } from '../helpers.js';

const TICK_SECONDS = 1;

interface LogLine {
  level: number;
  msg: string;
  job?: string;
  attempt?: number;
  startMs?: number;
}

/** A test app with jobs on and a short tick; on PostgreSQL its pg-boss schema goes with the app's database. */
async function appWithJobs(
  options: { config?: NonNullable<Parameters<typeof buildTestApp>[0]>['config'] } = {},
) {
  const logs: LogLine[] = [];
  const built = await buildTestApp({
    config: { jobs: { enabled: true, tickSeconds: TICK_SECONDS }, ...options.config },
    logStream: { write: (line) => logs.push(JSON.parse(line) as LogLine) },
  });
  return { ...built, logs };
}

async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000) {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) assert.fail(`still waiting for ${what}`);
    await pause(20);
  }
}

/** A promise and the function that resolves it. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

// The tests of one instance share an app; closing and the three instances need their own. The three groups run at
// once: most of their time is waiting for ticks and retries.
describe('background jobs', { concurrency: true }, () => {
  // Subtests of one test, so the app buildTestApp closes after its test lives until the last of them.
  test('on one instance', async (t) => {
    const { app, logs } = await appWithJobs();
    const echoed: object[] = [];
    const refreshed: string[] = [];
    const release = gate();
    let failedAttempts = 0;
    const scans: number[] = [];

    app.jobs.handle('echo', async (data) => {
      echoed.push(data);
    });
    app.jobs.handle<{ name: string; hold?: boolean }>('refresh-calendar', async ({ name, hold }) => {
      refreshed.push(name);
      if (hold) await release.opened;
    });
    app.jobs.handle('always-failing', async () => {
      failedAttempts += 1;
      throw new Error('calendar host answered 503');
    });
    app.jobs.every('count-scans', async () => {
      scans.push(Date.now());
    });
    await app.ready();
    const readyAt = Date.now();

    await t.test('a job sent runs once with its data, as JSON gives it back', async () => {
      await app.jobs.send('echo', { calendarId: 'c1', since: new Date(Date.UTC(2026, 2, 11)) });
      await app.jobs.idle();

      assert.deepEqual(echoed, [{ calendarId: 'c1', since: '2026-03-11T00:00:00.000Z' }]);
    });

    await t.test('a keyed job sent 5 times while one waits runs once; unkeyed sends all run', async () => {
      // Two held runs take both of the instance's slots for this kind, so the next sends wait.
      await app.jobs.send('refresh-calendar', { name: 'held 1', hold: true }, { key: 'held-1' });
      await app.jobs.send('refresh-calendar', { name: 'held 2', hold: true }, { key: 'held-2' });
      await waitFor(() => refreshed.length === 2, 'both held runs to start');
      for (let send = 1; send <= 5; send += 1) {
        await app.jobs.send('refresh-calendar', { name: `calendar 7, send ${send}` }, { key: 'calendar-7' });
      }
      await app.jobs.send('refresh-calendar', { name: 'unkeyed a' });
      await app.jobs.send('refresh-calendar', { name: 'unkeyed b' });
      release.open();
      await app.jobs.idle();

      assert.deepEqual(refreshed.slice(2).sort(), ['calendar 7, send 1', 'unkeyed a', 'unkeyed b']);
    });

    await t.test(`a failing job is tried ${1 + JOB_RETRIES} times, then given up and logged`, async () => {
      await app.jobs.send('always-failing', { calendarId: 'c1' }, { key: 'c1' });
      await app.jobs.idle();

      assert.equal(failedAttempts, 1 + JOB_RETRIES);
      const failures = logs.filter((line) => line.job === 'always-failing');
      assert.deepEqual(
        failures.map(({ level, attempt }) => ({ level, attempt })),
        [
          { level: 40, attempt: 1 },
          { level: 40, attempt: 2 },
          { level: 50, attempt: 3 },
        ],
      );
      assert.match(failures[2].msg, /given up/);
    });

    await t.test('every() scans once at start and then at every tick', async () => {
      await waitFor(() => scans.length >= 3, 'three scans');
      // The first scan starts while the app gets ready, not a tick later.
      assert.ok(scans[0] <= readyAt, `first scan ${scans[0] - readyAt} ms after the app was ready`);
      // Never sooner than a tick; later only by as much as a busy event loop delays a timer.
      for (const [index, at] of scans.slice(1, 3).entries()) {
        const gap = at - scans[index];
        assert.ok(gap > TICK_SECONDS * 1000 * 0.8 && gap < TICK_SECONDS * 1000 * 5, `a gap of ${gap} ms`);
      }
    });
  });

  test('closing the app waits for a running job', async () => {
    const { app } = await appWithJobs();
    const steps: string[] = [];
    app.jobs.handle('refresh-calendar', async () => {
      steps.push('started');
      await pause(300);
      await sql`select 1`.execute(app.db);
      steps.push('finished');
    });
    await app.ready();

    await app.jobs.send('refresh-calendar', { calendarId: 'c1' });
    await waitFor(() => steps.length === 1, 'the job to start');
    await app.close();

    assert.deepEqual(steps, ['started', 'finished']);
  });

  test('three instances on one database run each due item exactly once', async (t) => {
    if (!isPostgresRun) {
      t.skip('PostgreSQL only');
      return;
    }
    const first = await appWithJobs();
    const database = first.app.config.database;
    const others = [await appWithJobs({ config: { database } }), await appWithJobs({ config: { database } })];
    const instances: FastifyInstance[] = [first.app, ...others.map(({ app }) => app)];

    // The real job's shape: a scan finds due rows and sends one keyed run each; the run claims its row with a
    // conditional UPDATE, so a second run of the same row (a send from another instance's scan while the first run
    // was active) changes nothing.
    await sql`create table due_items (id text primary key, due boolean not null, claims integer not null)`.execute(
      first.app.db,
    );
    const itemIds = Array.from({ length: 20 }, (_, index) => `item-${index}`);
    for (const id of itemIds) await sql`insert into due_items values (${id}, true, 0)`.execute(first.app.db);

    const runsPerInstance = instances.map(() => 0);
    const claimsPerInstance = instances.map(() => 0);
    for (const [index, app] of instances.entries()) {
      app.jobs.handle<{ itemId: string }>('refresh-item', async ({ itemId }) => {
        runsPerInstance[index] += 1;
        const claimed = await sql`update due_items set due = false, claims = claims + 1
          where id = ${itemId} and due returning id`.execute(app.db);
        // No row: another run of the item got there first and this one has nothing to do. The real job's work
        // (fetching the calendar) follows a claim.
        if (claimed.rows.length === 1) claimsPerInstance[index] += 1;
      });
      app.jobs.every('due-items', async () => {
        const due = await sql<{ id: string }>`select id from due_items where due`.execute(app.db);
        for (const { id } of due.rows) await app.jobs.send('refresh-item', { itemId: id }, { key: id });
      });
    }
    await Promise.all(instances.map((app) => app.ready()));
    const startMs = [first, ...others].map(
      ({ logs }) => logs.find((line) => line.msg === 'background jobs run on pg-boss')?.startMs,
    );
    t.diagnostic(`pg-boss start-up: ${startMs.join(' ms, ')} ms`);

    const dueCount = async () =>
      Number(
        (await sql<{ n: string }>`select count(*) as n from due_items where due`.execute(first.app.db))
          .rows[0].n,
      );
    await waitFor(async () => (await dueCount()) === 0, 'every item to be claimed', 10_000);
    // One more tick: the scans of every instance find nothing due and send nothing.
    await pause(TICK_SECONDS * 1000);
    await Promise.all(instances.map((app) => app.jobs.idle()));

    const claims = await sql<{ id: string; claims: number }>`select id, claims from due_items`.execute(
      first.app.db,
    );
    assert.deepEqual(
      Object.fromEntries(claims.rows.map((row) => [row.id, row.claims])),
      Object.fromEntries(itemIds.map((id) => [id, 1])),
    );
    const sum = (counts: number[]) => counts.reduce((total, count) => total + count, 0);
    assert.equal(sum(claimsPerInstance), 20);
    assert.ok(sum(runsPerInstance) >= 20);
    t.diagnostic(`runs per instance: ${runsPerInstance.join(', ')}; claims: ${claimsPerInstance.join(', ')}`);
  });
});
