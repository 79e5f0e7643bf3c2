import type { Kysely } from 'kysely';
import type { Database, TaskRow, TaskUpdate } from '../../db/schema.js';
import { EXPORT_PAGE_SIZE, RECORD_QUOTAS } from '../../lib/quotas.js';

export type TaskSpan = Pick<TaskRow, 'startAt' | 'endAt' | 'categoryId' | 'date' | 'done'>;

/** `maxRows` bounds every list this repository returns (the task quota). */
export function createTasksRepository(db: Kysely<Database>, maxRows: number = RECORD_QUOTAS.tasks) {
  return {
    async listForDate(userId: string, date: string, done?: boolean): Promise<TaskRow[]> {
      let query = db.selectFrom('tasks').selectAll().where('userId', '=', userId).where('date', '=', date);
      // Not done means still pending: a dismissed task has left the pending list.
      if (done === false) query = query.where('done', '=', 0).where('dismissed', '=', 0);
      if (done === true) query = query.where('done', '=', 1);
      return query.orderBy('startAt').orderBy('createdAt').orderBy('id').limit(maxRows).execute();
    },

    /**
     * Tasks overlapping [from, to) with only what time accounting reads (wallet, analytics): few columns, no sort.
     * A dismissed task counts in no figure, so it is not read at all.
     */
    async listSpansOverlapping(userId: string, from: number, to: number): Promise<TaskSpan[]> {
      return db
        .selectFrom('tasks')
        .select(['startAt', 'endAt', 'categoryId', 'date', 'done'])
        .where('userId', '=', userId)
        .where('dismissed', '=', 0)
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
