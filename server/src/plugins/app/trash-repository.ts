import type { Kysely, Selectable } from 'kysely';
import type { Database, DeletedRecordsTable } from '../../db/schema.js';

export type TrashKind = DeletedRecordsTable['kind'];
export type TrashedRow<Kind extends TrashKind> = Selectable<Database[Kind]>;

/**
 * How long a delete can be undone, and how many deleted records one account keeps: the client offers Undo for a few
 * seconds, the hour covers a slow network and a second tab; 100 bounds what one account can park here.
 */
export interface TrashLimits {
  keptMs: number;
  perUser: number;
}

export const TRASH_LIMITS: TrashLimits = { keptMs: 60 * 60 * 1000, perUser: 100 };

/**
 * Deletes that can be undone: `discard` moves a row into deleted_records in one transaction, `restore` puts it back
 * whole (same id) and forgets it. Each discard prunes the account's expired entries and all but its newest `perUser`,
 * so the table never holds more than that per account.
 */
export function createTrashRepository(db: Kysely<Database>, limits: TrashLimits = TRASH_LIMITS) {
  // One query shape for the three tables: their rows differ, but id and userId are common to all.
  const table = (kind: TrashKind) => kind as 'tasks';

  return {
    async discard(kind: TrashKind, userId: string, id: string, now: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom(table(kind))
          .selectAll()
          .where('userId', '=', userId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (!row) return false;
        await trx.deleteFrom(table(kind)).where('userId', '=', userId).where('id', '=', id).execute();
        await trx
          .deleteFrom('deletedRecords')
          .where('userId', '=', userId)
          .where('kind', '=', kind)
          .where('recordId', '=', id)
          .execute();
        await trx
          .insertInto('deletedRecords')
          .values({ userId, kind, recordId: id, record: JSON.stringify(row), deletedAt: now })
          .execute();
        await trx
          .deleteFrom('deletedRecords')
          .where('userId', '=', userId)
          .where('deletedAt', '<', now - limits.keptMs)
          .execute();
        const overflow = await trx
          .selectFrom('deletedRecords')
          .select(['kind', 'recordId'])
          .where('userId', '=', userId)
          .orderBy('deletedAt', 'desc')
          .orderBy('recordId', 'desc')
          .offset(limits.perUser)
          .limit(limits.perUser)
          .execute();
        for (const entry of overflow) {
          await trx
            .deleteFrom('deletedRecords')
            .where('userId', '=', userId)
            .where('kind', '=', entry.kind)
            .where('recordId', '=', entry.recordId)
            .execute();
        }
        return true;
      });
    },

    /** The record as it was deleted, while its delete can still be undone. */
    async find<Kind extends TrashKind>(
      kind: Kind,
      userId: string,
      id: string,
      now: number,
    ): Promise<TrashedRow<Kind> | undefined> {
      const entry = await db
        .selectFrom('deletedRecords')
        .select('record')
        .where('userId', '=', userId)
        .where('kind', '=', kind)
        .where('recordId', '=', id)
        .where('deletedAt', '>=', now - limits.keptMs)
        .executeTakeFirst();
      return entry ? (JSON.parse(entry.record) as TrashedRow<Kind>) : undefined;
    },

    /**
     * Puts the row back and forgets its trash entry, atomically; false when the entry went meanwhile (restored by
     * another request). A unique-key clash (the id or an imported event's UID is back) is thrown to the caller.
     */
    async restore(kind: TrashKind, userId: string, id: string, row: object): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const forgotten = await trx
          .deleteFrom('deletedRecords')
          .where('userId', '=', userId)
          .where('kind', '=', kind)
          .where('recordId', '=', id)
          .executeTakeFirst();
        if (Number(forgotten.numDeletedRows) === 0) return false;
        await trx
          .insertInto(table(kind))
          .values(row as TrashedRow<'tasks'>)
          .execute();
        return true;
      });
    },
  };
}

export type TrashRepository = ReturnType<typeof createTrashRepository>;
