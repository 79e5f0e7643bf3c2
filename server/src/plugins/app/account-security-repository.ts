import type { Kysely } from 'kysely';
import type { Database, SessionRow, UserRow } from '../../db/schema.js';

/** Sessions, password-reset tokens and failed-login counters: the rows that decide who may act as a user. */
export function createAccountSecurityRepository(db: Kysely<Database>) {
  return {
    async createSession(session: {
      id: string;
      userId: string;
      createdAt: number;
      expiresAt: number;
      userAgent: string;
    }): Promise<void> {
      await db
        .insertInto('sessions')
        .values({ ...session, lastSeenAt: session.createdAt })
        .execute();
    },

    /** The user behind an unexpired session, and when the session was last used (the caller judges idleness). */
    async findSessionUser(
      sessionId: string,
      userId: string,
      now: number,
    ): Promise<{ user: UserRow; lastSeenAt: number } | undefined> {
      const row = await db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.userId')
        .selectAll('users')
        .select('sessions.lastSeenAt as sessionLastSeenAt')
        .where('sessions.id', '=', sessionId)
        .where('sessions.userId', '=', userId)
        .where('sessions.expiresAt', '>', now)
        .executeTakeFirst();
      if (!row) return undefined;
      const { sessionLastSeenAt, ...user } = row;
      return { user, lastSeenAt: Number(sessionLastSeenAt) };
    },

    async deleteSession(sessionId: string): Promise<void> {
      await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
    },

    /** Run on each sign-in, so expired and idle rows go away without a scheduler. */
    async deleteExpiredSessions(userId: string, now: number, idleSince: number): Promise<void> {
      await db
        .deleteFrom('sessions')
        .where('userId', '=', userId)
        .where((eb) => eb.or([eb('expiresAt', '<=', now), eb('lastSeenAt', '<=', idleSince)]))
        .execute();
    },

    /**
     * Moves last_seen_at to now unless another request already did within the interval: the condition makes
     * concurrent requests of one session write once.
     */
    async recordSessionActivity(sessionId: string, now: number, unlessSeenAfter: number): Promise<void> {
      await db
        .updateTable('sessions')
        .set({ lastSeenAt: now })
        .where('id', '=', sessionId)
        .where('lastSeenAt', '<=', unlessSeenAfter)
        .execute();
    },

    /** The user's sessions that are neither expired nor idle, most recently used first. */
    async listLiveSessions(userId: string, now: number, idleSince: number): Promise<SessionRow[]> {
      return db
        .selectFrom('sessions')
        .selectAll()
        .where('userId', '=', userId)
        .where('expiresAt', '>', now)
        .where('lastSeenAt', '>', idleSince)
        .orderBy('lastSeenAt', 'desc')
        .orderBy('createdAt', 'desc')
        .execute();
    },

    /** False when the user has no session of that id (another user's included). */
    async deleteUserSession(userId: string, sessionId: string): Promise<boolean> {
      const deleted = await db
        .deleteFrom('sessions')
        .where('id', '=', sessionId)
        .where('userId', '=', userId)
        .executeTakeFirst();
      return Number(deleted.numDeletedRows) === 1;
    },

    async deleteUserSessions(userId: string): Promise<void> {
      await db.deleteFrom('sessions').where('userId', '=', userId).execute();
    },

    /** Ends all but the `kept` most recently used sessions of the user, so one account's rows stay bounded. */
    async keepRecentSessions(userId: string, kept: number): Promise<void> {
      await db
        .deleteFrom('sessions')
        .where('userId', '=', userId)
        .where(
          'id',
          'not in',
          db
            .selectFrom('sessions')
            .select('id')
            .where('userId', '=', userId)
            .orderBy('lastSeenAt', 'desc')
            .orderBy('createdAt', 'desc')
            .limit(kept),
        )
        .execute();
    },

    async createPasswordReset(reset: {
      tokenHash: string;
      userId: string;
      createdAt: number;
      expiresAt: number;
    }): Promise<void> {
      await db
        .deleteFrom('passwordResets')
        .where('userId', '=', reset.userId)
        .where((eb) => eb.or([eb('expiresAt', '<=', reset.createdAt), eb('usedAt', 'is not', null)]))
        .execute();
      await db
        .insertInto('passwordResets')
        .values({ ...reset, usedAt: null })
        .execute();
    },

    async findPasswordReset(tokenHash: string) {
      return db
        .selectFrom('passwordResets')
        .selectAll()
        .where('tokenHash', '=', tokenHash)
        .executeTakeFirst();
    },

    /**
     * Sets the new password, spends the token and ends every session in one transaction. False when the token was
     * spent concurrently, so a token can never be used twice.
     */
    async completePasswordReset(
      tokenHash: string,
      userId: string,
      passwordHash: string,
      now: number,
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const spent = await trx
          .updateTable('passwordResets')
          .set({ usedAt: now })
          .where('tokenHash', '=', tokenHash)
          .where('usedAt', 'is', null)
          .executeTakeFirst();
        if (Number(spent.numUpdatedRows) !== 1) return false;
        await trx
          .updateTable('users')
          .set({ passwordHash, updatedAt: now })
          .where('id', '=', userId)
          .execute();
        await trx
          .updateTable('passwordResets')
          .set({ usedAt: now })
          .where('userId', '=', userId)
          .where('usedAt', 'is', null)
          .execute();
        await trx.deleteFrom('sessions').where('userId', '=', userId).execute();
        return true;
      });
    },

    async recentLoginFailures(
      accountKey: string,
      since: number,
    ): Promise<{ count: number; oldest: number | null }> {
      const row = await db
        .selectFrom('loginFailures')
        .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min<number>('failedAt').as('oldest')])
        .where('accountKey', '=', accountKey)
        .where('failedAt', '>', since)
        .executeTakeFirstOrThrow();
      return { count: Number(row.count), oldest: row.oldest === null ? null : Number(row.oldest) };
    },

    async recordLoginFailure(accountKey: string, now: number, windowMs: number): Promise<void> {
      // Guesses spread over many made-up names would otherwise leave rows behind forever.
      const stale =
        Math.random() < 0.02
          ? db.deleteFrom('loginFailures')
          : db.deleteFrom('loginFailures').where('accountKey', '=', accountKey);
      await stale.where('failedAt', '<=', now - windowMs).execute();
      await db.insertInto('loginFailures').values({ accountKey, failedAt: now }).execute();
    },

    async clearLoginFailures(accountKey: string): Promise<void> {
      await db.deleteFrom('loginFailures').where('accountKey', '=', accountKey).execute();
    },
  };
}

export type AccountSecurityRepository = ReturnType<typeof createAccountSecurityRepository>;
