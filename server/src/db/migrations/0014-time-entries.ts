import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

// Tracked time becomes intervals on the timeline (time_entries) instead of a number on a task, and a budget change
// stops rewriting the past (budget_periods). A task's tracked_minutes stays as the sum of its entries, kept by the
// code that writes them (services/time-entries.ts), so every task read still answers trackedMinutes without a join.
const MINUTE_MS = 60_000;
const PAGE = 500;

// Rows are read and written through the app's Kysely instance, whose plugin names columns in camelCase.
interface TrackedTask {
  id: string;
  userId: string;
  startAt: number | string;
  trackedMinutes: number | string;
  updatedAt: number | string;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('time_entries')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('task_id', 'text', (col) => col.notNull())
    .addColumn('start_at', 'bigint', (col) => col.notNull())
    .addColumn('end_at', 'bigint')
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('time_entries_user_start')
    .on('time_entries')
    .columns(['user_id', 'start_at'])
    .execute();
  await db.schema
    .createIndex('time_entries_user_task')
    .on('time_entries')
    .columns(['user_id', 'task_id'])
    .execute();
  // One running entry per person, enforced by the database as well as by the timer's transaction.
  await db.schema
    .createIndex('time_entries_running')
    .on('time_entries')
    .column('user_id')
    .unique()
    .where(sql.ref('end_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('budget_periods')
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('from_date', 'text', (col) => col.notNull())
    .addColumn('budget_hours', 'real', (col) => col.notNull())
    .addColumn('budget_hours_by_weekday', 'text')
    .addPrimaryKeyConstraint('budget_periods_pk', ['user_id', 'from_date'])
    .execute();

  // What the timers and corrections recorded so far becomes one manual entry per task, from the task's start (its
  // day's start when unscheduled); a person's entries are laid one after another where they would overlap.
  const now = Date.now();
  const running = await sql<{ id: string; timerTaskId: string; timerStartedAt: number | string }>`
    select id, timer_task_id, timer_started_at from users where timer_started_at is not null
  `.execute(db);
  const runningOf = new Map(running.rows.map((row) => [row.id, row]));
  const tracked = await sql<TrackedTask>`
    select id, user_id, start_at, tracked_minutes, updated_at from tasks
    where tracked_minutes > 0 order by user_id, start_at, id
  `.execute(db);
  const rows: Record<string, unknown>[] = [];
  let user = '';
  let free = -Infinity;
  for (const task of tracked.rows) {
    if (task.userId !== user) {
      user = task.userId;
      free = -Infinity;
    }
    const startAt = Math.max(Number(task.startAt), free);
    const endAt = startAt + Number(task.trackedMinutes) * MINUTE_MS;
    free = endAt;
    const at = Number(task.updatedAt);
    rows.push({
      id: randomUUID(),
      userId: task.userId,
      taskId: task.id,
      startAt,
      endAt,
      source: 'manual',
      createdAt: at,
      updatedAt: at,
    });
  }
  for (const timer of runningOf.values()) {
    rows.push({
      id: randomUUID(),
      userId: timer.id,
      taskId: timer.timerTaskId,
      startAt: Number(timer.timerStartedAt),
      endAt: null,
      source: 'timer',
      createdAt: now,
      updatedAt: now,
    });
  }
  for (let at = 0; at < rows.length; at += PAGE) {
    await db
      .insertInto('timeEntries' as never)
      .values(rows.slice(at, at + PAGE) as never)
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('budget_periods').execute();
  await db.schema.dropTable('time_entries').execute();
}
