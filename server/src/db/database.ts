import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  CamelCasePlugin,
  CompiledQuery,
  Kysely,
  LimitNode,
  Migrator,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  SelectQueryNode,
  sql,
  ValueNode,
  type DatabaseConnection,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type RootOperationNode,
  type QueryResult,
  type UnknownRow,
  type DialectAdapter,
  type Driver,
  type SqliteDatabase as KyselySqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';
import type pg from 'pg';
import {
  DATA_DIR_MODE,
  DEFAULT_POSTGRES_POOL,
  type DatabaseConfig,
  type PostgresPoolConfig,
} from '../config.js';
import { LruCache } from '../lib/lru-cache.js';
import { postgresClient } from '../lib/packages-loaded-on-use.js';
import * as initial from './migrations/0001-initial.js';
import * as eventsOverlapIndex from './migrations/0002-events-overlap-index.js';
import * as signInThrottle from './migrations/0003-sign-in-throttle.js';
import * as sessionActivity from './migrations/0004-session-activity.js';
import * as deletedRecords from './migrations/0005-deleted-records.js';
import * as taskDismissed from './migrations/0006-task-dismissed.js';
import * as timeLedger from './migrations/0007-time-ledger.js';
import * as series from './migrations/0009-series.js';
import * as icsImported from './migrations/0010-ics-imported.js';
import * as icsSplitOf from './migrations/0011-ics-split-of.js';
import * as deletedRecordsExpiry from './migrations/0012-deleted-records-expiry.js';
import * as calendars from './migrations/0013-calendars.js';
import * as timeEntries from './migrations/0014-time-entries.js';
import * as push from './migrations/0015-push.js';
import * as reminders from './migrations/0016-reminders.js';
import type { Database } from './schema.js';

export type DatabaseKind = DatabaseConfig['kind'];

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** The PostgreSQL schema the tables live in when it is not the default search path. */
  schema?: string;
}

/** Where the pool reports connections that die while idle (a database restart, a failover, a killed backend). */
export interface DatabaseLog {
  warn(details: object, message: string): void;
}

const INT8_OID = 20;

export interface DatabaseOptions {
  /** PostgreSQL only; DEFAULT_POSTGRES_POOL when absent. */
  pool?: PostgresPoolConfig;
  log?: DatabaseLog;
}

function createPostgresPool(
  config: Extract<DatabaseConfig, { kind: 'postgres' }>,
  options: DatabaseOptions & { statementTimeouts?: boolean; max?: number } = {},
): pg.Pool {
  const settings = options.pool ?? DEFAULT_POSTGRES_POOL;
  const { Pool, types } = postgresClient();
  const pool = new Pool({
    connectionString: config.url,
    max: options.max ?? settings.max,
    // Without it a request waits forever for a connection when all are busy or the server does not answer.
    connectionTimeoutMillis: settings.connectionTimeoutMs,
    // A runaway statement, or a transaction left open by a stuck request, must not hold a connection (and its locks).
    ...(options.statementTimeouts === false
      ? {}
      : {
          statement_timeout: settings.statementTimeoutMs,
          idle_in_transaction_session_timeout: settings.statementTimeoutMs,
        }),
    ...(config.schema ? { options: `-c search_path=${config.schema}` } : {}),
    // Instants are bigint milliseconds, well inside Number's exact range.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? (value: string) => Number(value)
          : types.getTypeParser(oid, format)) as typeof types.getTypeParser,
    },
  });
  // An idle connection that dies emits 'error' on the pool, and a connection checked out by a request emits it on the
  // client: unhandled, either would end the process. The pool drops the dead connection; the next request opens one.
  pool.on('error', (error) => {
    options.log?.warn({ err: error }, 'database connection lost while idle; the pool will open a new one');
  });
  pool.on('connect', (client) => {
    // The request using it gets the error itself (and answers 503); this only keeps the event from being fatal.
    client.on('error', () => undefined);
  });
  return pool;
}

export const STATEMENTS_KEPT = 500;

type Row = Record<string, unknown>;
type RowOf = (values: unknown[]) => Row;

