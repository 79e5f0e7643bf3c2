import type { Kysely } from 'kysely';

// A task can be dismissed (Yesterday's Delete): it leaves the pending list and counts in no figure, without being
// deleted or passing for done. Existing tasks are not dismissed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('tasks')
    .addColumn('dismissed', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tasks').dropColumn('dismissed').execute();
}
