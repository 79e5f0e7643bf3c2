import type { Kysely } from 'kysely';

// Reminders by Web Push (issue 32, services/reminders.ts): one row per reminder and browser, inserted by every
// instance's scan and kept once by the unique (reminder_key, subscription_id); a delivery claims its row with a lease,
// sends, and marks it sent. Rows are swept a day after they fall due.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('reminder_deliveries')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('subscription_id', 'text', (col) =>
      col.notNull().references('push_subscriptions.id').onDelete('cascade'),
    )
    // What is reminded of and when (services/reminders.ts reminderKey): a moved event makes a new key.
    .addColumn('reminder_key', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('due_at', 'bigint', (col) => col.notNull())
    // 'due' until delivered ('sent'), or given up: 'dropped' (too late), 'cancelled' (no longer stands), 'gone'.
    .addColumn('state', 'text', (col) => col.notNull())
    // A delivery under way holds the row until then; an instance that died leaves it to expire.
    .addColumn('lease_until', 'bigint')
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .addUniqueConstraint('reminder_deliveries_key_subscription', ['reminder_key', 'subscription_id'])
    .execute();
  // The scan's read of what is due now, and the sweep's of what is old.
  await db.schema
    .createIndex('reminder_deliveries_state_due')
    .on('reminder_deliveries')
    .columns(['state', 'due_at'])
    .execute();
  await db.schema.createIndex('reminder_deliveries_due').on('reminder_deliveries').column('due_at').execute();
  // Account removal and a subscription's cascade find their rows by these.
  await db.schema
    .createIndex('reminder_deliveries_user')
    .on('reminder_deliveries')
    .column('user_id')
    .execute();
  await db.schema
    .createIndex('reminder_deliveries_subscription')
    .on('reminder_deliveries')
    .column('subscription_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('reminder_deliveries').execute();
}
