import type { Kysely } from 'kysely';

// Reminders by Web Push (issue 32): a person's notification settings, one row each (no row: the defaults of
// schemas/notifications.ts), and the browsers that subscribed to pushes, one row per push endpoint (an endpoint is
// one browser profile; posted again, by anyone, it is updated and moves to that account).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notification_settings')
    .addColumn('user_id', 'text', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    // null: event reminders off; otherwise minutes before the event's start.
    .addColumn('event_reminder_minutes', 'integer')
    .addColumn('task_start', 'integer', (col) => col.notNull())
    .addColumn('timer_alerts', 'integer', (col) => col.notNull())
    // 'HH:MM' in the person's time zone, or null (off).
    .addColumn('plan_day_at', 'text')
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (col) => col.notNull().unique())
    .addColumn('p256dh', 'text', (col) => col.notNull())
    .addColumn('auth', 'text', (col) => col.notNull())
    .addColumn('device', 'text', (col) => col.notNull())
    .addColumn('expiration_time', 'bigint')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('push_subscriptions_user_created')
    .on('push_subscriptions')
    .columns(['user_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('push_subscriptions').execute();
  await db.schema.dropTable('notification_settings').execute();
}
