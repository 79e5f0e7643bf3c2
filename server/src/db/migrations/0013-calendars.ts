import { sql, type Kysely } from 'kysely';

// Calendars (docs/decisions/0003-import-copies-subscriptions-mirror.md). Each person has one own calendar, whose id is
// the person's id (so an event made here needs no lookup), holding every event made or imported here; a subscription
// mirrors a calendar at a URL, its events replaced on each refresh. Events name their calendar. Imports stopped merging
// into what they stored before, so what only the merge read goes: the file's last columns and the split links.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('calendars')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('color', 'text', (col) => col.notNull())
    .addColumn('counts_in_budget', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('url', 'text')
    // The source's validators for the next conditional refresh, and what the last one found.
    .addColumn('etag', 'text')
    .addColumn('last_modified', 'text')
    .addColumn('last_refreshed_at', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('next_refresh_at', 'bigint')
    // The own calendar's private feed: a random nonce the token is derived from with the server's secret, and the
    // SHA-256 of the token the feed is found by; both null when no feed is published.
    .addColumn('feed_nonce', 'text')
    .addColumn('feed_token_hash', 'text')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('calendars_user_id').on('calendars').column('user_id').execute();
  await db.schema
    .createIndex('calendars_feed_token_hash')
    .on('calendars')
    .column('feed_token_hash')
    .unique()
    .where(sql.ref('feed_token_hash'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('calendars_next_refresh_at')
    .on('calendars')
    .column('next_refresh_at')
    .where(sql.ref('next_refresh_at'), 'is not', null)
    .execute();

  await db.schema.alterTable('events').addColumn('calendar_id', 'text').execute();
  await sql`update events set calendar_id = user_id`.execute(db);
  await sql`
    insert into calendars (id, user_id, kind, name, color, counts_in_budget, created_at, updated_at)
    select id, id, 'own', 'My calendar', '#2563eb', 1, created_at, created_at from users
  `.execute(db);
  // A UID is unique within a calendar, not across them: the same meeting may be in a subscription and copied here.
  await db.schema.dropIndex('events_user_ics_key').execute();
  await db.schema
    .createIndex('events_calendar_ics_key')
    .on('events')
    .columns(['calendar_id', 'ics_key'])
    .unique()
    .execute();

  // Deleted events kept for Undo are rows of the old shape: they come back in the new one, in their own calendar.
  const trashed = await sql<{ user_id: string; record_id: string; record: string }>`
    select user_id, record_id, record from deleted_records where kind = 'events'
  `.execute(db);
  const reshaped = (row: Record<string, unknown>) => {
    const { icsImported: _imported, icsSplitOf: _splitOf, icsSplitAt: _splitAt, ...kept } = row;
    return { ...kept, calendarId: kept.userId };
  };
  for (const entry of trashed.rows) {
    const parsed = JSON.parse(entry.record) as Record<string, unknown>;
    const record = Array.isArray(parsed.dependents)
      ? {
          row: reshaped(parsed.row as Record<string, unknown>),
          dependents: (parsed.dependents as Record<string, unknown>[]).map(reshaped),
        }
      : reshaped(parsed);
    await sql`
      update deleted_records set record = ${JSON.stringify(record)}
      where user_id = ${entry.user_id} and kind = 'events' and record_id = ${entry.record_id}
    `.execute(db);
  }

  await db.schema.dropIndex('events_user_ics_split_of').execute();
  await db.schema.alterTable('events').dropColumn('ics_split_at').execute();
  await db.schema.alterTable('events').dropColumn('ics_split_of').execute();
  await db.schema.alterTable('events').dropColumn('ics_imported').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('events').addColumn('ics_imported', 'text').execute();
  await db.schema.alterTable('events').addColumn('ics_split_of', 'text').execute();
  await db.schema.alterTable('events').addColumn('ics_split_at', 'bigint').execute();
  await db.schema
    .createIndex('events_user_ics_split_of')
    .on('events')
    .columns(['user_id', 'ics_split_of'])
    .where(sql.ref('ics_split_of'), 'is not', null)
    .execute();
  // Subscribed events have no place without their calendars.
  await sql`delete from events where calendar_id <> user_id`.execute(db);
  await db.schema.dropIndex('events_calendar_ics_key').execute();
  await db.schema
    .createIndex('events_user_ics_key')
    .on('events')
    .columns(['user_id', 'ics_key'])
    .unique()
    .execute();
  await db.schema.alterTable('events').dropColumn('calendar_id').execute();
  await db.schema.dropTable('calendars').execute();
}
