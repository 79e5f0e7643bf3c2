import { sql, type Kysely } from 'kysely';

// Sessions end after a stretch without requests (the browser's inactivity time-out), so each row records when it was
// last used; and people see their sessions listed, so each records the device it began on (the User-Agent, cut to 200
// characters). Existing sessions count as last used when they began.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('last_seen_at', 'bigint', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('sessions')
    .addColumn('user_agent', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  await sql`update sessions set last_seen_at = created_at`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('user_agent').execute();
  await db.schema.alterTable('sessions').dropColumn('last_seen_at').execute();
}
