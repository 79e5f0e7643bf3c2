import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { jobSchemaOf } from '../src/plugins/app/jobs.js';
import type { AppConfig, DatabaseConfig, RateLimitConfig } from '../src/config.js';
import type { ImportSummary } from '../src/services/ics-import.js';

/** Tests hash passwords at scrypt N=2^10 instead of OWASP's 2^17 so the suite stays fast; production never lowers it. */
export const TEST_PASSWORD_HASH_COST = 10;

export const DEFAULT_NOW = Date.parse('2026-03-11T15:00:00.000Z');

export const isPostgresRun = Boolean(process.env.TEST_DATABASE_URL);

// Kysely's migrator introspects every schema in the database, and a schema another test file drops at that moment
// makes it fail ("schema ... does not exist"). Migrations hold this advisory lock shared, drops hold it exclusively.
const SCHEMA_LOCK = 0x7717_2026;

export async function withSchemaLock<T>(mode: 'shared' | 'exclusive', run: () => Promise<T>): Promise<T> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return run();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      mode === 'shared' ? 'select pg_advisory_lock_shared($1)' : 'select pg_advisory_lock($1)',
      [SCHEMA_LOCK],
    );
    return await run();
  } finally {
    // Ending the session releases the lock.
    await client.end();
  }
}

export async function freshDatabase(
  dataDir: string,
): Promise<{ database: DatabaseConfig; drop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url)
    return { database: { kind: 'sqlite', file: path.join(dataDir, 'test.sqlite') }, drop: async () => {} };
  const schema = `test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
  return {
    database: { kind: 'postgres', url, schema },
    drop: () =>
      withSchemaLock('exclusive', async () => {
        const dropper = new pg.Client({ connectionString: url });
        await dropper.connect();
        await dropper.query(`drop schema ${schema} cascade`);
        // The background jobs' schema beside it (plugins/app/jobs.ts), made when the app ran jobs.
        await dropper.query(
          `drop schema if exists ${jobSchemaOf({ kind: 'postgres', url, schema })} cascade`,
        );
        await dropper.end();
      }),
  };
}

export interface TestApp {
  app: FastifyInstance;
  dataDir: string;
  clock: { now: number };
}

/** A fresh app on a fresh database in a temporary directory, closed and removed when the test file ends. */
export async function buildTestApp(
  options: {
    now?: number;
    config?: Partial<Omit<AppConfig, 'rateLimit'>>;
    rateLimit?: Partial<RateLimitConfig>;
    logStream?: { write(line: string): void };
    env?: NodeJS.ProcessEnv;
  } = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'time-wallet-test-'));
  const { database, drop } = await freshDatabase(dataDir);
  const built: { app?: FastifyInstance } = {};
  // Registered before the app is built, so a failed start still removes its database.
  after(async () => {
    await built.app?.close();
    await drop();
    await rm(dataDir, { recursive: true, force: true });
  });
  const clock = { now: options.now ?? DEFAULT_NOW };
  const app = await withSchemaLock('shared', () =>
    buildApp({
      env: options.env ?? {},
      ...(options.logStream ? { logStream: options.logStream } : { logger: false }),
      now: () => clock.now,
      config: {
        dataDir,
        database,
        jwtSecret: 'test-secret-that-is-long-enough-for-hs256-0123456789',
        passwordHashCost: TEST_PASSWORD_HASH_COST,
        // Background jobs only where a test asks for them: the others stay fast and see no job of another app.
        jobs: { enabled: false, tickSeconds: 60 },
        ...options.config,
        rateLimit: {
          globalPerMinute: 10_000,
          authPerMinute: 1_000,
          healthPerMinute: 10_000,
          loginFailuresPerAccount: 5,
          loginFailureWindowMs: 15 * 60_000,
          store: 'memory',
          ...options.rateLimit,
        },
      },
    }),
  );
  built.app = app;
  return { app, dataDir, clock };
}

type InjectMethod = NonNullable<InjectOptions['method']>;
type InjectPayload = InjectOptions['payload'];

let userCounter = 0;

export interface SignedInUser {
  token: string;
  user: {
    id: string;
    _id: string;
    username: string;
    email: string;
    name: string;
    budgetHours: number;
    timeZone: string;
  };
  password: string;
  headers: Record<string, string>;
}

export async function signUp(
  app: FastifyInstance,
  options: { timeZone?: string; username?: string } = {},
): Promise<SignedInUser> {
  userCounter += 1;
  const username = options.username ?? `walletUser${userCounter}`;
  const password = 'Passw0rd!';
  const zoneHeader: Record<string, string> = options.timeZone ? { 'x-time-zone': options.timeZone } : {};
  const registration = await app.inject({
    method: 'POST',
    url: '/api/auth/register/user',
    headers: zoneHeader,
    payload: { username, email: `${username.toLowerCase()}@example.com`, password, name: 'Wallet Owner' },
  });
  if (registration.statusCode !== 201) throw new Error(`registration failed: ${registration.body}`);
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  const { token, user } = login.json();
  return { token, user, password, headers: { authorization: `Bearer ${token}`, ...zoneHeader } };
}

/**
 * POST /events/import's whole answer, for a deepEqual: nothing created, skipped or reported unless `fields` says so
 * (`updated` is always 0). One place for the answer's shape, so a new field is added once.
 */
export function importAnswer(fields: Partial<ImportSummary> = {}): ImportSummary {
  return {
    created: 0,
    updated: 0,
    skipped: 0,
    duplicates: 0,
    skippedEvents: [],
    importedOnce: [],
    ...fields,
  };
}

/** One JSON request with the given headers (a signed-in user's, usually): `send(app, headers, 'PATCH', url, body)`. */
export function send(
  app: FastifyInstance,
  headers: Record<string, string> | undefined,
  method: InjectMethod,
  url: string,
  payload?: InjectPayload,
) {
  return app.inject({ method, url, headers, payload });
}

/**
 * Makes the database refuse a write, as a full disk or a broken constraint would, so a test can check that a change of
 * several rows is one transaction: `on` is the trigger's event (`insert`, `update of start_at`), `when` a condition on
 * NEW. Answers a function that lets such writes through again.
 */
export async function injectFailure(
  app: FastifyInstance,
  { table, on, when }: { table: string; on: string; when?: string },
): Promise<() => Promise<void>> {
  await sql
    .raw(
      isPostgresRun
        ? `create or replace function injected_failure() returns trigger language plpgsql as $$ begin
             raise exception 'injected failure'; end $$;
           create trigger injected_failure before ${on} on ${table}
             for each row ${when ? `when (${when})` : ''} execute function injected_failure();`
        : `create trigger injected_failure before ${on} on ${table} ${when ? `when ${when}` : ''}
           begin select raise(abort, 'injected failure'); end`,
    )
    .execute(app.db);
  return async () => {
    await sql.raw(`drop trigger injected_failure${isPostgresRun ? ` on ${table}` : ''}`).execute(app.db);
  };
}
