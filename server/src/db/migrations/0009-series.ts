import type { Kysely } from 'kysely';

// Series (lib/recurrence.ts): an event or task may repeat. The series is one row, its master: `rrule`, skipped
// occurrences (`exdates`, JSON epoch ms), the zone whose wall clock it keeps (`series_zone`) and the length of each
// occurrence (`occurrence_ms`, set on masters only: it marks them). A master's start_at is its first occurrence's
// start and its end_at where its last occurrence ends (or the year 3000), so every overlap read that exists finds the
// series it must expand. An occurrence that was edited, ticked or tracked is a row of its own, an override, naming
// its series and the start it replaces (`series_id`, `recurrence_at`). Existing rows are single items.
const COLUMNS = [
  ['rrule', 'text'],
  ['exdates', 'text'],
  ['series_zone', 'text'],
  ['occurrence_ms', 'bigint'],
  ['series_id', 'text'],
  ['recurrence_at', 'bigint'],
] as const;
const TABLES = ['tasks', 'events'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    for (const [column, type] of COLUMNS) await db.schema.alterTable(table).addColumn(column, type).execute();
    // A read that expands series looks up which of their occurrences have an override.
    await db.schema
      .createIndex(`${table}_series_recurrence`)
      .on(table)
      .columns(['series_id', 'recurrence_at'])
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    await db.schema.dropIndex(`${table}_series_recurrence`).execute();
    for (const [column] of COLUMNS) await db.schema.alterTable(table).dropColumn(column).execute();
  }
}
