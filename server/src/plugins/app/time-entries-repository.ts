import type { ExpressionBuilder, Kysely } from 'kysely';
import type { BudgetPeriodRow, Database, TimeEntryRow } from '../../db/schema.js';
import { EXPORT_PAGE_SIZE } from '../../lib/quotas.js';
import { TIME_ENTRY_MAX_MS } from '../../schemas/time-entry.js';
import { compiledOnce } from './compiled-query.js';

/**
 * The entries overlapping [from, to), running ones (a null end) included. An entry lasts at most TIME_ENTRY_MAX_MS, so
 * `earliestStart` (from - TIME_ENTRY_MAX_MS, passed in so a read compiled once binds it as a value) bounds the scan of
 * the (user_id, start_at) index from below. The one overlap rule of the ledger's reads and the writes' checks.
 */
export const overlapping =
  (from: number, earliestStart: number, to: number) => (eb: ExpressionBuilder<Database, 'timeEntries'>) =>
    eb.and([
      eb('timeEntries.startAt', '<', to),
      eb('timeEntries.startAt', '>', earliestStart),
      eb.or([eb('timeEntries.endAt', '>', from), eb('timeEntries.endAt', 'is', null)]),
    ]);

/**
 * The ledger's hot reads of tracked time and budget history, compiled once (every day read makes them): the writes
 * live in services/time-entries.ts, in the transactions that check them.
 */
export function createTimeEntriesRepository(db: Kysely<Database>, maxRows: number) {
  const counted = compiledOnce(db, (userId: string, from: number, earliestStart: number, to: number) =>
    db
      .selectFrom('timeEntries')
      .select(['timeEntries.startAt', 'timeEntries.endAt'])
      .where('timeEntries.userId', '=', userId)
      .where(overlapping(from, earliestStart, to))
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
      .limit(maxRows),
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
      return counted(userId, from, from - TIME_ENTRY_MAX_MS, to);
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
