import type { FastifyInstance } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';

// One timer per user, kept on the user's row (which task, since when), so a reload or another device sees it and two
// timers cannot run. Stopping adds the elapsed minutes to the task's trackedMinutes (at most 1440 in all).

const MAX_TRACKED_MINUTES = 1440;
/** A timer left running stops itself after this long, and the ledger counts a running one up to it. */
export const TIMER_LIMIT_MS = 12 * 60 * 60_000;

type Db = Kysely<Database> | Transaction<Database>;

/** Ends the user's running timer at `stoppedAt`, adding its minutes to its task (if the task still exists). */
async function stopRunning(
  db: Db,
  user: Pick<UserRow, 'id' | 'timerTaskId' | 'timerStartedAt'>,
  stoppedAt: number,
  automatically: boolean,
): Promise<void> {
  if (user.timerTaskId === null || user.timerStartedAt === null) return;
  const elapsed = Math.min(TIMER_LIMIT_MS, Math.max(0, stoppedAt - user.timerStartedAt));
  const task = await db
    .selectFrom('tasks')
    .select(['trackedMinutes'])
    .where('userId', '=', user.id)
    .where('id', '=', user.timerTaskId)
    .executeTakeFirst();
  if (task) {
    await db
      .updateTable('tasks')
      .set({
        trackedMinutes: Math.min(MAX_TRACKED_MINUTES, task.trackedMinutes + Math.round(elapsed / 60_000)),
        timerAutoStopped: automatically ? 1 : 0,
        updatedAt: stoppedAt,
      })
      .where('userId', '=', user.id)
      .where('id', '=', user.timerTaskId)
      .execute();
  }
  await db
    .updateTable('users')
    .set({ timerTaskId: null, timerStartedAt: null })
    .where('id', '=', user.id)
    .where('timerTaskId', '=', user.timerTaskId)
    .execute();
}

/** The user's row, re-read inside the transaction so two concurrent starts or stops see each other's writes. */
async function lockedUser(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'timerTaskId', 'timerStartedAt'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

/**
 * Stops a timer that has run 12 hours, at 12 hours, and marks its task (timerAutoStopped). Called on every signed-in
 * request (routes/autohooks.ts) before any figure is read; costs nothing unless a timer is past its limit.
 */
export async function settleExpiredTimer(app: FastifyInstance, user: UserRow): Promise<UserRow> {
  if (user.timerStartedAt === null || app.now() - user.timerStartedAt < TIMER_LIMIT_MS) return user;
  await app.db.transaction().execute(async (trx) => {
    const current = await lockedUser(trx, user.id);
    if (current.timerStartedAt === null || app.now() - current.timerStartedAt < TIMER_LIMIT_MS) return;
    await stopRunning(trx, current, current.timerStartedAt + TIMER_LIMIT_MS, true);
  });
  return { ...user, timerTaskId: null, timerStartedAt: null };
}

/** Starts the timer on a task of the user's, stopping the one that ran (if another). Idempotent on the same task. */
export async function startTimer(app: FastifyInstance, userId: string, taskId: string): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    const current = await lockedUser(trx, userId);
    if (current.timerTaskId === taskId && current.timerStartedAt !== null) return;
    const now = app.now();
    await stopRunning(trx, current, now, false);
    await trx
      .updateTable('tasks')
      .set({ timerAutoStopped: 0 })
      .where('userId', '=', userId)
      .where('id', '=', taskId)
      .execute();
    await trx
      .updateTable('users')
      .set({ timerTaskId: taskId, timerStartedAt: now })
      .where('id', '=', userId)
      .execute();
  });
}

/** Stops the user's timer if it runs on this task; stopping a task whose timer is not running changes nothing. */
export async function stopTimer(app: FastifyInstance, userId: string, taskId: string): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    const current = await lockedUser(trx, userId);
    if (current.timerTaskId !== taskId) return;
    await stopRunning(trx, current, app.now(), false);
  });
}
