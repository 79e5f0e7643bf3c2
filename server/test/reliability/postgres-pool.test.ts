// The PostgreSQL pool when the database misbehaves: connections killed under it (a restart, a failover), every
// connection busy, a statement that runs too long. The API must stay up and answer 503 quickly, then recover.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../../src/config.js';
import { createDatabase, migrateToLatest } from '../../src/db/database.js';
import { buildTestApp, signUp } from '../helpers.js';
import { ensureBuilt, signUpOn, startApi, type RunningApi } from './support.js';

const databaseUrl = process.env.TEST_DATABASE_URL;
// Each test says it was skipped (the count shows), rather than passing, when there is no database to run on.
const skip = databaseUrl ? false : 'needs TEST_DATABASE_URL (CI sets it)';

const UNAVAILABLE = { message: 'The service is temporarily unavailable; try again shortly' };

// Must match SCHEMA_LOCK in ../helpers.ts: migrations hold it shared, schema drops exclusively.
const SCHEMA_LOCK = 0x7717_2026;

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  return client;
}

interface Answer {
  status: number;
  retryAfter: string | null;
  body: unknown;
}

async function get(api: RunningApi, url: string, token: string): Promise<Answer> {
  // A request that hangs fails the test instead of the run: the server's own limits are all well under this.
  const response = await fetch(`${api.url}/api${url}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(20_000),
  });
  const text = await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: JSON.parse(text) };
}

describe('the PostgreSQL pool of the built API', () => {
  const schema = `pool_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const dataDirs: string[] = [];
  const apis: RunningApi[] = [];
  let admin: pg.Client;

  /** An API process on the test schema whose connections carry `name`, so the test can find (and kill) them. */
  async function startPoolApi(name: string, env: Record<string, string> = {}) {
    const url = new URL(databaseUrl!);
    url.searchParams.set('options', `-c search_path=${schema}`);
    url.searchParams.set('application_name', name);
    const dataDir = await mkdtemp(path.join(tmpdir(), 'time-wallet-pool-'));
    dataDirs.push(dataDir);
    const lock = await connect();
    try {
      await lock.query('select pg_advisory_lock_shared($1)', [SCHEMA_LOCK]);
      const api = await startApi(
        {
          DATA_DIR: dataDir,
          DATABASE_URL: url.toString(),
          JWT_SECRET: 'reliability-postgres-pool-secret-0123456789',
          ...env,
        },
        60_000,
      );
      apis.push(api);
      return api;
    } finally {
      await lock.end();
    }
  }

  const backendsOf = async (name: string) =>
    (
      await admin.query<{ pid: number; waiting: boolean }>(
        "select pid, wait_event_type = 'Lock' as waiting from pg_stat_activity where application_name = $1",
        [name],
      )
    ).rows;

  /** Terminates the connections named `name` and returns their process ids. */
  async function terminateBackendsOf(name: string): Promise<number[]> {
    const { rows } = await admin.query<{ pid: number; terminated: boolean }>(
      'select pid, pg_terminate_backend(pid) as terminated from pg_stat_activity where application_name = $1',
      [name],
    );
    return rows.filter((row) => row.terminated).map((row) => row.pid);
  }

  /**
   * Waits until the given backends have exited. Only those: the API's background jobs scan on a timer and may open
   * a fresh connection under the same name at any moment, which is the pool recovering, not a killed backend staying.
   */
  async function waitForExit(pids: number[]): Promise<void> {
    await waitUntil(async () => {
      const { rows } = await admin.query('select 1 from pg_stat_activity where pid = any($1::int[])', [pids]);
      return rows.length === 0;
    }, 'the killed backends to go');
  }

  /** Holds an exclusive lock on the categories table until the returned function is called. */
  async function lockCategories(): Promise<() => Promise<void>> {
    const holder = await connect();
    await holder.query('begin');
    await holder.query(`lock table ${schema}.categories in access exclusive mode`);
    return async () => {
      await holder.query('rollback');
      await holder.end();
    };
  }

  before(async () => {
    if (skip) return;
    await ensureBuilt();
    admin = await connect();
    await admin.query(`create schema ${schema}`);
    await admin.query('select pg_advisory_lock_shared($1)', [SCHEMA_LOCK]);
    try {
      const handle = createDatabase({ kind: 'postgres', url: databaseUrl!, schema });
      await migrateToLatest(handle.db, schema);
      await handle.db.destroy();
    } finally {
      await admin.query('select pg_advisory_unlock_shared($1)', [SCHEMA_LOCK]);
    }
  });

  after(async () => {
    if (skip) return;
    for (const api of apis) {
      api.child.kill('SIGTERM');
      await api.exited;
    }
    await admin.query('select pg_advisory_lock($1)', [SCHEMA_LOCK]);
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  });

  test(
    'every connection killed while idle, then again mid-request: the API stays up and the next request succeeds',
    { skip },
    async () => {
      const name = `tw-pool-killed-${process.pid}`;
      const api = await startPoolApi(name);
      const { token } = await signUpOn(api.url, 'poolKilled');
      // A few requests at once, so the pool holds several idle connections.
      const warm = await Promise.all(Array.from({ length: 4 }, () => get(api, '/categories', token)));
      assert.deepEqual(
        warm.map((answer) => answer.status),
        [200, 200, 200, 200],
      );

      const idle = await terminateBackendsOf(name);
      assert.ok(idle.length >= 1, 'the pool had connections to kill');
      await waitForExit(idle);
      // The pool learns of the dead connections from their sockets; give the process a moment to read them.
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(
        api.child.exitCode,
        null,
        `the API died when its idle connections were killed:\n${api.output()}`,
      );
      assert.equal((await get(api, '/auth/me', token)).status, 200);

      const release = await lockCategories();
      let midRequest: Answer | undefined;
      let killed: number[] = [];
      try {
        const blocked = get(api, '/categories', token).then((answer) => (midRequest = answer));
        await waitUntil(
          async () => (await backendsOf(name)).some((row) => row.waiting),
          'a request waiting on the lock',
        );
        killed = await terminateBackendsOf(name);
        assert.ok(killed.length >= 1);
        await blocked;
      } finally {
        await release();
      }
      assert.equal(midRequest?.status, 503, JSON.stringify(midRequest));
      assert.deepEqual(midRequest?.body, UNAVAILABLE);
      assert.equal(midRequest?.retryAfter, '5');
      await waitForExit(killed);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal((await get(api, '/categories', token)).status, 200);
      assert.equal(api.child.exitCode, null, api.output());
      assert.doesNotMatch(api.output(), /uncaught|unhandled/i);
    },
  );

  test(
    'with every connection busy, a request answers 503 after the connection timeout instead of waiting',
    { skip },
    async () => {
      const name = `tw-pool-busy-${process.pid}`;
      const api = await startPoolApi(name, {
        PG_POOL_MAX: '2',
        PG_CONNECT_TIMEOUT_MS: '1000',
        PG_STATEMENT_TIMEOUT_MS: '60000',
      });
      const { token } = await signUpOn(api.url, 'poolBusy');
      const release = await lockCategories();
      let holders: Promise<Answer[]> | undefined;
      let waiter: Answer;
      try {
        // Two requests stuck on the lock hold both connections of the pool.
        holders = Promise.all([get(api, '/categories', token), get(api, '/categories', token)]);
        await waitUntil(
          async () => (await backendsOf(name)).filter((row) => row.waiting).length === 2,
          'both connections waiting on the lock',
        );
        waiter = await get(api, '/auth/me', token);
      } finally {
        await release();
      }
      assert.equal(waiter.status, 503, JSON.stringify(waiter));
      assert.deepEqual(waiter.body, UNAVAILABLE);
      assert.equal(waiter.retryAfter, '5');
      // The requests that held the connections finish normally once the lock goes.
      assert.deepEqual(
        (await holders).map((answer) => answer.status),
        [200, 200],
      );
      assert.equal((await get(api, '/auth/me', token)).status, 200);
    },
  );

  test('a statement over the statement timeout is cancelled and answers 503', { skip }, async () => {
    const name = `tw-pool-slow-${process.pid}`;
    const api = await startPoolApi(name, { PG_STATEMENT_TIMEOUT_MS: '1000' });
    const { token } = await signUpOn(api.url, 'poolSlow');
    const release = await lockCategories();
    let slow: Answer;
    try {
      slow = await get(api, '/categories', token);
    } finally {
      await release();
    }
    assert.equal(slow.status, 503, JSON.stringify(slow));
    assert.deepEqual(slow.body, UNAVAILABLE);
    assert.equal((await get(api, '/categories', token)).status, 200);
  });
});

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("the API's PostgreSQL connections", () => {
  test(
    'carry a statement timeout and an idle-in-transaction timeout (15 s unless configured)',
    { skip },
    async () => {
      const defaults = loadConfig({ DATABASE_URL: databaseUrl!, JWT_SECRET: 'x'.repeat(40) });
      assert.deepEqual(defaults.postgresPool, {
        max: 10,
        connectionTimeoutMs: 5000,
        statementTimeoutMs: 15_000,
      });
      const { app } = await buildTestApp();
      const settings = await sql<{ statement: string; idle: string }>`
      select current_setting('statement_timeout') as statement,
             current_setting('idle_in_transaction_session_timeout') as idle`.execute(app.db);
      assert.deepEqual(settings.rows, [{ statement: '15s', idle: '15s' }]);
    },
  );
});

