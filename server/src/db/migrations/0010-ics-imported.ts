import type { Kysely } from 'kysely';

// What the calendar file last said about an imported event (its stored columns as JSON, see services/ics-import.ts),
// so a re-import changes only what the file changed since, and edits made here to the rest stay. Existing rows have
// none: their next import takes the file's columns, as every import did before.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('events').addColumn('ics_imported', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('events').dropColumn('ics_imported').execute();
}
