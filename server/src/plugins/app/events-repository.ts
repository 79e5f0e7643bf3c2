import type { Kysely, Updateable } from 'kysely';
import { compiledOnce } from './compiled-query.js';
import { SERIES_COLUMNS, seriesQueries } from './series-queries.js';
import type { Database, EventRow, EventsTable } from '../../db/schema.js';
import { HttpError } from '../../lib/http-errors.js';
import { EXPORT_PAGE_SIZE, RECORD_QUOTAS } from '../../lib/quotas.js';
import { SERIES_LIMITS } from '../../lib/recurrence.js';

export type EventSpan = Pick<
  EventRow,
  'id' | 'startAt' | 'endAt' | 'allDay' | 'categoryId' | (typeof SERIES_COLUMNS)[number]
>;

/** `maxRows` bounds every list this repository returns (the event quota). */
/** Rows read for many values, 500 values per query: chunks keep the bound-parameter count under SQLite's limit. */
async function readInChunks<T>(
  values: readonly string[],
  read: (chunk: string[]) => Promise<T[]>,
): Promise<T[]> {
  const found: T[] = [];
  for (let index = 0; index < values.length; index += 500)
    found.push(...(await read(values.slice(index, index + 500))));
  return found;
}

export function createEventsRepository(db: Kysely<Database>, maxRows: number = RECORD_QUOTAS.events) {
  return {
    ...seriesQueries(db, 'events', maxRows),

    /** Events overlapping [from, to): they end after the range starts and start before it ends. */
    async listOverlapping(userId: string, from: number, to: number): Promise<EventRow[]> {
      return db
        .selectFrom('events')
        .selectAll()
        .where('userId', '=', userId)
        .where('endAt', '>', from)
        .where('startAt', '<', to)
        .orderBy('startAt')
        .orderBy('id')
        .limit(maxRows)
        .execute();
    },

    /** The same events with only what the ledger reads: fewer columns, no sort, compiled once (today's read). */
    listSpansOverlapping: compiledOnce(db, (userId: string, from: number, to: number) =>
      db
        .selectFrom('events')
        .select(['id', 'startAt', 'endAt', 'allDay', 'categoryId'])
        .select(SERIES_COLUMNS)
        .where('userId', '=', userId)
        .where('endAt', '>', from)
        .where('startAt', '<', to),
    ),

    /**
     * All the user's events by start, a page at a time (keyset on start and id): an export never holds them all. Each
     * page sorts the user's events again (no index has that order; one on start_at misleads SQLite's planner on
     * overlap reads, see migration 0002), so pages are large: at the quota, 20 sorts of 20,000 rows.
     */
    async *pagesByStart(userId: string, pageSize = EXPORT_PAGE_SIZE): AsyncGenerator<EventRow[]> {
      let last: EventRow | undefined;
      for (;;) {
        const after = last;
        const page = await db
          .selectFrom('events')
          .selectAll()
          .where('userId', '=', userId)
          .$if(after !== undefined, (query) =>
            query.where((eb) => eb(eb.refTuple('startAt', 'id'), '>', eb.tuple(after!.startAt, after!.id))),
          )
          .orderBy('startAt')
          .orderBy('id')
          .limit(pageSize)
          .execute();
        if (page.length > 0) yield page;
        if (page.length < pageSize) return;
        last = page.at(-1);
      }
    },

    /** An index-only count (events_user_end), for the quota. */
    async countOf(userId: string): Promise<number> {
      const row = await db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('userId', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async find(userId: string, id: string): Promise<EventRow | undefined> {
      return db
        .selectFrom('events')
        .selectAll()
        .where('userId', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async findByIcsKeys(userId: string, keys: string[]): Promise<EventRow[]> {
      return readInChunks(keys, (chunk) =>
        db
          .selectFrom('events')
          .selectAll()
          .where('userId', '=', userId)
          .where('icsKey', 'in', chunk)
          .execute(),
      );
    },

    /** A new event; one made here has no last import (see EventsTable.icsImported) and continues no file's series. */
    async create(
      event: Omit<EventRow, 'icsImported' | 'icsSplitOf' | 'icsSplitAt'> & Partial<EventRow>,
    ): Promise<EventRow> {
      const row: EventRow = { icsImported: null, icsSplitOf: null, icsSplitAt: null, ...event };
      await this.requireRoomFor(row);
      await db.insertInto('events').values(row).execute();
      return row;
    },

    async update(userId: string, id: string, changes: Updateable<Omit<EventsTable, 'id' | 'userId'>>) {
      await db.updateTable('events').set(changes).where('userId', '=', userId).where('id', '=', id).execute();
      return this.find(userId, id);
    },

    /**
     * The series split here from imported ones (by these UIDs): the later halves, each naming the UID it continues, and
     * those made single events here.
     */
    async findSplitHalves(userId: string, uids: string[]): Promise<EventRow[]> {
      return readInChunks(uids, (chunk) =>
        db
          .selectFrom('events')
          .selectAll()
          .where('userId', '=', userId)
          .where('icsSplitOf', 'in', chunk)
          .where('seriesId', 'is', null)
          .execute(),
      );
    },

    /** The override rows of these series, whole. */
    async overrideRowsOf(userId: string, seriesIds: string[]): Promise<EventRow[]> {
      return readInChunks(seriesIds, (chunk) =>
        db
          .selectFrom('events')
          .selectAll()
          .where('userId', '=', userId)
          .where('seriesId', 'in', chunk)
          .execute(),
      );
    },

    /** Events imported with this UID: a series, its overrides, or the copies an older import made of it. */
    async findByIcsUid(userId: string, uid: string): Promise<Pick<EventRow, 'id' | 'icsKey'>[]> {
      // Keys are '<uid>#<recurrence>': the range ['<uid>#', '<uid>$') is exactly this UID's, on the key's index.
      return db
        .selectFrom('events')
        .select(['id', 'icsKey'])
        .where('userId', '=', userId)
        .where('icsKey', '>=', `${uid}#`)
        .where('icsKey', '<', `${uid}$`)
        .limit(maxRows)
        .execute();
    },

    /** Writes one import's changes atomically, so a failed import leaves the calendar as it was. */
    async applyImport(
      userId: string,
      created: EventRow[],
      updated: EventRow[],
      deleted: string[] = [],
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (let index = 0; index < deleted.length; index += 500) {
          await trx
            .deleteFrom('events')
            .where('userId', '=', userId)
            .where('id', 'in', deleted.slice(index, index + 500))
            .execute();
        }
        for (let index = 0; index < created.length; index += 200) {
          await trx
            .insertInto('events')
            .values(created.slice(index, index + 200))
            .execute();
        }
        // Changed rows are whole rows: replaced in pages, a few statements for a file of thousands, so the write
        // holds the database (and a SQLite file every other request) for milliseconds, not one statement a row.
        for (let index = 0; index < updated.length; index += 500) {
          await trx
            .deleteFrom('events')
            .where('userId', '=', userId)
            .where(
              'id',
              'in',
              updated.slice(index, index + 500).map((event) => event.id),
            )
            .execute();
        }
        for (let index = 0; index < updated.length; index += 200) {
          await trx
            .insertInto('events')
            .values(updated.slice(index, index + 200))
            .execute();
        }
        // Counted once written, in the same transaction: what the import re-keys or replaces is not counted twice.
        const series = await trx
          .selectFrom('events')
          .select((eb) => eb.fn.countAll().as('count'))
          .where('userId', '=', userId)
          .where('occurrenceMs', 'is not', null)
          .executeTakeFirstOrThrow();
        if (Number(series.count) > SERIES_LIMITS.seriesPerKind) {
          throw new HttpError(
            409,
            `This import would pass the limit of ${SERIES_LIMITS.seriesPerKind} repeating events; delete some before importing`,
          );
        }
        const crowded = await trx
          .selectFrom('events')
          .select('seriesId')
          .where('userId', '=', userId)
          .where('seriesId', 'is not', null)
          .groupBy('seriesId')
          .having((eb) => eb.fn.countAll(), '>', SERIES_LIMITS.overridesPerSeries)
          .executeTakeFirst();
        if (crowded) {
          throw new HttpError(
            409,
            `This import would pass the limit of ${SERIES_LIMITS.overridesPerSeries} changed occurrences in one series`,
          );
        }
      });
    },
  };
}

export type EventsRepository = ReturnType<typeof createEventsRepository>;
