import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { sql } from 'kysely';
import { buildApp, type BuildAppOptions } from '../src/app.js';
import { migrateDatabase, migrations } from '../src/db/database.js';
import { jobSchemaOf } from '../src/plugins/app/jobs.js';
import type { AppConfig, DatabaseConfig, RateLimitConfig } from '../src/config.js';
import type { ImportSummary } from '../src/services/ics-import.js';
import { rememberingSchemaCompilers } from './support/schema-compilers.js';

/** Tests hash passwords at scrypt N=2^10 instead of OWASP's 2^17 so the suite stays fast; production never lowers it. */
export const TEST_PASSWORD_HASH_COST = 10;

export const DEFAULT_NOW = Date.parse('2026-03-11T15:00:00.000Z');

export const isPostgresRun = Boolean(process.env.TEST_DATABASE_URL);

// Kysely's migrator introspects every schema in the database, and a schema another test file drops at that moment
// makes it fail ("schema ... does not exist"). Migrations hold this advisory lock shared, drops hold it exclusively.
const SCHEMA_LOCK = 0x7717_2026;

/** One connection to `url` for `run`, ended afterwards (which releases any advisory lock it took). */
async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export async function withSchemaLock<T>(mode: 'shared' | 'exclusive', run: () => Promise<T>): Promise<T> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return run();
  return withClient(url, async (client) => {
    await client.query(
      mode === 'shared' ? 'select pg_advisory_lock_shared($1)' : 'select pg_advisory_lock($1)',
      [SCHEMA_LOCK],
    );
    return run();
  });
}

export async function freshDatabase(
  dataDir: string,
): Promise<{ database: DatabaseConfig; drop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url)
    return { database: { kind: 'sqlite', file: path.join(dataDir, 'test.sqlite') }, drop: async () => {} };
  const schema = `test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await withClient(url, (client) => client.query(`create schema ${schema}`));
  return {
    database: { kind: 'postgres', url, schema },
    drop: () =>
      withSchemaLock('exclusive', () =>
        withClient(url, async (dropper) => {
          await dropper.query(`drop schema ${schema} cascade`);
          // The background jobs' schema beside it (plugins/app/jobs.ts), made when the app ran jobs.
          await dropper.query(
            `drop schema if exists ${jobSchemaOf({ kind: 'postgres', url, schema })} cascade`,
          );
        }),
      ),
  };
}

// An app's own PostgreSQL database is a copy of a template that holds the migrated schema: copying takes about 25 ms
// where the migrations took 250, once for each of the suite's hundreds of apps. The template's name carries a hash of
// the migrations' code, so a changed migration makes a new template instead of reusing a stale one.
const TEMPLATE_LOCK = 0x7717_2027;
const APP_SCHEMA = 'time_wallet';

const templateName = `time_wallet_template_${createHash('sha256')
  .update(
    Object.entries(migrations)
      .map(([name, { up }]) => `${name}\n${String(up)}`)
      .join('\n'),
  )
  .digest('hex')
  .slice(0, 16)}`;

function databaseUrl(url: string, database: string): string {
  const named = new URL(url);
  named.pathname = `/${database}`;
  return named.toString();
}

let template: Promise<string> | undefined;
/** The template's name, made (under a lock, as other test processes may ask at once) when this cluster has none yet. */
function migratedTemplate(url: string): Promise<string> {
  template ??= withClient(url, async (client) => {
    await client.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    const exists = async (name: string) =>
      (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    if (await exists(templateName)) return templateName;
    const making = `${templateName}_new`;
    if (await exists(making)) await client.query(`drop database ${making} with (force)`);
    await client.query(`create database ${making}`);
    await withClient(databaseUrl(url, making), (own) => own.query(`create schema ${APP_SCHEMA}`));
    await migrateDatabase({ kind: 'postgres', url: databaseUrl(url, making), schema: APP_SCHEMA });
    // Made under another name and renamed once complete, so a run killed halfway leaves no half-made template.
    await client.query(`alter database ${making} rename to ${templateName}`);
    return templateName;
  });
  return template;
}

/** A database of its own for one test app, copied from the migrated template, and how to drop it. */
async function migratedDatabase(): Promise<{ database: DatabaseConfig; drop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL!;
  const source = await migratedTemplate(url);
  const name = `time_wallet_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await withClient(url, async (client) => {
    const version = Number((await client.query('show server_version_num')).rows[0].server_version_num);
    // PostgreSQL 15 copies block by block through the WAL by default; a copy of the files is ten times faster here.
    await client.query(
      `create database ${name} template ${source}${version >= 150_000 ? ' strategy file_copy' : ''}`,
    );
  });
  return {
    database: { kind: 'postgres', url: databaseUrl(url, name), schema: APP_SCHEMA },
    drop: () =>
      withClient(url, (client) => client.query(`drop database if exists ${name} with (force)`)).then(
        () => {},
      ),
  };
}

/** The test apps' own databases and how many apps still use each: dropped once the last of them has closed. */
const openDatabases = new Map<string, { apps: number; drop: () => Promise<void> }>();

/**
 * Every app's clean-up not yet run. Node 20's `after()` called inside a running test (after an await) attaches the
 * hook to no test that runs it, so apps built there were never closed and left their directories and databases. The
 * hook registered here, while this module loads at the top of a test file, runs when the file's tests are done and
 * cleans up whatever is left; an app's own hook, where it runs, does so sooner. Each clean-up runs once.
 */
const pendingCleanups = new Set<() => Promise<void>>();
after(async () => {
  for (const cleanup of [...pendingCleanups]) await cleanup();
});

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
    /** The app's schema compilers and when they run (buildApp's options); by default the suite's shared ones. */
    schemas?: Pick<BuildAppOptions, 'schemaCompilers' | 'compileSchemasAtStart'>;
  } = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'time-wallet-test-'));
  // An app on another app's database (`config.database`, as several instances share one) makes none of its own.
  const given = options.config?.database;
  const own = given ? undefined : isPostgresRun ? await migratedDatabase() : await freshDatabase(dataDir);
  const database = given ?? own!.database;
  const key = JSON.stringify(database);
  const users = openDatabases.get(key) ?? (own ? { apps: 0, drop: own.drop } : undefined);
  if (users) openDatabases.set(key, { ...users, apps: users.apps + 1 });
  const built: { app?: FastifyInstance } = {};
  // Registered before the app is built, so a failed start still removes its database.
  const cleanup = async () => {
    if (!pendingCleanups.delete(cleanup)) return;
    try {
      await built.app?.close();
    } finally {
      const left = openDatabases.get(key);
      if (left && left.apps > 1) openDatabases.set(key, { ...left, apps: left.apps - 1 });
      else if (left) {
        openDatabases.delete(key);
        await left.drop();
      }
      await rm(dataDir, { recursive: true, force: true });
    }
  };
  pendingCleanups.add(cleanup);
  after(cleanup);
  const clock = { now: options.now ?? DEFAULT_NOW };
  // Its migrations find every one already run (the template's); on SQLite they make the file's tables.
  const app = await buildApp({
    schemaCompilers: rememberingSchemaCompilers,
    ...options.schemas,
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
  });
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