describe('a database that is unreachable, overloaded or too slow answers 503, never 500', () => {
  const failures: Array<[string, () => Error]> = [
    [
      'connection refused',
      () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    ],
    ['no free connection in time', () => new Error('timeout exceeded when trying to connect')],
    ['connection dropped', () => new Error('Connection terminated unexpectedly')],
    [
      'backend terminated',
      () =>
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    ],
    [
      'statement timeout',
      () => Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
    ],
    [
      'too many connections',
      () => Object.assign(new Error('sorry, too many clients already'), { code: '53300' }),
    ],
    ['SQLite file locked', () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })],
  ];

  test('each kind of failure, raised where a request reads its session', async () => {
    const { app } = await buildTestApp();
    const user = await signUp(app);
    const repository = app.accountSecurityRepository;
    const original = repository.findSessionUser;
    try {
      for (const [kind, failure] of failures) {
        repository.findSessionUser = async () => {
          throw failure();
        };
        const response = await app.inject({ method: 'GET', url: '/api/tasks/today', headers: user.headers });
        assert.equal(response.statusCode, 503, `${kind}: ${response.body}`);
        assert.deepEqual(response.json(), UNAVAILABLE, kind);
        assert.equal(response.headers['retry-after'], '5', kind);
      }
      // Any other failure is still a plain 500 that says nothing.
      repository.findSessionUser = async () => {
        throw Object.assign(new Error('syntax error at or near "selec"'), { code: '42601' });
      };
      const broken = await app.inject({ method: 'GET', url: '/api/tasks/today', headers: user.headers });
      assert.equal(broken.statusCode, 500);
      assert.deepEqual(broken.json(), { message: 'Internal server error' });
    } finally {
      repository.findSessionUser = original;
    }
    assert.equal(
      (await app.inject({ method: 'GET', url: '/api/auth/me', headers: user.headers })).statusCode,
      200,
    );
  });
});