/**
 * A function that makes a row object of fixed shape from a raw row, its keys in column order. better-sqlite3 builds
 * each row object property by property through V8's C++ API, and the CamelCase plugin then copies it key by key:
 * for a day of tasks (20 rows of 27 columns) the two cost about 3x reading the raw values. An object literal of known
 * keys is built at JS speed with one hidden class. The keys are column names, quoted by JSON.stringify.
 */
function rowMaker(keys: readonly string[]): RowOf {
  const fields = keys.map((key, index) => `${JSON.stringify(key)}: values[${index}]`).join(', ');
  return new Function('values', `return { ${fields} };`) as RowOf;
}

/**
 * A reading statement that returns raw rows and makes each object with rowMaker, keyed by `keyOf(column name)`.
 * SQLite prepares a statement again by itself when the schema changes, so a `select *` may come back with other
 * columns: the maker is rebuilt when the width of a row no longer matches it.
 */
function rawReader(statement: SqliteDatabase.Statement, keyOf: (column: string) => string) {
  statement.raw(true);
  let width = -1;
  let make: RowOf = () => ({});
  const maker = (row: unknown[]): RowOf => {
    if (row.length !== width) {
      make = rowMaker(statement.columns().map((column) => keyOf(column.name)));
      width = row.length;
    }
    return make;
  };
  return {
    reader: true,
    all(parameters: readonly unknown[]): Row[] {
      const rows = statement.all(parameters) as unknown[][];
      if (rows.length === 0) return [];
      const make = maker(rows[0]);
      return rows.map((row) => make(row));
    },
    *iterate(parameters: readonly unknown[]): IterableIterator<Row> {
      for (const row of statement.iterate(parameters) as IterableIterator<unknown[]>) yield maker(row)(row);
    },
    run: (parameters: readonly unknown[]) => statement.run(parameters),
  };
}

/**
 * Kysely prepares every query anew, which costs as much as running a small one. A better-sqlite3 statement runs again
 * with new parameters, so the same SQL text reuses its statement. Kysely runs one query at a time on its single SQLite
 * connection (a stream or a transaction holds it), so a shared statement is never busy. Multi-row inserts and IN
 * lists vary in length: past the bound the least recently used statement is dropped, and the hot ones stay.
 * A reading statement's rows are keyed by `keyOf` of each column (see rawReader).
 */
