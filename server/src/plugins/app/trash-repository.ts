import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, DeletedRecordsTable } from '../../db/schema.js';

export type TrashKind = DeletedRecordsTable['kind'];
export type TrashedRow<Kind extends TrashKind> = Selectable<Database[Kind]>;
/** A deleted record, and the rows deleted with it (a series' overrides: its edited occurrences). */
export interface Trashed<Kind extends TrashKind> {
  row: TrashedRow<Kind>;
  dependents: TrashedRow<Kind>[];
}
/** The kinds whose rows may belong to a series, and so have dependents. */
type SeriesKind = Extract<TrashKind, 'tasks' | 'events'>;

/**
 * How a deleted record is stored: the row alone, as it always was, or with its dependents in an envelope (no table
 * has a `dependents` column, so the two are told apart by it).
 */
function storedRecord(row: object, dependents: object[]): string {
  return JSON.stringify(dependents.length === 0 ? row : { row, dependents });
}
function trashedOf<Kind extends TrashKind>(record: string): Trashed<Kind> {
  const parsed = JSON.parse(record) as
    TrashedRow<Kind> | { row: TrashedRow<Kind>; dependents: TrashedRow<Kind>[] };
  return 'dependents' in parsed && Array.isArray(parsed.dependents)
    ? { row: parsed.row, dependents: parsed.dependents }
    : { row: parsed as TrashedRow<Kind>, dependents: [] };
}

/**
 * How long a delete can be undone, and how much one account's trash keeps: the client offers Undo for a few seconds,
 * the hour covers a slow network and a second tab. An entry counts once however many rows it holds (a series with
 * every edited occurrence), so the entries are bounded in number and in stored bytes: the trash is outside the
 * quotas, and without the byte bound 100 entries of large series held 18 MB of one account's deleted rows. 1 MiB
 * holds over a thousand ordinary rows, far more than an Undo needs.
 */
export interface TrashLimits {
  keptMs: number;
  perUser: number;
  bytesPerUser: number;
}

export const TRASH_LIMITS: TrashLimits = { keptMs: 60 * 60 * 1000, perUser: 100, bytesPerUser: 1024 * 1024 };
/** Rows per insert when a series' overrides come back: 27 columns each stays under SQLite's 32,766 parameters. */
const RESTORE_PAGE = 500;

/**
 * Deletes that can be undone: `discard` moves a row into deleted_records in one transaction, `restore` puts it back
 * whole (same id) and forgets it. A series' master goes with its overrides (`withOverrides`), in one entry, so one
 * Undo brings back the series and every occurrence that was edited, ticked or timed. Each discard prunes the
 * account's expired entries, then drops its oldest ones until the newest fit in `perUser` entries and `bytesPerUser`
 * bytes, so the table never holds more than that per account; an entry larger than the bound alone is not kept (the
 * rows are deleted all the same, without an Undo). `deleteExpired` sweeps every account's expired entries.
 */
