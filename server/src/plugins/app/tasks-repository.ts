import type { Kysely } from 'kysely';
import { compiledOnce } from './compiled-query.js';
import { SERIES_COLUMNS, seriesQueries } from './series-queries.js';
import type { Database, TaskRow, TaskUpdate } from '../../db/schema.js';
import { EXPORT_PAGE_SIZE, RECORD_QUOTAS } from '../../lib/quotas.js';

type SeriesColumns = (typeof SERIES_COLUMNS)[number];

export type TaskSpan = Pick<
  TaskRow,
  | 'id'
  | 'startAt'
  | 'endAt'
  | 'categoryId'
  | 'done'
  | 'trackedMinutes'
  | 'scheduled'
  | 'date'
  | 'estimateMinutes'
  | SeriesColumns
>;
export type LedgerTaskRow = Pick<
  TaskRow,
  'id' | 'date' | 'done' | 'scheduled' | 'estimateMinutes' | 'trackedMinutes' | 'occurrenceMs'
>;

export interface DayListOptions {
  done?: boolean;
  /** false: the day's unscheduled tasks; otherwise its scheduled ones. */
  scheduled?: boolean;
  /** The day's instants in the reader's zone: scheduled tasks dated another day but overlapping it are listed too. */
  bounds?: { start: number; end: number };
}

/** A day's order: by start, then creation, then id. */
export const byStart = (a: TaskRow, b: TaskRow) =>
  a.startAt - b.startAt || a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** `maxRows` bounds every list this repository returns (the task quota). */