export function withStatementCache(
  sqlite: Pick<SqliteDatabase.Database, 'close' | 'prepare'>,
  keyOf: (column: string) => string = (column) => column,
): KyselySqliteDatabase {
  type Cached = ReturnType<KyselySqliteDatabase['prepare']>;
  const statements = new LruCache<string, Cached>(STATEMENTS_KEPT);
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) {
        const prepared = sqlite.prepare(text);
        statement = prepared.reader ? rawReader(prepared, keyOf) : prepared;
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

/**
 * SQLite's planner reads the value bound to a LIMIT, so it prepares such a statement again each time the value is
 * bound, and better-sqlite3 binds on every run: with a `limit ?`, GET /tasks/today's read of the day's tasks cost 1.7
 * times as much, the sign-in's one-row read 3.7 times (BENCHMARKS.md, day reads). A number given to `limit()` is
 * written into the SQL instead; a limit that is an argument of compiledOnce is a stand-in object when compiled, and
 * stays a parameter.
 */
function withLiteralLimit(node: RootOperationNode): RootOperationNode {
  if (!SelectQueryNode.is(node) || !node.limit || !ValueNode.is(node.limit.limit)) return node;
  const { value } = node.limit.limit;
  if (!Number.isSafeInteger(value)) return node;
  return { ...node, limit: LimitNode.create(ValueNode.createImmediate(value)) };
}

/**
 * The CamelCase plugin for SQLite, whose statements already key their rows by the plugin's own camelCase (see
 * withStatementCache): queries are still rewritten to snake_case (with their limits written in, see
 * withLiteralLimit), results are passed through as they come.
 */
class SqliteCamelCasePlugin extends CamelCasePlugin {
  readonly keyOf = (column: string) => this.camelCase(column);

  override transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return withLiteralLimit(super.transformQuery(args));
  }

  override async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

/**
 * Kysely opens SQLite transactions with a deferred BEGIN: one that reads and then writes fails at once with
 * SQLITE_BUSY when another process wrote in between. BEGIN IMMEDIATE takes the write lock first, waiting for the other
 * process through busy_timeout.
 */
class ImmediateTransactionsDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/**
 * Kysely's migrator takes no lock on SQLite and, believing SQLite's DDL not transactional, runs migrations outside a
 * transaction: two processes starting on one fresh file both see no migration done and both run them. SQLite's DDL is
 * transactional, so here the migrator wraps its run in a transaction, which begins IMMEDIATE: the second process waits
 * for the first to commit, then finds the migrations recorded and runs none (and a failed migration rolls back).
 */
class TransactionalDdlAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class SqliteImmediateDialect extends SqliteDialect {
  readonly #settings: SqliteDialectConfig;

  constructor(settings: SqliteDialectConfig) {
    super(settings);
    this.#settings = settings;
  }

  override createDriver(): Driver {
    return new ImmediateTransactionsDriver(this.#settings);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlAdapter();
  }
}

/**
 * The database holds password hashes, session ids and every account's data: its owner's only, as the JWT secret.
 * SQLite creates its files 0644 but gives the -wal and -shm files the database file's mode, so the file is created
 * 0600 before SQLite opens it. One an earlier version left readable to others is tightened, unless another user owns
 * it (an operator's arrangement). An existing file is touched by its path only: closing a descriptor of a file that
 * SQLite has open in this process would drop SQLite's locks on it.
 */
function keepOwnerOnly(file: string): void {
  if (file === '' || file === ':memory:') return;
  mkdirSync(path.dirname(file), { recursive: true, mode: DATA_DIR_MODE });
  try {
    closeSync(openSync(file, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  for (const own of [file, `${file}-wal`, `${file}-shm`]) {
    const status = statSync(own, { throwIfNoEntry: false });
    if (status && (status.mode & 0o077) !== 0 && status.uid === process.getuid?.()) {
      chmodSync(own, status.mode & 0o700);
    }
  }
}

/**
 * Switching a file to WAL reads its header under a shared lock, then upgrades. When another process holds the write
 * lock (its own switch, or a migration on a file still in rollback mode), SQLite answers SQLITE_BUSY at once instead of
 * calling the busy handler: waiting while holding the shared lock could deadlock. Nothing is held between two tries,
 * so the switch is retried here, with growing pauses, until the busy timeout has passed. Start-up is synchronous, so
 * the pause blocks the thread; no request is served yet.
 */
function switchToWal(sqlite: SqliteDatabase.Database, busyTimeoutMs: number): void {
  const deadline = Date.now() + busyTimeoutMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waitMs = 1; ; waitMs = Math.min(waitMs * 2, 50)) {
    try {
      sqlite.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      const busy = String((error as { code?: unknown }).code).startsWith('SQLITE_BUSY');
      if (!busy || Date.now() >= deadline) throw error;
      Atomics.wait(pause, 0, 0, waitMs);
    }
  }
}

function openSqlite(
  config: Extract<DatabaseConfig, { kind: 'sqlite' }>,
  busyTimeoutMs: number,
): SqliteDatabase.Database {
  keepOwnerOnly(config.file);
  // better-sqlite3's timeout is SQLite's busy_timeout, set before the first statement so even the WAL switch waits.
  const sqlite = new SqliteDatabase(config.file, { timeout: busyTimeoutMs });
  switchToWal(sqlite, busyTimeoutMs);
  sqlite.pragma('foreign_keys = ON');
  // NORMAL (default) survives a process crash; FULL also an OS crash or power loss (see SqliteSynchronous).
  sqlite.pragma(`synchronous = ${config.synchronous ?? 'NORMAL'}`);
  return sqlite;
}

export function createDatabase(config: DatabaseConfig, options: DatabaseOptions = {}): DatabaseHandle {
  if (config.kind === 'postgres') {
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: createPostgresPool(config, options) }),
      plugins: [new CamelCasePlugin()],
    });
    return { db, kind: 'postgres', ...(config.schema ? { schema: config.schema } : {}) };
  }
  const sqlite = openSqlite(config, 5000);
  const camelCase = new SqliteCamelCasePlugin();
  const db = new Kysely<Database>({
    dialect: new SqliteImmediateDialect({ database: withStatementCache(sqlite, camelCase.keyOf) }),
    plugins: [camelCase],
  });
  return { db, kind: 'sqlite' };
}

