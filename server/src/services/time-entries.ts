import type { FastifyInstance } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Database, TaskRow, TimeEntryRow, UserRow } from '../db/schema.js';
import { HttpError, notFound } from '../lib/http-errors.js';
import { fieldError, requireInstant } from '../lib/input-rules.js';
import { newId } from '../lib/ids.js';
import { requireRoom } from '../lib/quotas.js';
import { addDays, localDateAt, localHHMMAt } from '../lib/time-zone.js';
import { overlapping } from '../plugins/app/time-entries-repository.js';
import {
  TIME_ENTRY_MAX_MS,
  type CreateTimeEntryBody,
  type UpdateTimeEntryBody,
} from '../schemas/time-entry.js';

// Tracked time as intervals (docs/product.md, "Tracked time"). Every write of an entry happens here, in one
// transaction with the checks that keep one person's entries apart and the task's trackedMinutes equal to the sum of
// its closed entries. The timer (services/timer.ts) opens and closes entries through the same functions.

export type Db = Kysely<Database> | Transaction<Database>;

const MINUTE_MS = 60_000;
/** A timer left running stops itself after this long, and a running one counts up to it. */
export const TIMER_LIMIT_MS = 12 * 60 * MINUTE_MS;
export const TIME_ENTRY_NOT_FOUND = 'Time entry not found';
const TASK_NOT_FOUND = 'Task not found';

/** Where a running entry ends for every figure: now, or its 12-hour stop when it has passed. */
export const effectiveEndOf = (entry: Pick<TimeEntryRow, 'startAt' | 'endAt'>, now: number): number =>
  entry.endAt ?? Math.max(entry.startAt, Math.min(now, entry.startAt + TIMER_LIMIT_MS));

/** Instants are kept to the second: what a counter showed is what is stored. */
const toSecond = (instant: number) => Math.floor(instant / 1000) * 1000;

/** The person's entries overlapping [from, to), by start. */
export function entriesOverlapping(db: Db, userId: string, from: number, to: number) {
  return db
    .selectFrom('timeEntries')
    .selectAll()
    .where('userId', '=', userId)
    .where(overlapping(from, from - TIME_ENTRY_MAX_MS, to))
    .orderBy('startAt')
    .orderBy('id');
}

/** The running entry, if any. */
export function runningEntryOf(db: Db, userId: string): Promise<TimeEntryRow | undefined> {
  return db
    .selectFrom('timeEntries')
    .selectAll()
    .where('userId', '=', userId)
    .where('endAt', 'is', null)
    .executeTakeFirst();
}

/**
 * 409 when [startAt, endAt) overlaps another entry of the person's (a running one reaches up to now), naming the task
 * it overlaps and its times in the reader's zone.
 */
async function requireNoOverlap(
  db: Db,
  userId: string,
  startAt: number,
  endAt: number,
  now: number,
  zone: string,
  exceptId?: string,
): Promise<void> {
  const clashes = await entriesOverlapping(db, userId, startAt, endAt)
    .$if(exceptId !== undefined, (query) => query.where('id', '!=', exceptId!))
    .limit(5)
    .execute();
  const clash = clashes.find((entry) => effectiveEndOf(entry, now) > startAt || entry.endAt === null);
  if (!clash) return;
  const task = await db
    .selectFrom('tasks')
    .select('title')
    .where('userId', '=', userId)
    .where('id', '=', clash.taskId)
    .executeTakeFirst();
  const until = clash.endAt === null ? 'now (its timer runs)' : localHHMMAt(zone, clash.endAt);
  throw new HttpError(
    409,
    `This time overlaps the time tracked on "${task?.title ?? 'a deleted task'}" (${localHHMMAt(zone, clash.startAt)} to ${until}): one person's entries cannot overlap`,
  );
}

/** Sets each task's trackedMinutes to the sum of its closed entries, in whole minutes. */
export async function recountTracked(db: Db, userId: string, taskIds: Iterable<string>): Promise<void> {
  for (const taskId of new Set(taskIds)) {
    const sums = await db
      .selectFrom('timeEntries')
      .select((eb) => eb.fn.sum<number | string | null>(eb('endAt', '-', eb.ref('startAt'))).as('ms'))
      .where('userId', '=', userId)
      .where('taskId', '=', taskId)
      .where('endAt', 'is not', null)
      .executeTakeFirst();
    await db
      .updateTable('tasks')
      .set({ trackedMinutes: Math.round(Number(sums?.ms ?? 0) / MINUTE_MS) })
      .where('userId', '=', userId)
      .where('id', '=', taskId)
      .execute();
  }
}

async function taskOf(db: Db, userId: string, taskId: string): Promise<TaskRow> {
  const task = await db
    .selectFrom('tasks')
    .selectAll()
    .where('userId', '=', userId)
    .where('id', '=', taskId)
    .executeTakeFirst();
  if (!task) throw notFound(TASK_NOT_FOUND);
  return task;
}

