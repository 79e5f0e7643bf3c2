import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, SessionRow, UserRow } from '../../db/schema.js';
import { compiledOnce } from './compiled-query.js';

/**
 * The one way a password is replaced (reset link or signed-in change): the new hash, every pending reset link spent,
 * and every session of the user ended but `keptSessionId`, inside the caller's transaction.
 */
async function replacePassword(
  trx: Transaction<Database>,
  userId: string,
  passwordHash: string,
  now: number,
  keptSessionId?: string,
): Promise<void> {
  await trx.updateTable('users').set({ passwordHash, updatedAt: now }).where('id', '=', userId).execute();
  await trx
    .updateTable('passwordResets')
    .set({ usedAt: now })
    .where('userId', '=', userId)
    .where('usedAt', 'is', null)
    .execute();
  await trx
    .deleteFrom('sessions')
    .where('userId', '=', userId)
    .$if(keptSessionId !== undefined, (query) => query.where('id', '!=', keptSessionId!))
    .execute();
}

/** Sessions, password-reset tokens and password-attempt counters: the rows that decide who may act as a user. */
export function createAccountSecurityRepository(db: Kysely<Database>) {
  // Every signed-in request runs it first: built and compiled once (see compiledOnce).
  const sessionUser = compiledOnce(db, (sessionId: string, userId: string, now: number) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.userId')
      .selectAll('users')
      .select('sessions.lastSeenAt as sessionLastSeenAt')
      .where('sessions.id', '=', sessionId)
      .where('sessions.userId', '=', userId)
      .where('sessions.expiresAt', '>', now)
      .limit(1),
  );
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
      const [row] = await sessionUser(sessionId, userId, now);
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

    /**
     * Stores a reset token unless the account already had `limit.perAccount` of them inside `limit.windowMs`, and
     * makes it the only live one: older tokens expire now. The token is inserted before the count is read, so
     * concurrent requests cannot all see the old count (each count includes its own row and every earlier one).
     * Rows older than the window are deleted first, so an account never holds more than the limit.
     */
    async issuePasswordReset(
      reset: { tokenHash: string; userId: string; createdAt: number; expiresAt: number },
      limit: { perAccount: number; windowMs: number },
    ): Promise<boolean> {
      const windowStart = reset.createdAt - limit.windowMs;
      await db
        .deleteFrom('passwordResets')
        .where('userId', '=', reset.userId)
        .where('createdAt', '<=', windowStart)
        .execute();
      await db
        .insertInto('passwordResets')
        .values({ ...reset, usedAt: null })
        .execute();
      const { issued } = await db
        .selectFrom('passwordResets')
        .select((eb) => eb.fn.countAll<number>().as('issued'))
        .where('userId', '=', reset.userId)
        .where('createdAt', '>', windowStart)
        .executeTakeFirstOrThrow();
      if (Number(issued) > limit.perAccount) {
        await db.deleteFrom('passwordResets').where('tokenHash', '=', reset.tokenHash).execute();
        return false;
      }
      await db
        .updateTable('passwordResets')
        .set({ expiresAt: reset.createdAt })
        .where('userId', '=', reset.userId)
        .where('tokenHash', '!=', reset.tokenHash)
        .where('expiresAt', '>', reset.createdAt)
        .execute();
      return true;
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
        await replacePassword(trx, userId, passwordHash, now);
        return true;
      });
    },

    /**
     * A signed-in password change: sets the hash, ends every session but the one that asked, and spends any pending
     * reset link, in one transaction (ASVS 7.4.3: the other sessions end when the password changes).
     */
    async changePassword(userId: string, passwordHash: string, keptSessionId: string, now: number) {
      await db.transaction().execute((trx) => replacePassword(trx, userId, passwordHash, now, keptSessionId));
    },

    /**
     * Counts one password attempt of an account from a source and answers the count including it, with the start of
     * its window. One upsert does the increment and the read, so concurrent attempts each see a different count and
     * at most the limit of them get past it. Windows that have ended are deleted first: the table only ever holds
     * the attempts of the last window.
     */
    async countPasswordAttempt(
      accountKey: string,
      source: string,
      now: number,
      windowMs: number,
    ): Promise<{ attempts: number; windowStartedAt: number }> {
      const windowEnded = now - windowMs;
      await db.deleteFrom('signInThrottle').where('windowStartedAt', '<=', windowEnded).execute();
      // The CASE covers a row whose window ended between the delete and this statement.
      const row = await db
        .insertInto('signInThrottle')
        .values({ accountKey, source, attempts: 1, windowStartedAt: now })
        .onConflict((conflict) =>
          conflict.columns(['accountKey', 'source']).doUpdateSet({
            attempts: sql<number>`case when sign_in_throttle.window_started_at <= ${windowEnded} then 1 else sign_in_throttle.attempts + 1 end`,
            windowStartedAt: sql<number>`case when sign_in_throttle.window_started_at <= ${windowEnded} then ${now} else sign_in_throttle.window_started_at end`,
          }),
        )
        .returning(['attempts', 'windowStartedAt'])
        .executeTakeFirstOrThrow();
      return { attempts: Number(row.attempts), windowStartedAt: Number(row.windowStartedAt) };
    },

    /** After the right password: that source starts afresh; other sources keep their counts. */
    async clearPasswordAttempts(accountKey: string, source: string): Promise<void> {
      await db
        .deleteFrom('signInThrottle')
        .where('accountKey', '=', accountKey)
        .where('source', '=', source)
        .execute();
    },
  };
}

export type AccountSecurityRepository = ReturnType<typeof createAccountSecurityRepository>;
