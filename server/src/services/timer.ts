import type { FastifyInstance } from 'fastify';
import type { UserRow } from '../db/schema.js';
import { HttpError, notFound } from '../lib/http-errors.js';
import { TIMER_LIMIT_MS, insertEntry, recountTracked, runningEntryOf, type Db } from './time-entries.js';

export { TIMER_LIMIT_MS };

// One timer per person: its running time entry (the one without an end), which the user's row points at (which task,
// since when) so that every request knows it without a read. Starting opens an entry, stopping closes it; the two are
// written together in one transaction.

/**
 * Closes the running entry at `stoppedAt` (at most its 12-hour stop). A run shorter than a second records nothing.
 * Returns the task it ran on.
 */
export async function closeRunningEntry(
  db: Db,
  userId: string,
  stoppedAt: number,
  automatically = false,
): Promise<string | null> {
  const running = await runningEntryOf(db, userId);
  await db
    .updateTable('users')
    .set({ timerTaskId: null, timerStartedAt: null })
    .where('id', '=', userId)
    .execute();
  if (!running) return null;
  // Stored to the second, as long as the counter showed: the run's whole seconds from its start's second. A run
  // under a second records nothing.
  const ranUntil = Math.min(running.startAt + TIMER_LIMIT_MS, Math.max(running.startAt, stoppedAt));
  const startAt = Math.floor(running.startAt / 1000) * 1000;
  const endAt = startAt + Math.floor((ranUntil - running.startAt) / 1000) * 1000;
  if (endAt === startAt) {
    await db.deleteFrom('timeEntries').where('userId', '=', userId).where('id', '=', running.id).execute();
  } else {
    await db
      .updateTable('timeEntries')
      .set({ startAt, endAt, updatedAt: stoppedAt })
      .where('userId', '=', userId)
      .where('id', '=', running.id)
      .execute();
  }
  await db
    .updateTable('tasks')
    .set({ timerAutoStopped: automatically ? 1 : 0, updatedAt: stoppedAt })
    .where('userId', '=', userId)
    .where('id', '=', running.taskId)
    .execute();
  await recountTracked(db, userId, [running.taskId]);
  return running.taskId;
}

/**
 * Stops a timer that has run 12 hours, at 12 hours, and marks its task (timerAutoStopped). Called on every signed-in
 * request (routes/autohooks.ts) before any figure is read; costs nothing unless a timer is past its limit.
 */
export async function settleExpiredTimer(app: FastifyInstance, user: UserRow): Promise<UserRow> {
  if (user.timerStartedAt === null || app.now() - user.timerStartedAt < TIMER_LIMIT_MS) return user;
  await app.db.transaction().execute(async (trx) => {
    const running = await runningEntryOf(trx, user.id);
    if (!running || app.now() - running.startAt < TIMER_LIMIT_MS) return;
    await closeRunningEntry(trx, user.id, running.startAt + TIMER_LIMIT_MS, true);
  });
  return { ...user, timerTaskId: null, timerStartedAt: null };
}

/**
 * Starts the timer on a task of the user's, stopping the one that ran (if another). Idempotent on the same task.
 * A dismissed task cannot be timed (409): it is off every list, so its time would grow unseen.
 */
export async function startTimer(
  app: FastifyInstance,
  user: Pick<UserRow, 'id'>,
  zone: string,
  taskId: string,
): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    const running = await runningEntryOf(trx, user.id);
    if (running?.taskId === taskId) return;
    const task = await trx
      .selectFrom('tasks')
      .select(['id', 'dismissed'])
      .where('userId', '=', user.id)
      .where('id', '=', taskId)
      .executeTakeFirst();
    if (!task) throw notFound('Task not found');
    if (task.dismissed === 1) {
      throw new HttpError(409, 'This task is put aside: bring it back before timing it');
    }
    const now = app.now();
    await closeRunningEntry(trx, user.id, now);
    await insertEntry(app, trx, user, zone, { taskId, startAt: now, endAt: null, source: 'timer' });
    await trx
      .updateTable('tasks')
      .set({ timerAutoStopped: 0 })
      .where('userId', '=', user.id)
      .where('id', '=', taskId)
      .execute();
    await trx
      .updateTable('users')
      .set({ timerTaskId: taskId, timerStartedAt: now })
      .where('id', '=', user.id)
      .execute();
  });
}

/** Stops the user's timer if it runs on this task; stopping a task whose timer is not running changes nothing. */
export async function stopTimer(
  app: FastifyInstance,
  userId: string,
  taskId: string,
  db: Db = app.db,
): Promise<void> {
  const stop = async (trx: Db) => {
    const running = await runningEntryOf(trx, userId);
    if (running?.taskId !== taskId) return;
    await closeRunningEntry(trx, userId, app.now());
  };
  if (db !== app.db) await stop(db);
  else await app.db.transaction().execute(stop);
}

/** Before a task (or a series with its occurrences) is deleted: its running timer stops now. */
export async function stopTimerOfDeleted(app: FastifyInstance, userId: string, id: string): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    const running = await runningEntryOf(trx, userId);
    if (!running) return;
    const task = await trx
      .selectFrom('tasks')
      .select(['id', 'seriesId'])
      .where('userId', '=', userId)
      .where('id', '=', running.taskId)
      .executeTakeFirst();
    if (task && (task.id === id || task.seriesId === id)) await closeRunningEntry(trx, userId, app.now());
  });
}
