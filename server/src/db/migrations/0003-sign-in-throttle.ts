import type { Kysely } from 'kysely';

// Password attempts are counted per account and source in one row each, incremented by a single upsert before the
// hash is checked, so concurrent guesses cannot all read the old count. The old per-identifier failure log goes: its
// rows only mattered for 15 minutes, so dropping them costs at most one window of counts.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sign_in_throttle')
    .addColumn('account_key', 'text', (col) => col.notNull())
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull())
    .addColumn('window_started_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('sign_in_throttle_pk', ['account_key', 'source'])
    .execute();
  // Expired windows are deleted on every attempt; this keeps that delete a range scan.
  await db.schema
    .createIndex('sign_in_throttle_window')
    .on('sign_in_throttle')
    .column('window_started_at')
    .execute();
  await db.schema.dropTable('login_failures').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('login_failures')
    .addColumn('account_key', 'text', (col) => col.notNull())
    .addColumn('failed_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('login_failures_account_time')
    .on('login_failures')
    .columns(['account_key', 'failed_at'])
    .execute();
  await db.schema.dropTable('sign_in_throttle').execute();
}
