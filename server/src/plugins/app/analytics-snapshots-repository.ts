import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export function createAnalyticsSnapshotsRepository(db: Kysely<Database>) {
  return {
    /** One row per user and week: storing the same week again replaces it, so the update is idempotent. */
    async save(userId: string, weekStart: string, payload: unknown, now: number): Promise<void> {
      const row = { userId, weekStart, payload: JSON.stringify(payload), updatedAt: now };
      await db
        .insertInto('analyticsSnapshots')
        .values(row)
        .onConflict((conflict) =>
          conflict.columns(['userId', 'weekStart']).doUpdateSet({ payload: row.payload, updatedAt: now }),
        )
        .execute();
    },

    async list(userId: string) {
      const rows = await db
        .selectFrom('analyticsSnapshots')
        .selectAll()
        .where('userId', '=', userId)
        .orderBy('weekStart')
        .execute();
      return rows.map((row) => ({
        weekStart: row.weekStart,
        updatedAt: row.updatedAt,
        analytics: JSON.parse(row.payload) as unknown,
      }));
    },
  };
}

export type AnalyticsSnapshotsRepository = ReturnType<typeof createAnalyticsSnapshotsRepository>;
