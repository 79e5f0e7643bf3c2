import { sql, type Kysely } from 'kysely';

// A series split here ('this and following') from one an imported calendar file holds: the second half keeps no UID
// key of its own (the file has one series, and an export writes this half under its own UID), so it names the UID it
// continues, and where it begins in the file's times (`ics_split_at`: the half's first start as the file gives it,
// which a time change made with the split moves here but not in the file). A re-import then puts an occurrence the
// file changes on the half that holds its date, not on the first.
// Partial, so the overlap reads, which never name the column, keep their (user_id, end_at) index.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('events').addColumn('ics_split_of', 'text').execute();
  await db.schema.alterTable('events').addColumn('ics_split_at', 'bigint').execute();
  await db.schema
    .createIndex('events_user_ics_split_of')
    .on('events')
    .columns(['user_id', 'ics_split_of'])
    .where(sql.ref('ics_split_of'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('events_user_ics_split_of').execute();
  await db.schema.alterTable('events').dropColumn('ics_split_at').execute();
  await db.schema.alterTable('events').dropColumn('ics_split_of').execute();
}
