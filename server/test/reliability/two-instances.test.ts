// Two built API processes on one PostgreSQL database (same DATABASE_URL, same JWT_SECRET), as behind a load balancer:
// whatever one instance writes or revokes, the other sees at once, and the sign-in limits count both together.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { createDatabase, migrateToLatest } from '../../src/db/database.js';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy.mjs';
import {
  call,
  ensureBuilt,
  newAccount,
  startApi,
  waitFor,
  requestHeaders,
  type ApiAnswer,
  type RunningApi,
} from './support.js';

const databaseUrl = process.env.TEST_DATABASE_URL;
// Above the 5 failures plus 2 refused sign-ins of the per-account test, which all come from one address.
const AUTH_LIMIT_PER_IP = 8;
const ACCOUNT_FAILURE_LIMIT = 5;

// Must match SCHEMA_LOCK in ../helpers.ts: Kysely's migrator introspects every schema and fails on one that another
// test file drops meanwhile, so migrations (our servers' start-up included) hold it shared and drops exclusively.
const SCHEMA_LOCK = 0x7717_2026;

async function lockSession(mode: 'shared' | 'exclusive'): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(
    mode === 'shared' ? 'select pg_advisory_lock_shared($1)' : 'select pg_advisory_lock($1)',
    [SCHEMA_LOCK],
  );
  return client;
}

// The instances trust the proxy's address only (it connects from 127.0.0.1), as production names its load balancer.
const PROXY_ADDRESS = '127.0.0.1';

let ipCounter = 0;
/**
 * A loopback address of its own to connect from (all of 127.0.0.0/8 is this machine), so per-IP limits of one test
 * touch no other. The instances see it as the socket's address, or through the proxy, which appends it to
 * X-Forwarded-For: no test client names its own address in a header.
 */
const freshIp = () => {
  ipCounter += 1;
  return `127.${1 + ((process.pid >> 8) % 254)}.${process.pid & 255}.${ipCounter}`;
};

