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

    /**
     * The events that spend the wallet, with only what the ledger reads: fewer columns, no sort, compiled once (today's
     * read). A subscription whose events do not count in the budget is left out here, so no figure sees them.
     */
    listSpansOverlapping: compiledOnce(db, (userId: string, from: number, to: number) =>
      db
        .selectFrom('events')
        .select(['id', 'startAt', 'endAt', 'allDay', 'categoryId'])
        .select(SERIES_COLUMNS)
        .where('userId', '=', userId)
        .where('endAt', '>', from)
        .where('startAt', '<', to)
        .where('calendarId', 'not in', (eb) =>
          eb
            .selectFrom('calendars')
            .select('id')
            .where('calendars.userId', '=', userId)
            .where('countsInBudget', '=', 0),
        ),
    ),

    /**
     * All the user's events by start, a page at a time (keyset on start and id): an export never holds them all. Each
     * page sorts the user's events again (no index has that order; one on start_at misleads SQLite's planner on
     * overlap reads, see migration 0002), so pages are large: at the quota, 20 sorts of 20,000 rows.
     */
    async *pagesByStart(
      userId: string,
      { pageSize = EXPORT_PAGE_SIZE, calendarId }: { pageSize?: number; calendarId?: string } = {},
    ): AsyncGenerator<EventRow[]> {
      let last: EventRow | undefined;
      for (;;) {
        const after = last;
        const page = await db
          .selectFrom('events')
          .selectAll()
          .where('userId', '=', userId)
          .$if(calendarId !== undefined, (query) => query.where('calendarId', '=', calendarId!))
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

    /** Which of these UID keys the calendar already holds. */
    async keysIn(calendarId: string, keys: readonly string[]): Promise<Set<string>> {
      const rows = await readInChunks(keys, (chunk) =>
        db
          .selectFrom('events')
          .select('icsKey')
          .where('calendarId', '=', calendarId)
          .where('icsKey', 'in', chunk)
          .execute(),
      );
      return new Set(rows.map((row) => row.icsKey!));
    },

    /** Which of these ids are the user's events in this calendar. */
    async idsIn(userId: string, calendarId: string, ids: readonly string[]): Promise<Set<string>> {
      const rows = await readInChunks(ids, (chunk) =>
        db
          .selectFrom('events')
          .select('id')
          .where('userId', '=', userId)
          .where('calendarId', '=', calendarId)
          .where('id', 'in', chunk)
          .execute(),
      );
      return new Set(rows.map((row) => row.id));
    },

    /** All of one calendar's events (a subscription's, to compare with its source), bounded by the quota. */
    async listOfCalendar(userId: string, calendarId: string): Promise<EventRow[]> {
      return db
        .selectFrom('events')
        .selectAll()
        .where('userId', '=', userId)
        .where('calendarId', '=', calendarId)
        .limit(maxRows)
        .execute();
    },

    /** How many events each of the user's calendars holds (series count once). */
    async countsByCalendar(userId: string): Promise<Map<string, number>> {
      const rows = await db
        .selectFrom('events')
        .select(['calendarId', (eb) => eb.fn.countAll().as('count')])
        .where('userId', '=', userId)
        .where('seriesId', 'is', null)
        .groupBy('calendarId')
        .execute();
      return new Map(rows.map((row) => [row.calendarId, Number(row.count)]));
    },

    /** The override rows of a series, whole. */
    async overrideRowsOf(userId: string, seriesId: string): Promise<EventRow[]> {
      return db
        .selectFrom('events')
        .selectAll()
        .where('userId', '=', userId)
        .where('seriesId', '=', seriesId)
        .limit(maxRows)
        .execute();
    },

    async create(event: EventRow): Promise<EventRow> {
      await this.requireRoomFor(event);
      await db.insertInto('events').values(event).execute();
      return event;
    },

    async update(userId: string, id: string, changes: Updateable<Omit<EventsTable, 'id' | 'userId'>>) {
      await db.updateTable('events').set(changes).where('userId', '=', userId).where('id', '=', id).execute();
      return this.find(userId, id);
    },

    /**
     * Writes one calendar's changes atomically (an import's new rows; a refresh's removed, changed and new rows), so a
     * failure leaves the calendar as it was. Changed rows are replaced whole, in pages: a few statements for a file of
     * thousands, so the write holds the database (and a SQLite file every other request) for milliseconds.
     */
    async writeCalendar(
      userId: string,
      changes: { created: EventRow[]; replaced?: EventRow[]; deleted?: string[] },
      beforeCommit?: (trx: Kysely<Database>) => Promise<void>,
    ): Promise<void> {
      const { created, replaced = [], deleted = [] } = changes;
      await db.transaction().execute(async (trx) => {
        const gone = [...deleted, ...replaced.map((event) => event.id)];
        for (let index = 0; index < gone.length; index += 500) {
          await trx
            .deleteFrom('events')
            .where('userId', '=', userId)
            .where('id', 'in', gone.slice(index, index + 500))
            .execute();
        }
        const written = [...replaced, ...created];
        for (let index = 0; index < written.length; index += 200) {
          await trx
            .insertInto('events')
            .values(written.slice(index, index + 200))
            .execute();
        }
        const stored = await trx
          .selectFrom('events')
          .select((eb) => eb.fn.countAll().as('count'))
          .where('userId', '=', userId)
          .executeTakeFirstOrThrow();
        if (Number(stored.count) > maxRows) {
          throw new HttpError(
            409,
            `This would pass the limit of ${maxRows} events; delete some events or calendars first`,
          );
        }
        // Counted once written, in the same transaction: what is replaced is not counted twice.
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
        if (beforeCommit) await beforeCommit(trx);
      });
    },
  };
}

export type EventsRepository = ReturnType<typeof createEventsRepository>;
