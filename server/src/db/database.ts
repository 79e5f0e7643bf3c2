import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  CamelCasePlugin,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
  type SqliteDatabase as KyselySqliteDatabase,
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

export function createDatabase(config: DatabaseConfig): DatabaseHandle {
  if (config.kind === 'postgres') {
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: createPostgresPool(config) }),
      plugins: [new CamelCasePlugin()],
    });
    return { db, kind: 'postgres', ...(config.schema ? { schema: config.schema } : {}) };
  }
  mkdirSync(path.dirname(config.file), { recursive: true });
  const sqlite = new SqliteDatabase(config.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // NORMAL (default) survives a process crash; FULL also an OS crash or power loss (see SqliteSynchronous).
  sqlite.pragma(`synchronous = ${config.synchronous ?? 'NORMAL'}`);
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
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

export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