function requireSpan(startAt: number, endAt: number, now: number): void {
  if (endAt <= startAt) throw fieldError('end', 'The end must be after the start');
  if (endAt - startAt > TIME_ENTRY_MAX_MS) throw fieldError('end', 'One entry holds at most 24 hours');
  if (endAt > now + MINUTE_MS) throw fieldError('end', 'Tracked time cannot end in the future');
}

async function requireRoomForEntry(app: FastifyInstance, db: Db, userId: string): Promise<void> {
  const counted = await db
    .selectFrom('timeEntries')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('userId', '=', userId)
    .executeTakeFirstOrThrow();
  requireRoom(app.config.quotas.timeEntries, Number(counted.count), 'time entries');
}

/** Inserts a closed or running entry after the checks every entry passes; the caller recounts. */
export async function insertEntry(
  app: FastifyInstance,
  db: Db,
  user: Pick<UserRow, 'id'>,
  zone: string,
  entry: { taskId: string; startAt: number; endAt: number | null; source: TimeEntryRow['source'] },
): Promise<TimeEntryRow> {
  const now = app.now();
  await requireRoomForEntry(app, db, user.id);
  await requireNoOverlap(
    db,
    user.id,
    entry.startAt,
    entry.endAt ?? Math.max(now, entry.startAt + 1),
    now,
    zone,
  );
  const row: TimeEntryRow = { id: newId(), userId: user.id, createdAt: now, updatedAt: now, ...entry };
  await db.insertInto('timeEntries').values(row).execute();
  return row;
}

export async function createEntry(
  app: FastifyInstance,
  user: UserRow,
  zone: string,
  body: CreateTimeEntryBody,
): Promise<TimeEntryRow> {
  const startAt = toSecond(requireInstant(body.start, 'start', zone));
  const endAt = toSecond(requireInstant(body.end, 'end', zone));
  requireSpan(startAt, endAt, app.now());
  return app.db.transaction().execute(async (trx) => {
    const task = await taskOf(trx, user.id, body.taskId);
    const row = await insertEntry(app, trx, user, zone, {
      taskId: task.id,
      startAt,
      endAt,
      source: 'manual',
    });
    await recountTracked(trx, user.id, [task.id]);
    return row;
  });
}

export async function updateEntry(
  app: FastifyInstance,
  user: UserRow,
  zone: string,
  id: string,
  body: UpdateTimeEntryBody,
): Promise<TimeEntryRow> {
  return app.db.transaction().execute(async (trx) => {
    const entry = await trx
      .selectFrom('timeEntries')
      .selectAll()
      .where('userId', '=', user.id)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!entry) throw notFound(TIME_ENTRY_NOT_FOUND);
    if (entry.endAt === null && body.end !== undefined) {
      throw fieldError('end', "This entry's timer is running: stop the timer to end it");
    }
    const task = body.taskId === undefined ? null : await taskOf(trx, user.id, body.taskId);
    const now = app.now();
    const startAt =
      body.start === undefined ? entry.startAt : toSecond(requireInstant(body.start, 'start', zone));
    const endAt = body.end === undefined ? entry.endAt : toSecond(requireInstant(body.end, 'end', zone));
    if (endAt === null) {
      if (startAt > now) throw fieldError('start', 'A running timer cannot start in the future');
    } else {
      requireSpan(startAt, endAt, now);
    }
    await requireNoOverlap(trx, user.id, startAt, endAt ?? Math.max(now, startAt + 1), now, zone, id);
    const updated: TimeEntryRow = {
      ...entry,
      taskId: task?.id ?? entry.taskId,
      startAt,
      endAt,
      source: 'manual',
      updatedAt: now,
    };
    await trx
      .updateTable('timeEntries')
      .set({ taskId: updated.taskId, startAt, endAt, source: updated.source, updatedAt: now })
      .where('userId', '=', user.id)
      .where('id', '=', id)
      .execute();
    if (endAt === null && updated.taskId !== entry.taskId) {
      await trx.updateTable('users').set({ timerTaskId: updated.taskId }).where('id', '=', user.id).execute();
    }
    if (endAt === null && startAt !== entry.startAt) {
      await trx.updateTable('users').set({ timerStartedAt: startAt }).where('id', '=', user.id).execute();
    }
    await recountTracked(trx, user.id, [entry.taskId, updated.taskId]);
    return updated;
  });
}

/**
 * PATCH /tasks/{id} { trackedMinutes } from clients that know tracked time as a number: the difference becomes
 * entries. More minutes add one manual entry of the difference, at the first free time from the task's start (its
 * day's start when unscheduled) on; fewer take the difference off the task's entries, the latest first (trimming
 * the end of the last one kept). Within the caller's transaction, after its running timer stopped.
 */
