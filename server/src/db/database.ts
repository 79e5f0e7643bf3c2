import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  CamelCasePlugin,
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type SqliteDatabase as KyselySqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import * as initial from './migrations/0001-initial.js';
import * as eventsOverlapIndex from './migrations/0002-events-overlap-index.js';
import * as sessionActivity from './migrations/0004-session-activity.js';
import type { Database } from './schema.js';

export type DatabaseKind = DatabaseConfig['kind'];

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** The PostgreSQL schema the tables live in when it is not the default search path. */
  schema?: string;
}

const INT8_OID = 20;

function createPostgresPool(config: Extract<DatabaseConfig, { kind: 'postgres' }>): pg.Pool {
  return new pg.Pool({
    connectionString: config.url,
    max: 10,
    ...(config.schema ? { options: `-c search_path=${config.schema}` } : {}),
    // Instants are bigint milliseconds, well inside Number's exact range.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
}

const STATEMENTS_KEPT = 500;

/**
 * Kysely prepares every query anew, which costs as much as running a small one. A better-sqlite3 statement runs again
 * with new parameters, so the same SQL text reuses its statement. Kysely runs one query at a time on its single SQLite
 * connection (a stream or a transaction holds it), so a shared statement is never busy. Multi-row inserts and IN
 * lists vary in length: the cache is bounded by clearing it when full.
 */
export function withStatementCache(sqlite: SqliteDatabase.Database): KyselySqliteDatabase {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) {
        statement = sqlite.prepare(text);
        if (statements.size >= STATEMENTS_KEPT) statements.clear();
        statements.set(text, statement);
      }
      return statement;
    },
  };
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

function openSqlite(
  config: Extract<DatabaseConfig, { kind: 'sqlite' }>,
  busyTimeoutMs: number,
): SqliteDatabase.Database {
  mkdirSync(path.dirname(config.file), { recursive: true });
  // better-sqlite3's timeout is SQLite's busy_timeout, set before the first statement so even the WAL switch waits.
  const sqlite = new SqliteDatabase(config.file, { timeout: busyTimeoutMs });
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  // NORMAL (default) survives a process crash; FULL also an OS crash or power loss (see SqliteSynchronous).
  sqlite.pragma(`synchronous = ${config.synchronous ?? 'NORMAL'}`);
  return sqlite;
}

export function createDatabase(config: DatabaseConfig): DatabaseHandle {
  if (config.kind === 'postgres') {
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: createPostgresPool(config) }),
      plugins: [new CamelCasePlugin()],
    });
    return { db, kind: 'postgres', ...(config.schema ? { schema: config.schema } : {}) };
  }
  const sqlite = openSqlite(config, 5000);
  const db = new Kysely<Database>({
    dialect: new SqliteImmediateDialect({ database: withStatementCache(sqlite) }),
    plugins: [new CamelCasePlugin()],
  });
  return { db, kind: 'sqlite' };
}

export const migrations = {
  '0001-initial': initial,
  '0002-events-overlap-index': eventsOverlapIndex,
  '0004-session-activity': sessionActivity,
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
 */
export async function migrateDatabase(config: DatabaseConfig): Promise<void> {
  const db =
    config.kind === 'postgres'
      ? new Kysely<Database>({
          dialect: new PostgresDialect({ pool: createPostgresPool(config) }),
        })
      : new Kysely<Database>({
          dialect: new SqliteImmediateDialect({ database: openSqlite(config, SQLITE_MIGRATION_WAIT_MS) }),
        });
  try {
    await migrateToLatest(db, config.kind === 'postgres' ? config.schema : undefined);
  } finally {
    await db.destroy();
  }
}

export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