export function createTasksRepository(db: Kysely<Database>, maxRows: number = RECORD_QUOTAS.tasks) {
  type DayRead = (userId: string, date: string, from: number, to: number) => Promise<TaskRow[]>;
  /** One compiled read per shape of listForDate's options: at most 3 x 2 x 2. */
  const dayReads = new Map<string, DayRead>();
  const dayRead = (done: boolean | undefined, scheduled: boolean, overlapping: boolean): DayRead => {
    const select = (userId: string) =>
      db
        .selectFrom('tasks')
        .selectAll()
        .where('userId', '=', userId)
        // A series' master is read whatever it repeats: the caller expands it and filters its occurrences.
        .where((eb) => eb.or([eb('scheduled', '=', scheduled ? 1 : 0), eb('occurrenceMs', 'is not', null)]))
        // Not done means still pending: a dismissed task has left the pending list.
        .$if(done === false, (query) => query.where('done', '=', 0).where('dismissed', '=', 0))
        .$if(done === true, (query) => query.where('done', '=', 1));
    if (!overlapping) {
      const dated = compiledOnce(db, (userId: string, date: string) =>
        select(userId).where('date', '=', date).limit(maxRows),
      );
      return (userId, date) => dated(userId, date);
    }
    return compiledOnce(db, (userId: string, date: string, from: number, to: number) =>
      select(userId)
        .where('date', '=', date)
        .unionAll(
          select(userId)
            .where('date', '<>', date)
            .where('endAt', '>', from)
            .where('startAt', '<', to)
            // Unscheduled tasks are read by their day, but a series of them by its span.
            .$if(!scheduled, (query) => query.where('occurrenceMs', 'is not', null)),
        )
        .limit(maxRows),
    );
  };
  return {
    ...seriesQueries(db, 'tasks', maxRows),

    /**
     * A day's tasks, unsorted (the caller expands series and sorts): those dated `date` and, given the day's `bounds`,
     * the scheduled tasks of other days overlapping it, with the series that may repeat into it. One UNION ALL, so
     * each half searches its index (user+date, user+end), compiled once per shape of options (see listOfDay).
     */
    async listForDate(userId: string, date: string, options: DayListOptions = {}): Promise<TaskRow[]> {
      const { done, scheduled = true, bounds } = options;
      const key = `${done}/${scheduled}/${bounds !== undefined}`;
      let read = dayReads.get(key);
      if (!read) {
        read = dayRead(done, scheduled, bounds !== undefined);
        dayReads.set(key, read);
      }
      return read(userId, date, bounds?.start ?? 0, bounds?.end ?? 0);
    },

    /**
     * Today's rows in one read (services/ledger.ts todayOf), whole, dismissed ones included, each once: every task
     * dated `date`, and the scheduled tasks and series of other days overlapping [from, to). A UNION ALL, not an OR,
     * so each half searches its index (user+date, user+end); one read, not two, because most of today's rows would be
     * in both, and making a row's JS object costs far more than finding it (a day of 20 rows: 5 µs, then 150 µs).
     */
    listOfDay: compiledOnce(db, (userId: string, date: string, from: number, to: number) => {
      const select = () => db.selectFrom('tasks').selectAll().where('userId', '=', userId);
      return select()
        .where('date', '=', date)
        .unionAll(
          select()
            .where('date', '<>', date)
            .where((eb) => eb.or([eb('scheduled', '=', 1), eb('occurrenceMs', 'is not', null)]))
            .where('endAt', '>', from)
            .where('startAt', '<', to),
        )
        .limit(maxRows);
    }),

    /** Tasks dated [fromDate, toDate], scheduled or not, without the dismissed: what the ledger counts by day. */
    listLedgerTasks: compiledOnce(db, (userId: string, fromDate: string, toDate: string) =>
      db
        .selectFrom('tasks')
        .select(['id', 'date', 'done', 'scheduled', 'estimateMinutes', 'trackedMinutes', 'occurrenceMs'])
        .where('userId', '=', userId)
        .where('date', '>=', fromDate)
        .where('date', '<=', toDate)
        .where('dismissed', '=', 0)
        .limit(maxRows),
    ),

    /** Scheduled tasks overlapping [from, to) and unscheduled ones dated fromDate..toDate, by start: the calendar. */
    async listForRange(
      userId: string,
      range: { from: number; to: number; fromDate: string; toDate: string },
    ): Promise<TaskRow[]> {
      const select = () => db.selectFrom('tasks').selectAll().where('userId', '=', userId);
      const [scheduled, unscheduled] = await Promise.all([
        select()
          .where((eb) => eb.or([eb('scheduled', '=', 1), eb('occurrenceMs', 'is not', null)]))
          .where('endAt', '>', range.from)
          .where('startAt', '<', range.to)
          .limit(maxRows)
          .execute(),
        select()
          .where('scheduled', '=', 0)
          .where('date', '>=', range.fromDate)
          .where('date', '<=', range.toDate)
          .limit(maxRows)
          .execute(),
      ]);
      return [...scheduled, ...unscheduled].sort(byStart).slice(0, maxRows);
    },

    /**
     * Tasks overlapping [from, to) with only what time accounting reads (wallet, analytics): few columns, no sort.
     * A dismissed task counts in no figure and an unscheduled one has no block, so neither is read.
     */
    listSpansOverlapping: compiledOnce(db, (userId: string, from: number, to: number) =>
      db
        .selectFrom('tasks')
        .select([
          'id',
          'startAt',
          'endAt',
          'categoryId',
          'done',
          'trackedMinutes',
          'scheduled',
          'date',
          'estimateMinutes',
        ])
        .select(SERIES_COLUMNS)
        .where('userId', '=', userId)
        .where('dismissed', '=', 0)
        .where((eb) => eb.or([eb('scheduled', '=', 1), eb('occurrenceMs', 'is not', null)]))
        .where('endAt', '>', from)
        .where('startAt', '<', to),
    ),

    /**
     * All the user's tasks by start, a page at a time; see the events repository's pagesByStart. Ties go by creation,
     * then id, as in a day's list (the export used to leave them in storage order).
     */
    async *pagesByStart(userId: string, pageSize = EXPORT_PAGE_SIZE): AsyncGenerator<TaskRow[]> {
      let last: TaskRow | undefined;
      for (;;) {
        const after = last;
        const page = await db
          .selectFrom('tasks')
          .selectAll()
          .where('userId', '=', userId)
          .$if(after !== undefined, (query) =>
            query.where((eb) =>
              eb(
                eb.refTuple('startAt', 'createdAt', 'id'),
                '>',
                eb.tuple(after!.startAt, after!.createdAt, after!.id),
              ),
            ),
          )
          .orderBy('startAt')
          .orderBy('createdAt')
          .orderBy('id')
          .limit(pageSize)
          .execute();
        if (page.length > 0) yield page;
        if (page.length < pageSize) return;
        last = page.at(-1);
      }
    },

    /** An index-only count, for the quota. */
    async countOf(userId: string): Promise<number> {
      const row = await db
        .selectFrom('tasks')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('userId', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async find(userId: string, id: string): Promise<TaskRow | undefined> {
      return db
        .selectFrom('tasks')
        .selectAll()
        .where('userId', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async create(task: TaskRow): Promise<TaskRow> {
      await this.requireRoomFor(task);
      await db.insertInto('tasks').values(task).execute();
      return task;
    },

    async update(
      userId: string,
      id: string,
      changes: Omit<TaskUpdate, 'id' | 'userId'>,
    ): Promise<TaskRow | undefined> {
      await db.updateTable('tasks').set(changes).where('userId', '=', userId).where('id', '=', id).execute();
      return this.find(userId, id);
    },
  };
}

export type TasksRepository = ReturnType<typeof createTasksRepository>;