export async function setTrackedMinutes(
  app: FastifyInstance,
  db: Db,
  user: Pick<UserRow, 'id'>,
  zone: string,
  task: Pick<TaskRow, 'id' | 'startAt'>,
  minutes: number,
): Promise<void> {
  const entries = await db
    .selectFrom('timeEntries')
    .selectAll()
    .where('userId', '=', user.id)
    .where('taskId', '=', task.id)
    .where('endAt', 'is not', null)
    .orderBy('startAt', 'desc')
    .execute();
  const haveMs = entries.reduce((sum, entry) => sum + (entry.endAt! - entry.startAt), 0);
  const wantMs = minutes * MINUTE_MS;
  const now = app.now();
  if (wantMs > haveMs) {
    const length = wantMs - haveMs;
    // Tracked time has happened: from the task's start, or early enough to end by now.
    const startAt = await firstFreeFrom(db, user.id, Math.min(task.startAt, now - length), length, now);
    await insertEntry(app, db, user, zone, {
      taskId: task.id,
      startAt,
      endAt: startAt + length,
      source: 'manual',
    });
  } else if (wantMs < haveMs) {
    let cut = haveMs - wantMs;
    for (const entry of entries) {
      if (cut <= 0) break;
      const length = entry.endAt! - entry.startAt;
      if (length <= cut) {
        await db.deleteFrom('timeEntries').where('userId', '=', user.id).where('id', '=', entry.id).execute();
      } else {
        await db
          .updateTable('timeEntries')
          .set({ endAt: entry.endAt! - cut, source: 'manual', updatedAt: now })
          .where('userId', '=', user.id)
          .where('id', '=', entry.id)
          .execute();
      }
      cut -= length;
    }
  }
  await recountTracked(db, user.id, [task.id]);
}

/** The first instant at or after `from` with `length` free of the person's entries (a running one reaches now). */
async function firstFreeFrom(
  db: Db,
  userId: string,
  from: number,
  length: number,
  now: number,
): Promise<number> {
  let at = from;
  // Entries are disjoint, so one pass over those starting before the candidate's end finds the gap.
  for (;;) {
    const blocking = await entriesOverlapping(db, userId, at, at + length)
      .limit(50)
      .execute();
    if (blocking.length === 0) return at;
    at = Math.max(...blocking.map((entry) => effectiveEndOf(entry, now)), at + 1);
  }
}

/** The entries overlapping [from, to) as listed, at most the quota. */
export async function listEntries(
  app: FastifyInstance,
  userId: string,
  from: number,
  to: number,
): Promise<TimeEntryRow[]> {
  return entriesOverlapping(app.db, userId, from, to).limit(app.config.quotas.timeEntries).execute();
}

/**
 * Within the restore's transaction, with the entry back: its task must still exist, it must not overlap time
 * tracked since, and the account must be within its entries; then its task's total counts it again.
 */
export async function requireRestorable(
  app: FastifyInstance,
  db: Db,
  user: Pick<UserRow, 'id'>,
  zone: string,
  entry: TimeEntryRow,
): Promise<void> {
  await taskOf(db, user.id, entry.taskId);
  const counted = await db
    .selectFrom('timeEntries')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('userId', '=', user.id)
    .executeTakeFirstOrThrow();
  requireRoom(app.config.quotas.timeEntries + 1, Number(counted.count), 'time entries');
  await requireNoOverlap(db, user.id, entry.startAt, entry.endAt ?? app.now(), app.now(), zone, entry.id);
  await recountTracked(db, user.id, [entry.taskId]);
}

/** GET /insights/estimates: tracked against estimated per category, over done tasks of the last `weeks` weeks. */
export async function estimateInsights(app: FastifyInstance, userId: string, zone: string, weeks: number) {
  const today = localDateAt(zone, app.now());
  const since = addDays(today, -7 * weeks + 1);
  const rows = await app.db
    .selectFrom('tasks')
    .select(['categoryId', 'estimateMinutes', 'scheduled', 'startAt', 'endAt', 'trackedMinutes'])
    .where('userId', '=', userId)
    .where('done', '=', 1)
    .where('dismissed', '=', 0)
    .where('trackedMinutes', '>', 0)
    .where('date', '>=', since)
    .where('date', '<=', today)
    .where((eb) => eb.or([eb('estimateMinutes', 'is not', null), eb('scheduled', '=', 1)]))
    .limit(app.config.quotas.tasks)
    .execute();
  const byCategory = new Map<string, { tasks: number; estimateMinutes: number; trackedMinutes: number }>();
  for (const row of rows) {
    const estimate = row.estimateMinutes ?? Math.round((row.endAt - row.startAt) / MINUTE_MS);
    if (estimate <= 0) continue;
    const key = row.categoryId ?? '';
    const sums = byCategory.get(key) ?? { tasks: 0, estimateMinutes: 0, trackedMinutes: 0 };
    sums.tasks += 1;
    sums.estimateMinutes += estimate;
    sums.trackedMinutes += row.trackedMinutes;
    byCategory.set(key, sums);
  }
  return {
    categories: [...byCategory.entries()]
      .map(([categoryId, sums]) => ({
        categoryId,
        ...sums,
        ratio: Math.round((sums.trackedMinutes / sums.estimateMinutes) * 100) / 100,
      }))
      .sort((a, b) => b.tasks - a.tasks || a.categoryId.localeCompare(b.categoryId)),
  };
}
