import type { Kysely, Updateable } from 'kysely';
import type { CalendarRow, CalendarsTable, Database } from '../../db/schema.js';

/** The own calendar's id is its owner's id: an event made here names it without a lookup (migration 0013). */
export const ownCalendarId = (userId: string) => userId;

/** What a person's own calendar is called and drawn in until they change it. */
export const OWN_CALENDAR_DEFAULTS = { name: 'My calendar', color: '#2563eb' } as const;

export function createCalendarsRepository(db: Kysely<Database>) {
  return {
    /** Makes the person's own calendar if it is missing: with the account (and for older accounts, migration 0013). */
    async ensureOwn(userId: string, now: number): Promise<void> {
      await db
        .insertInto('calendars')
        .values({
          id: ownCalendarId(userId),
          userId,
          kind: 'own',
          ...OWN_CALENDAR_DEFAULTS,
          countsInBudget: 1,
          url: null,
          etag: null,
          lastModified: null,
          lastRefreshedAt: null,
          lastError: null,
          nextRefreshAt: null,
          feedNonce: null,
          feedTokenHash: null,
          createdAt: now,
          updatedAt: now,
        })
        .onConflict((conflict) => conflict.column('id').doNothing())
        .execute();
    },

    /** The own calendar first, then the subscriptions in the order they were added. */
    async list(userId: string): Promise<CalendarRow[]> {
      const rows = await db
        .selectFrom('calendars')
        .selectAll()
        .where('userId', '=', userId)
        .orderBy('createdAt')
        .orderBy('id')
        .execute();
      return [...rows.filter((row) => row.kind === 'own'), ...rows.filter((row) => row.kind !== 'own')];
    },

    async find(userId: string, id: string): Promise<CalendarRow | undefined> {
      return db
        .selectFrom('calendars')
        .selectAll()
        .where('userId', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async findById(id: string): Promise<CalendarRow | undefined> {
      return db.selectFrom('calendars').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async countSubscriptions(userId: string): Promise<number> {
      const row = await db
        .selectFrom('calendars')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('userId', '=', userId)
        .where('kind', '=', 'subscription')
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async update(
      userId: string,
      id: string,
      changes: Updateable<Omit<CalendarsTable, 'id' | 'userId' | 'kind'>>,
      trx: Kysely<Database> = db,
    ): Promise<boolean> {
      const result = await trx
        .updateTable('calendars')
        .set(changes)
        .where('userId', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Subscriptions whose background refresh is due, the longest waiting first. */
    async due(now: number, limit: number): Promise<Pick<CalendarRow, 'id' | 'userId'>[]> {
      return db
        .selectFrom('calendars')
        .select(['id', 'userId'])
        .where('nextRefreshAt', '<=', now)
        .orderBy('nextRefreshAt')
        .limit(limit)
        .execute();
    },

    /**
     * Takes a due refresh for this instance: moves its next time on only if it is still due. Of several instances (or
     * a job run twice), exactly one gets true for each due time.
     */
    async claimDue(id: string, now: number, next: number): Promise<boolean> {
      const result = await db
        .updateTable('calendars')
        .set({ nextRefreshAt: next })
        .where('id', '=', id)
        .where('nextRefreshAt', '<=', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** The own calendar whose feed token hashes to this, if one is published. */
    async findByFeedHash(hash: string): Promise<CalendarRow | undefined> {
      return db.selectFrom('calendars').selectAll().where('feedTokenHash', '=', hash).executeTakeFirst();
    },
  };
}

export type CalendarsRepository = ReturnType<typeof createCalendarsRepository>;
