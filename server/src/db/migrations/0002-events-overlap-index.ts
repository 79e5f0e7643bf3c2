import type { Kysely } from 'kysely';

// Overlap reads (a range, today, a week) filter on end_at > from AND start_at < to. With an index on start_at as
// well, SQLite's planner (which has no statistics) picked it and walked every event that started before the range,
// i.e. the user's whole past. Without it, the (user_id, end_at) index walks only events ending after the range
// starts: the range itself plus what is planned beyond it, which imports bound to a year.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('events_user_start').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('events_user_start').on('events').columns(['user_id', 'start_at']).execute();
}