export const migrations = {
  '0001-initial': initial,
  '0002-events-overlap-index': eventsOverlapIndex,
  '0003-sign-in-throttle': signInThrottle,
  '0004-session-activity': sessionActivity,
  '0005-deleted-records': deletedRecords,
  '0006-task-dismissed': taskDismissed,
  '0007-time-ledger': timeLedger,
  '0009-series': series,
  '0010-ics-imported': icsImported,
  '0011-ics-split-of': icsSplitOf,
  '0012-deleted-records-expiry': deletedRecordsExpiry,
  '0013-calendars': calendars,
  '0014-time-entries': timeEntries,
  '0015-push': push,
  '0016-reminders': reminders,
};

export async function migrateToLatest(db: Kysely<Database>, schema?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // The bookkeeping tables must be looked up in the same schema, not in whichever schema has a table of that name.
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
}

/** How long a starting process waits for another one's migrations on the same SQLite file. */
const SQLITE_MIGRATION_WAIT_MS = 120_000;

/**
 * Runs the migrations on a connection of their own, closed afterwards. Processes starting together take turns: on
 * SQLite the migration transaction begins IMMEDIATE and waits up to 2 minutes for another process's (see
 * TransactionalDdlAdapter); on PostgreSQL, Kysely's migrator holds an advisory lock for the same purpose.
 * The request limits (statement_timeout) do not apply: a migration, or waiting for another's, may take longer.
 */
export async function migrateDatabase(config: DatabaseConfig, options: DatabaseOptions = {}): Promise<void> {
  const db =
    config.kind === 'postgres'
      ? new Kysely<Database>({
          dialect: new PostgresDialect({
            pool: createPostgresPool(config, { ...options, statementTimeouts: false, max: 1 }),
          }),
        })
      : new Kysely<Database>({
          dialect: new SqliteImmediateDialect({ database: openSqlite(config, SQLITE_MIGRATION_WAIT_MS) }),
        });
  try {
    // Without a schema named in the config, the tables go where the connection's search_path puts them (a URL may set
    // it): the migrator is told that schema too, or it would take another schema's bookkeeping tables for its own.
    const schema =
      config.kind !== 'postgres'
        ? undefined
        : (config.schema ??
          (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema);
    await migrateToLatest(db, schema);
  } finally {
    await db.destroy();
  }
}

const UNAVAILABLE_CODES = new Set([
  // PostgreSQL: the server is shutting down, restarting or refusing connections (class 57P), out of connections,
  // statement_timeout or a cancel (57014), idle_in_transaction_session_timeout (25P03), lock_timeout (55P03).
  '57P01',
  '57P02',
  '57P03',
  '57014',
  '53300',
  '25P03',
  '55P03',
  // The socket: refused, reset or unreachable.
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  // SQLite: the file stayed locked by another process past busy_timeout.
  'SQLITE_BUSY',
  'SQLITE_BUSY_SNAPSHOT',
]);

// pg and pg-pool raise these without a code.
const UNAVAILABLE_MESSAGES = [
  /^timeout exceeded when trying to connect$/,
  /^Connection terminated/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
];

/**
 * True when a query failed because the database is unreachable, too slow or out of connections rather than
 * because of the query: the request answers 503 and may be retried. The cause chain is followed a few levels.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
    const { message } = current;
    if (UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
    current = current.cause;
  }
  return false;
}

export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