/** call() from the given local address (fetch cannot choose one), with a fresh connection each time. */
function callFrom<T = unknown>(
  localAddress: string,
  ...[baseUrl, method, url, options = {}]: Parameters<typeof call>
): Promise<ApiAnswer<T>> {
  const headers = requestHeaders(options);
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${baseUrl}/api${url}`,
      { method, headers, localAddress, agent: false },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // Not JSON: keep the text for the failure message.
          }
          resolve({ status: response.statusCode ?? 0, body: parsed as T });
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

// Each test says it was skipped (the count shows), rather than passing, when there is no database to run on.
const skip = databaseUrl ? false : 'needs TEST_DATABASE_URL (CI sets it)';

describe('two API instances on one PostgreSQL database', () => {
  const schema = `rel_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const dataDirs: string[] = [];
  let a: RunningApi;
  let b: RunningApi;
  let proxy: RoundRobinProxy;
  let totalRequests = 0;
  const counted = async <T>(answer: Promise<T>) => {
    totalRequests += 1;
    return answer;
  };

  before(async () => {
    if (skip) return;
    await ensureBuilt();
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    // The instances take the schema from the URL (libpq's options parameter), so DATABASE_URL is all they share.
    const url = new URL(databaseUrl!);
    url.searchParams.set('options', `-c search_path=${schema}`);
    const lock = await lockSession('shared');
    try {
      // Migrated here with the bookkeeping tables pinned to the schema; the instances then find nothing to do.
      const handle = createDatabase({ kind: 'postgres', url: databaseUrl!, schema });
      await migrateToLatest(handle.db, schema);
      await handle.db.destroy();
      const env = async () => {
        const dataDir = await mkdtemp(path.join(tmpdir(), 'time-wallet-two-'));
        dataDirs.push(dataDir);
        return {
          DATA_DIR: dataDir,
          DATABASE_URL: url.toString(),
          JWT_SECRET: 'reliability-two-instances-shared-secret-0123456789',
          RATE_LIMIT_STORE: 'database',
          TRUST_PROXY: PROXY_ADDRESS,
          AUTH_RATE_LIMIT_PER_MINUTE: String(AUTH_LIMIT_PER_IP),
        };
      };
      [a, b] = await Promise.all([startApi(await env(), 60_000), startApi(await env(), 60_000)]);
    } finally {
      await lock.end();
    }
    proxy = await startRoundRobinProxy([a.url, b.url]);
  });

  after(async () => {
    if (skip) return;
    await proxy?.close();
    for (const instance of [a, b]) {
      if (!instance) continue;
      instance.child.kill('SIGTERM');
      const { code } = await instance.exited;
      assert.equal(code, 0, instance.output());
    }
    const lock = await lockSession('exclusive');
    try {
      await lock.query(`drop schema ${schema} cascade`);
    } finally {
      await lock.end();
    }
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
    console.log(`two instances: ${totalRequests} requests, ${proxy?.counts.join(' + ')} through the proxy`);
  });

  /** Signs in through the proxy from an address of its own. */
  async function register(base: string) {
    const account = newAccount('two');
    const ip = freshIp();
    const registered = await counted(callFrom(ip, base, 'POST', '/auth/register/user', { body: account }));
    assert.equal(registered.status, 201, JSON.stringify(registered.body));
    return account;
  }

  async function login(
    base: string,
    username: string,
    password: string,
    ip = freshIp(),
    headers: Record<string, string> = {},
  ) {
    return counted(
      callFrom<{ token: string; message: string }>(ip, base, 'POST', '/auth/login', {
        body: { username, password },
        headers,
      }),
    );
  }

  test('a whole journey served alternately by both instances', { skip }, async () => {
    const rr = proxy.url;
    const before = [...proxy.counts];
    const account = await register(rr);
    const session = await login(rr, account.username, account.password);
    assert.equal(session.status, 200);
    const token = session.body.token;
    const req = <T>(base: string, method: string, url: string, body?: unknown) =>
      counted(call<T>(base, method, url, { token, body, headers: { 'x-time-zone': 'UTC' } }));

    for (const instance of [a, b]) assert.equal((await req(instance.url, 'GET', '/auth/me')).status, 200);

    const category = await req<{ _id: string }>(rr, 'POST', '/categories', { name: 'Deep work' });
    assert.equal(category.status, 201);
    const created: string[] = [];
    for (let hour = 8; hour < 14; hour += 1) {
      const task = await req<{ _id: string }>(rr, 'POST', '/tasks', {
        title: `Task at ${hour}`,
        categoryId: category.body._id,
        date: '2026-03-11',
        startHHMM: `${String(hour).padStart(2, '0')}:00`,
        endHHMM: `${String(hour).padStart(2, '0')}:45`,
      });
      assert.equal(task.status, 201);
      created.push(task.body._id);
    }
    // Each write is visible at once on both instances (the next request goes to the other one).
    for (const instance of [a, b, a, b]) {
      const list = await req<{ tasks: { _id: string }[] }>(instance.url, 'GET', '/tasks?date=2026-03-11');
      assert.deepEqual(list.body.tasks.map((task) => task._id).sort(), [...created].sort());
    }
    for (const [index, id] of created.slice(0, 4).entries()) {
      const done = await req<{ done: boolean }>(index % 2 ? a.url : b.url, 'PATCH', `/tasks/${id}`, {
        done: true,
      });
      assert.equal(done.status, 200);
    }
    assert.equal((await req(rr, 'DELETE', `/tasks/${created[5]}`)).status, 204);
    for (const instance of [a, b]) {
      const list = await req<{ tasks: { _id: string; done: boolean }[] }>(
        instance.url,
        'GET',
        '/tasks?date=2026-03-11',
      );
      assert.deepEqual(
        list.body.tasks.map((task) => [task._id, task.done]),
        created.slice(0, 5).map((id, index) => [id, index < 4]),
      );
      assert.equal((await req(instance.url, 'PATCH', `/tasks/${created[5]}`, { done: true })).status, 404);
    }

    const event = await req<{ _id: string }>(rr, 'POST', '/events', {
      title: 'Review',
      start: '2026-03-10T14:00:00.000Z',
      end: '2026-03-10T15:30:00.000Z',
    });
    assert.equal(event.status, 201);
    const renamed = await req(rr, 'PATCH', `/events/${event.body._id}`, { title: 'Weekly review' });
    assert.equal(renamed.status, 200);
    for (const instance of [a, b]) {
      const events = await req<{ _id: string; title: string }[]>(
        instance.url,
        'GET',
        '/events?from=2026-03-08&to=2026-03-15',
      );
      assert.deepEqual(
        events.body.map((item) => [item._id, item.title]),
        [[event.body._id, 'Weekly review']],
      );
    }

    const weekly = await Promise.all(
      [a, b].map((instance) => req(instance.url, 'GET', '/aggregation/analytics/weekly?date=2026-03-11')),
    );
    assert.equal(weekly[0]!.status, 200);
    assert.deepEqual(weekly[0]!.body, weekly[1]!.body, 'both instances compute the same week');
    const week = weekly[0]!.body as { byCategory: { name: string; minutes: number }[]; totalMinutes: number };
    // At least the four done tasks of 45 minutes (the week's own rules decide about the rest), and the review on
    // Tuesday, which has no category, as the "No category" share.
    const shares = Object.fromEntries(week.byCategory.map((share) => [share.name, share.minutes]));
    assert.deepEqual(Object.keys(shares).sort(), ['Deep work', 'No category'], JSON.stringify(week));
    assert.ok(shares['Deep work']! >= 4 * 45, JSON.stringify(week));
    assert.equal(shares['No category'], 90);
    assert.equal((await req(rr, 'POST', '/aggregation/analytics/weekly/update')).status, 200);
    assert.equal((await req(rr, 'POST', '/aggregation/analytics/weekly/update')).status, 200);

    // Signed out on A: the token is refused on B (and on A).
    assert.equal((await req(a.url, 'POST', '/auth/logout')).status, 204);
    assert.equal((await req(b.url, 'GET', '/auth/me')).status, 401);
    assert.equal((await req(a.url, 'GET', '/auth/me')).status, 401);
    assert.equal((await req(rr, 'GET', '/tasks/today')).status, 401);

    const served = proxy.counts.map((count, index) => count - before[index]!);
    assert.ok(Math.abs(served[0]! - served[1]!) <= 1 && served[0]! >= 6, `proxy spread: ${served.join('/')}`);
  });

  test('a password reset on A ends the sessions on B', { skip }, async () => {
    const account = await register(a.url);
    const onB = await login(b.url, account.username, account.password);
    const onA = await login(a.url, account.username, account.password);
    assert.equal(onB.status, 200);
    assert.equal(onA.status, 200);
    for (const token of [onA.body.token, onB.body.token]) {
      assert.equal((await counted(call(b.url, 'GET', '/auth/me', { token }))).status, 200);
    }

    const forgot = await counted(
      callFrom(freshIp(), a.url, 'POST', '/auth/forgot-password', { body: { email: account.email } }),
    );
    assert.equal(forgot.status, 202);
    // Instance A mails the link into its own outbox (no SMTP_URL).
    const outbox = path.join(dataDirs[0]!, 'outbox');
    let resetToken = '';
    await waitFor(
      () => {
        void readdir(outbox)
          .then(async (files) => {
            for (const file of files) {
              const mail = await readFile(path.join(outbox, file), 'utf8');
              if (!mail.includes(account.email)) continue;
              resetToken = /token=([A-Za-z0-9_-]+)/.exec(mail)?.[1] ?? '';
            }
          })
          .catch(() => undefined);
        return resetToken !== '';
      },
      15_000,
      'the reset mail in the outbox of A',
    );

    const newPassword = 'N3w-Passw0rd!';
    const reset = await counted(
      callFrom(freshIp(), a.url, 'POST', '/auth/reset-password', {
        body: { token: resetToken, password: newPassword },
      }),
    );
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    for (const token of [onA.body.token, onB.body.token]) {
      for (const instance of [b, a]) {
        assert.equal((await counted(call(instance.url, 'GET', '/auth/me', { token }))).status, 401);
      }
    }
    // The link is single-use on the other instance too.
    const again = await counted(
      callFrom(freshIp(), b.url, 'POST', '/auth/reset-password', {
        body: { token: resetToken, password: 'An0ther-Passw0rd!' },
      }),
    );
    assert.equal(again.status, 400);
    assert.equal((await login(b.url, account.username, account.password)).status, 401);
    assert.equal((await login(b.url, account.username, newPassword)).status, 200);
  });

  test('failed sign-ins of one account are counted across both instances', { skip }, async () => {
    const account = await register(b.url);
    // The count is per account and address: one address, alternating instances.
    const ip = freshIp();
    for (let attempt = 0; attempt < ACCOUNT_FAILURE_LIMIT; attempt += 1) {
      const instance = attempt % 2 ? b : a;
      const failed = await login(instance.url, account.username, 'Wr0ng-password!', ip);
      assert.equal(failed.status, 401, `attempt ${attempt + 1}`);
    }
    for (const instance of [b, a]) {
      const blocked = await login(instance.url, account.username, account.password, ip);
      assert.equal(blocked.status, 429);
      assert.match(blocked.body.message, /failed sign-in attempts for this account/);
    }
    // Another address still signs in: a stranger's guesses do not lock the owner out.
    assert.equal((await login(a.url, account.username, account.password)).status, 200);
  });

  test(
    'the per-IP sign-in limit counts requests to both instances together, forged headers or not',
    { skip },
    async () => {
      // The counters use fixed one-minute windows; a run that straddles a window boundary is repeated.
      for (let attempt = 1; ; attempt += 1) {
        const ip = freshIp();
        const window = Math.floor(Date.now() / 60_000);
        const statuses: number[] = [];
        for (let index = 0; index <= AUTH_LIMIT_PER_IP; index += 1) {
          const instance = index % 2 ? b : a;
          // No credentials: a 400 that costs no hashing, but it still counts against the address.
          const answer = await counted(
            callFrom(ip, instance.url, 'POST', '/auth/login', { body: { username: '', password: '' } }),
          );
          statuses.push(answer.status);
        }
        const other = await login(b.url, 'nobody', 'Passw0rd!', ip);
        statuses.push(other.status);
        // Through the proxy, an address the client writes into X-Forwarded-For is not the one counted.
        for (const forged of ['198.51.100.1', '198.51.100.2']) {
          const spoofed = await login(proxy.url, 'nobody', 'Passw0rd!', ip, { 'x-forwarded-for': forged });
          statuses.push(spoofed.status);
        }
        if (Math.floor(Date.now() / 60_000) !== window && attempt < 3) continue;
        assert.deepEqual(statuses, [...Array(AUTH_LIMIT_PER_IP).fill(400), 429, 429, 429, 429]);
        // Another address is not affected.
        assert.equal((await login(a.url, 'nobody', 'Passw0rd!')).status, 401);
        return;
      }
    },
  );
});
