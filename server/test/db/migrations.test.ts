import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { Migrator, type Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.js';
import { SINGLE_ITEM } from '../../src/services/series.js';
import { createDatabase, migrateDatabase, migrateToLatest, migrations } from '../../src/db/database.js';
import { freshDatabase, isPostgresRun, withSchemaLock } from '../helpers.js';

/**
 * A database migrated up to `before`, holding one user with one task and one event as rows of that time; then migrated
 * to the latest, `check` reads them. Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
 */
async function afterMigrating(
  before: string,
  check: (db: Kysely<Database>) => Promise<void>,
  /** More rows of that time, written after the one user, task and event. */
  prepare?: (db: Kysely<Database>) => Promise<void>,
): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'time-wallet-migration-'));
  const { database, drop } = await freshDatabase(dataDir);
  const { db, schema } = createDatabase(database);
  try {
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => migrations },
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    const { error } = await withSchemaLock('shared', () => migrator.migrateTo(before));
    assert.equal(error, undefined);
    const at = Date.parse('2026-03-11T09:00:00Z');
    await db
      .insertInto('users')
      .values({
        id: 'u1',
        username: 'keeper',
        usernameKey: 'keeper',
        email: 'k@x.io',
        emailKey: 'k@x.io',
        passwordHash: 'h',
        name: 'Keeper',
        profilePicture: '',
        budgetHours: 8,
        timeZone: 'UTC',
        createdAt: 1,
        updatedAt: 1,
      })
      .execute();
    await db
      .insertInto('tasks')
      .values({
        id: 't1',
        userId: 'u1',
        title: 'Old task',
        categoryId: null,
        startHhmm: '09:00',
        endHhmm: '10:00',
        notes: '',
        date: '2026-03-11',
        startAt: at,
        endAt: at + 3_600_000,
        done: 1,
        isEvent: 0,
        isReminder: 0,
        carryover: 0,
        createdAt: 1,
        updatedAt: 1,
      })
      .execute();
    await db
      .insertInto('events')
      .values({
        id: 'e1',
        userId: 'u1',
        title: 'Old event',
        startAt: at,
        endAt: at + 1_800_000,
        allDay: 0,
        source: 'manual',
        icsKey: null,
        createdAt: 1,
        updatedAt: 1,
      } as never)
      .execute();
    await prepare?.(db);

    await withSchemaLock('shared', () => migrateToLatest(db, schema));
    await check(db);
  } finally {
    await db.destroy();
    await drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

test('migration 0007-time-ledger keeps existing rows meaning what they meant', () =>
  afterMigrating('0006-task-dismissed', async (db) => {
    assert.deepEqual(
      await db
        .selectFrom('tasks')
        .select(['scheduled', 'estimateMinutes', 'trackedMinutes', 'timerAutoStopped', 'done'])
        .executeTakeFirstOrThrow(),
      { scheduled: 1, estimateMinutes: null, trackedMinutes: 0, timerAutoStopped: 0, done: 1 },
    );
    assert.deepEqual(await db.selectFrom('events').select(['categoryId']).executeTakeFirstOrThrow(), {
      categoryId: null,
    });
    assert.deepEqual(
      await db
        .selectFrom('users')
        .select(['budgetHours', 'budgetHoursByWeekday', 'timerTaskId', 'timerStartedAt'])
        .executeTakeFirstOrThrow(),
      { budgetHours: 8, budgetHoursByWeekday: null, timerTaskId: null, timerStartedAt: null },
    );
  }));

test('migration 0009-series keeps existing tasks and events single items', () =>
  afterMigrating('0007-time-ledger', async (db) => {
    const columns = Object.keys(SINGLE_ITEM) as (keyof typeof SINGLE_ITEM)[];
    assert.deepEqual(await db.selectFrom('tasks').select(columns).executeTakeFirstOrThrow(), SINGLE_ITEM);
    assert.deepEqual(await db.selectFrom('events').select(columns).executeTakeFirstOrThrow(), SINGLE_ITEM);
  }));

test("migration 0013-calendars puts existing events in their owner's own calendar", () =>
  afterMigrating('0012-deleted-records-expiry', async (db) => {
    const event = await db.selectFrom('events').select(['id', 'calendarId']).executeTakeFirstOrThrow();
    assert.deepEqual(event, { id: 'e1', calendarId: 'u1' });
    const own = await db.selectFrom('calendars').select(['id', 'userId', 'kind']).execute();
    assert.deepEqual(own, [{ id: 'u1', userId: 'u1', kind: 'own' }]);
  }));

test('a schema chosen by the URL (search_path) is migrated even when another schema has the bookkeeping tables', async (t) => {
  if (!isPostgresRun) return t.skip('PostgreSQL only');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'time-wallet-migration-'));
  // One schema migrated the usual way: it holds kysely_migration and kysely_migration_lock.
  const other = await freshDatabase(dataDir);
  const target = await freshDatabase(dataDir);
  try {
    await withSchemaLock('shared', () => migrateDatabase(other.database));
    if (target.database.kind !== 'postgres') throw new Error('PostgreSQL only');
    const url = new URL(target.database.url);
    url.searchParams.set('options', `-c search_path=${target.database.schema}`);
    await withSchemaLock('shared', () => migrateDatabase({ kind: 'postgres', url: url.toString() }));
    const { db } = createDatabase(target.database);
    try {
      assert.deepEqual(await db.selectFrom('calendars').select('id').execute(), []);
    } finally {
      await db.destroy();
    }
  } finally {
    await other.drop();
    await target.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('migration 0014-time-entries turns tracked minutes into entries, laid apart, and a running timer into an open one', () =>
  afterMigrating(
    '0013-calendars',
    async (db) => {
      const at = Date.parse('2026-03-11T09:00:00Z');
      const entries = await db
        .selectFrom('timeEntries')
        .select(['taskId', 'startAt', 'endAt', 'source'])
        .orderBy('startAt')
        .execute();
      assert.deepEqual(entries, [
        // From the task's start; the second task's hour starts where the first one's 40 minutes end.
        { taskId: 't1', startAt: at, endAt: at + 40 * 60_000, source: 'manual' },
        { taskId: 't2', startAt: at + 40 * 60_000, endAt: at + 100 * 60_000, source: 'manual' },
        { taskId: 't2', startAt: at + 3 * 3_600_000, endAt: null, source: 'timer' },
      ]);
      const tasks = await db.selectFrom('tasks').select(['id', 'trackedMinutes']).orderBy('id').execute();
      assert.deepEqual(tasks, [
        { id: 't1', trackedMinutes: 40 },
        { id: 't2', trackedMinutes: 60 },
      ]);
      assert.deepEqual(await db.selectFrom('budgetPeriods').selectAll().execute(), []);
    },
    async (db) => {
      const at = Date.parse('2026-03-11T09:00:00Z');
      await db.updateTable('tasks').set({ trackedMinutes: 40 }).where('id', '=', 't1').execute();
      const second = await db
        .selectFrom('tasks')
        .selectAll()
        .where('id', '=', 't1')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('tasks')
        .values({
          ...second,
          id: 't2',
          startAt: at + 30 * 60_000,
          endAt: at + 90 * 60_000,
          trackedMinutes: 60,
        })
        .execute();
      await db
        .updateTable('users')
        .set({ timerTaskId: 't2', timerStartedAt: at + 3 * 3_600_000 })
        .where('id', '=', 'u1')
        .execute();
    },
  ));
