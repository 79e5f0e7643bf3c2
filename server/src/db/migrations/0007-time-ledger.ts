import type { Kysely } from 'kysely';

// The time ledger (services/ledger.ts): tasks may be unscheduled with an estimate, carry tracked minutes, and a user
// runs at most one timer; events may have a category; the daily budget may differ by weekday. Existing rows keep
// their meaning: every task was scheduled, nothing was tracked, no timer runs, events had no category and the budget
// was the same every day.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('tasks')
    .addColumn('scheduled', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('tasks').addColumn('estimate_minutes', 'integer').execute();
  await db.schema
    .alterTable('tasks')
    .addColumn('tracked_minutes', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('tasks')
    .addColumn('timer_auto_stopped', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('events').addColumn('category_id', 'text').execute();
  await db.schema.alterTable('users').addColumn('budget_hours_by_weekday', 'text').execute();
  // The one running timer of a user: which task, since when (epoch ms). Both null when none runs.
  await db.schema.alterTable('users').addColumn('timer_task_id', 'text').execute();
  await db.schema.alterTable('users').addColumn('timer_started_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['scheduled', 'estimate_minutes', 'tracked_minutes', 'timer_auto_stopped']) {
    await db.schema.alterTable('tasks').dropColumn(column).execute();
  }
  await db.schema.alterTable('events').dropColumn('category_id').execute();
  for (const column of ['budget_hours_by_weekday', 'timer_task_id', 'timer_started_at']) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
}
