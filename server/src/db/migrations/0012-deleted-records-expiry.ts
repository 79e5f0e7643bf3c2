import type { Kysely } from 'kysely';

// Deleted records past their undo hour are swept for every account at once by `deleted_at < ?`. The index led by
// user_id serves one account's reads only, so without this one the sweep would read the whole table, records and all.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('deleted_records_deleted_at')
    .on('deleted_records')
    .column('deleted_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('deleted_records_deleted_at').execute();
}
