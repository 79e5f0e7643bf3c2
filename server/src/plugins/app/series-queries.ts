import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { requireRoom } from '../../lib/quotas.js';
import { SERIES_LIMITS } from '../../lib/recurrence.js';

/** What a read needs to expand a series' master (services/series.ts). */
export const SERIES_COLUMNS = [
  'rrule',
  'exdates',
  'seriesZone',
  'occurrenceMs',
  'seriesId',
  'recurrenceAt',
] as const;

/** The override rows of series (see services/series.ts), alike for tasks and events. */
export function seriesQueries(db: Kysely<Database>, table: 'tasks' | 'events', maxRows: number) {
  const overrides = (userId: string, seriesIds: readonly string[]) =>
    db
      .selectFrom(table)
      .select(['id', 'recurrenceAt'])
      .where('userId', '=', userId)
      .where('seriesId', 'in', seriesIds);
  const countWhere = async (userId: string, column?: 'occurrenceMs' | 'seriesId', value?: string) => {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('count'))
      .where('userId', '=', userId)
      .$if(column === 'occurrenceMs', (query) => query.where('occurrenceMs', 'is not', null))
      .$if(column === 'seriesId', (query) => query.where('seriesId', '=', value!))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  };
  return {
    /**
     * Refuses (409) a row the account has no room for: past the quota of its kind, a series past the number of series
     * one account may keep (each costs every read of its span), an override past those one series may keep. Every
     * create calls it, so no path (an occurrence ticked or timed, a split) writes past a bound.
     */
    async requireRoomFor(row: {
      userId: string;
      occurrenceMs: number | null;
      seriesId: string | null;
    }): Promise<void> {
      requireRoom(maxRows, await countWhere(row.userId), table);
      if (row.occurrenceMs !== null) {
        requireRoom(
          SERIES_LIMITS.seriesPerKind,
          await countWhere(row.userId, 'occurrenceMs'),
          `repeating ${table}`,
        );
      }
      if (row.seriesId !== null) {
        requireRoom(
          SERIES_LIMITS.overridesPerSeries,
          await countWhere(row.userId, 'seriesId', row.seriesId),
          `changed occurrences in one series`,
        );
      }
    },

    /** The ids of the overrides of these series whose original start is in (from, to). */
    async overriddenOccurrences(
      userId: string,
      seriesIds: readonly string[],
      from: number,
      to: number,
    ): Promise<Set<string>> {
      const rows = await overrides(userId, seriesIds)
        .where('recurrenceAt', '>', from)
        .where('recurrenceAt', '<', to)
        .execute();
      return new Set(rows.map((row) => row.id));
    },

    /** A series' overrides, with the start each replaces. */
    async overridesOf(userId: string, seriesId: string): Promise<{ id: string; recurrenceAt: number }[]> {
      const rows = await overrides(userId, [seriesId]).execute();
      return rows.map((row) => ({ id: row.id, recurrenceAt: row.recurrenceAt! }));
    },

    /** Moves an override to another series or start: its id is always its occurrence's id. */
    async rekeyOverride(
      userId: string,
      id: string,
      to: { id: string; seriesId: string; recurrenceAt: number },
    ): Promise<void> {
      await db.updateTable(table).set(to).where('userId', '=', userId).where('id', '=', id).execute();
    },

    /** Deletes a series' overrides (those replacing starts at or after `from`, when given). */
    async deleteOverrides(userId: string, seriesId: string, from?: number): Promise<void> {
      await db
        .deleteFrom(table)
        .where('userId', '=', userId)
        .where('seriesId', '=', seriesId)
        .$if(from !== undefined, (query) => query.where('recurrenceAt', '>=', from!))
        .execute();
    },

    /** Deletes the override that replaces the occurrence starting at `start`, if there is one. */
    async deleteOverrideAt(userId: string, seriesId: string, start: number): Promise<void> {
      await db
        .deleteFrom(table)
        .where('userId', '=', userId)
        .where('seriesId', '=', seriesId)
        .where('recurrenceAt', '=', start)
        .execute();
    },
  };
}