export function createTrashRepository(db: Kysely<Database>, limits: TrashLimits = TRASH_LIMITS) {
  // One query shape for the three tables: their rows differ, but id and userId are common to all.
  const table = (kind: TrashKind) => kind as 'tasks';

  return {
    /**
     * Deletes the row (with its overrides) and keeps it for Undo under `key` (its id unless told: a delete of the
     * following occurrences keeps the part it deleted under the occurrence's id, so Undo takes the id the delete took).
     * With `trx`, it writes in the caller's transaction.
     */
    async discard(
      kind: TrashKind,
      userId: string,
      id: string,
      now: number,
      {
        withOverrides = false,
        key = id,
        trx: callers,
      }: { withOverrides?: boolean; key?: string; trx?: Kysely<Database> } = {},
    ): Promise<boolean> {
      const inTransaction = <T>(work: (trx: Kysely<Database>) => Promise<T>) =>
        callers ? work(callers) : db.transaction().execute(work);
      return inTransaction(async (trx) => {
        const row = await trx
          .selectFrom(table(kind))
          .selectAll()
          .where('userId', '=', userId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (!row) return false;
        const overrides = withOverrides
          ? await trx
              .selectFrom(table(kind as SeriesKind))
              .selectAll()
              .where('userId', '=', userId)
              .where('seriesId', '=', id)
              .execute()
          : [];
        if (overrides.length > 0) {
          await trx
            .deleteFrom(table(kind as SeriesKind))
            .where('userId', '=', userId)
            .where('seriesId', '=', id)
            .execute();
        }
        await trx.deleteFrom(table(kind)).where('userId', '=', userId).where('id', '=', id).execute();
        await trx
          .deleteFrom('deletedRecords')
          .where('userId', '=', userId)
          .where('kind', '=', kind)
          .where('recordId', '=', key)
          .execute();
        const record = storedRecord(row, overrides);
        if (Buffer.byteLength(record) <= limits.bytesPerUser) {
          await trx
            .insertInto('deletedRecords')
            .values({ userId, kind, recordId: key, record, deletedAt: now })
            .execute();
        }
        await trx
          .deleteFrom('deletedRecords')
          .where('userId', '=', userId)
          .where('deletedAt', '<', now - limits.keptMs)
          .execute();
        // octet_length takes the size from the value's header (SQLite's record, PostgreSQL's varlena), unread.
        const kept = await trx
          .selectFrom('deletedRecords')
          .select(['kind', 'recordId', sql<number>`octet_length(record)`.as('bytes')])
          .where('userId', '=', userId)
          .orderBy('deletedAt', 'desc')
          .orderBy('recordId', 'desc')
          .execute();
        let bytes = 0;
        const overflow = kept.filter((entry, index) => {
          bytes += Number(entry.bytes);
          return index >= limits.perUser || bytes > limits.bytesPerUser;
        });
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

    /**
     * Forgets the expired entries of every account: one DELETE on the expiry index. Then the time entries of deleted
     * tasks go too, once no delete of a task of that account can be undone any more: they wait in their table meanwhile
     * (an Undo brings the task back with the same id, and its entries count again), counted in no figure.
     */
    async deleteExpired(now: number): Promise<number> {
      const deleted = await db
        .deleteFrom('deletedRecords')
        .where('deletedAt', '<', now - limits.keptMs)
        .executeTakeFirst();
      await db
        .deleteFrom('timeEntries')
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('tasks')
                .select('tasks.id')
                .whereRef('tasks.id', '=', 'timeEntries.taskId')
                .whereRef('tasks.userId', '=', 'timeEntries.userId'),
            ),
          ),
        )
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('deletedRecords')
                .select('deletedRecords.userId')
                .whereRef('deletedRecords.userId', '=', 'timeEntries.userId')
                .where('deletedRecords.kind', '=', 'tasks'),
            ),
          ),
        )
        .execute();
      return Number(deleted.numDeletedRows);
    },

    /** The record as it was deleted, with what was deleted with it, while its delete can still be undone. */
    async find<Kind extends TrashKind>(
      kind: Kind,
      userId: string,
      id: string,
      now: number,
    ): Promise<Trashed<Kind> | undefined> {
      const entry = await db
        .selectFrom('deletedRecords')
        .select('record')
        .where('userId', '=', userId)
        .where('kind', '=', kind)
        .where('recordId', '=', id)
        .where('deletedAt', '>=', now - limits.keptMs)
        .executeTakeFirst();
      return entry ? trashedOf<Kind>(entry.record) : undefined;
    },

    /**
     * Puts the row back and forgets its trash entry, atomically; false when the entry went meanwhile (restored by
     * another request). A unique-key clash (the id or an imported event's UID is back) is thrown to the caller.
     */
    async restore<Kind extends TrashKind>(
      kind: Kind,
      userId: string,
      id: string,
      { row, dependents }: Trashed<Kind>,
      /** A check of what is stored once the row is back, in the same transaction (a throw undoes the restore). */
      beforeCommit?: (trx: Kysely<Database>, userId: string) => Promise<void>,
    ): Promise<boolean> {
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
        // The master first, then its overrides, in pages so that one insert stays within the parameter limits.
        for (let at = 0; at < dependents.length; at += RESTORE_PAGE) {
          await trx
            .insertInto(table(kind))
            .values(dependents.slice(at, at + RESTORE_PAGE) as TrashedRow<'tasks'>[])
            .execute();
        }
        await beforeCommit?.(trx, userId);
        return true;
      });
    },
  };
}

export type TrashRepository = ReturnType<typeof createTrashRepository>;
