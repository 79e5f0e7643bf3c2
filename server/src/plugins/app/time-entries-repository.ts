import type { Kysely } from 'kysely';
import type { BudgetPeriodRow, Database, TimeEntryRow } from '../../db/schema.js';
import { EXPORT_PAGE_SIZE } from '../../lib/quotas.js';
import { TIME_ENTRY_MAX_MS } from '../../schemas/time-entry.js';
import { compiledOnce } from './compiled-query.js';

/**
 * The ledger's hot reads of tracked time and budget history, compiled once (every day read makes them): the writes
 * live in services/time-entries.ts, in the transactions that check them.
 */
export function createTimeEntriesRepository(db: Kysely<Database>, maxRows: number) {
  // An entry lasts at most a day, so the index on (user_id, start_at) bounds the overlap read from below too.
  const counted = compiledOnce(
    db,
    (userId: string, from: number, earliestStart: number, to: number, limit: number) =>
      db
        .selectFrom('timeEntries')
        .select(['timeEntries.startAt', 'timeEntries.endAt'])
        .where('timeEntries.userId', '=', userId)
        .where('timeEntries.startAt', '<', to)
        .where('timeEntries.startAt', '>', earliestStart)
        .where((eb) => eb.or([eb('timeEntries.endAt', '>', from), eb('timeEntries.endAt', 'is', null)]))
        // Only the entries of tasks that exist and are not dismissed count (a deleted task's wait for its Undo).
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('tasks')
              .select('tasks.id')
              .whereRef('tasks.id', '=', 'timeEntries.taskId')
              .whereRef('tasks.userId', '=', 'timeEntries.userId')
              .where('tasks.dismissed', '=', 0),
          ),
        )
        .limit(limit),
  );
  const periods = compiledOnce(db, (userId: string, toDate: string) =>
    db
      .selectFrom('budgetPeriods')
      .selectAll()
      .where('userId', '=', userId)
      .where('fromDate', '<=', toDate)
      .orderBy('fromDate', 'desc'),
  );
  return {
    /** The tracked time overlapping [from, to) that figures count, running entries with a null end. */
    countedSpans(
      userId: string,
      from: number,
      to: number,
    ): Promise<Pick<TimeEntryRow, 'startAt' | 'endAt'>[]> {
      return counted(userId, from, from - TIME_ENTRY_MAX_MS, to, maxRows);
    },
    /** The budget periods starting on or before `toDate`, latest first. */
    budgetPeriods(userId: string, toDate: string): Promise<BudgetPeriodRow[]> {
      return periods(userId, toDate);
    },
    /** All the user's entries by start (then id), a page at a time, on the (user_id, start_at) index: the export. */
    async *pagesByStart(userId: string, pageSize = EXPORT_PAGE_SIZE): AsyncGenerator<TimeEntryRow[]> {
      let last: TimeEntryRow | undefined;
      for (;;) {
        const after = last;
        const page = await db
          .selectFrom('timeEntries')
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
  };
}

export type TimeEntriesRepository = ReturnType<typeof createTimeEntriesRepository>;
