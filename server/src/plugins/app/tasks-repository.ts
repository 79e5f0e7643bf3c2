import type { Kysely } from 'kysely';
import type { Database, TaskRow, TaskUpdate } from '../../db/schema.js';
import { EXPORT_PAGE_SIZE, RECORD_QUOTAS } from '../../lib/quotas.js';

export type TaskSpan = Pick<TaskRow, 'id' | 'startAt' | 'endAt' | 'categoryId' | 'done' | 'trackedMinutes'>;
export type LedgerTaskRow = Pick<
  TaskRow,
  'id' | 'date' | 'done' | 'scheduled' | 'estimateMinutes' | 'trackedMinutes'
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
  return {
    async listForDate(userId: string, date: string, options: DayListOptions = {}): Promise<TaskRow[]> {
      const { done, scheduled = true, bounds } = options;
      const filtered = <Query extends ReturnType<typeof selectTasks>>(query: Query) => {
        let result = query.where('scheduled', '=', scheduled ? 1 : 0);
        // Not done means still pending: a dismissed task has left the pending list.
        if (done === false) result = result.where('done', '=', 0).where('dismissed', '=', 0);
        if (done === true) result = result.where('done', '=', 1);
        return result as Query;
      };
      const selectTasks = () => db.selectFrom('tasks').selectAll().where('userId', '=', userId);
      const dated = filtered(selectTasks().where('date', '=', date))
        .orderBy('startAt')
        .orderBy('createdAt')
        .orderBy('id')
        .limit(maxRows)
        .execute();
      // Two reads rather than one OR, so each uses its index (user+date, user+end).
      const overlapping =
        scheduled && bounds
          ? filtered(
              selectTasks()
                .where('date', '<>', date)
                .where('endAt', '>', bounds.start)
                .where('startAt', '<', bounds.end),
            )
              .limit(maxRows)
              .execute()
          : Promise.resolve([]);
      const [own, others] = await Promise.all([dated, overlapping]);
      return others.length === 0 ? own : [...own, ...others].sort(byStart).slice(0, maxRows);
    },

    /** Every task dated `date`, scheduled or not, dismissed or not (today's read, services/ledger.ts todayOf). */
    async listDatedOn(userId: string, date: string): Promise<TaskRow[]> {
      return db
        .selectFrom('tasks')
        .selectAll()
        .where('userId', '=', userId)
        .where('date', '=', date)
        .limit(maxRows)
        .execute();
    },

    /** Scheduled tasks overlapping [from, to), whole rows, dismissed ones included (today's read). */
    async listOverlapping(userId: string, from: number, to: number): Promise<TaskRow[]> {
      return db
        .selectFrom('tasks')
        .selectAll()
        .where('userId', '=', userId)
        .where('scheduled', '=', 1)
        .where('endAt', '>', from)
        .where('startAt', '<', to)
        .limit(maxRows)
        .execute();
    },

    /** Tasks dated [fromDate, toDate], scheduled or not, without the dismissed: what the ledger counts by day. */
    async listLedgerTasks(userId: string, fromDate: string, toDate: string): Promise<LedgerTaskRow[]> {
      return db
        .selectFrom('tasks')
        .select(['id', 'date', 'done', 'scheduled', 'estimateMinutes', 'trackedMinutes'])
        .where('userId', '=', userId)
        .where('date', '>=', fromDate)
        .where('date', '<=', toDate)
        .where('dismissed', '=', 0)
        .limit(maxRows)
        .execute();
    },

    /** Scheduled tasks overlapping [from, to) and unscheduled ones dated fromDate..toDate, by start: the calendar. */
    async listForRange(
      userId: string,
      range: { from: number; to: number; fromDate: string; toDate: string },
    ): Promise<TaskRow[]> {
      const select = () => db.selectFrom('tasks').selectAll().where('userId', '=', userId);
      const [scheduled, unscheduled] = await Promise.all([
        select()
          .where('scheduled', '=', 1)
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
    async listSpansOverlapping(userId: string, from: number, to: number): Promise<TaskSpan[]> {
      return db
        .selectFrom('tasks')
        .select(['id', 'startAt', 'endAt', 'categoryId', 'done', 'trackedMinutes'])
        .where('userId', '=', userId)
        .where('dismissed', '=', 0)
        .where('scheduled', '=', 1)
        .where('endAt', '>', from)
        .where('startAt', '<', to)
        .execute();
    },

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
