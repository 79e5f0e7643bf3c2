import type { Kysely } from 'kysely';

// A deleted task, event or tag is kept for a short while, whole, so the person can undo the delete and get back the
// same record (its id, an imported event's UID, a task's notes and done state). Bounded per user by the repository.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('deleted_records')
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('record_id', 'text', (col) => col.notNull())
    .addColumn('record', 'text', (col) => col.notNull())
    .addColumn('deleted_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('deleted_records_pk', ['user_id', 'kind', 'record_id'])
    .execute();
  await db.schema
    .createIndex('deleted_records_user_time')
    .on('deleted_records')
    .columns(['user_id', 'deleted_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('deleted_records').execute();
}
