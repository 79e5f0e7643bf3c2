import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, EventRow, TaskRow } from '../db/schema.js';
import { createEventsRepository } from '../plugins/app/events-repository.js';
import { createTasksRepository } from '../plugins/app/tasks-repository.js';
import { isUniqueViolation } from '../lib/db-errors.js';
import { HttpError, notFound } from '../lib/http-errors.js';
import { fieldError } from '../lib/input-rules.js';
import { newId } from '../lib/ids.js';
import {
  SERIES_LIMITS,
  hasOccurrenceAt,
  occurrenceId,
  parseOccurrenceId,
  ruleEndingBefore,
  ruleFrom,
  type SeriesShape,
} from '../lib/recurrence.js';
import { localDateAt, localHHMMAt } from '../lib/time-zone.js';
import {
  SINGLE_ITEM,
  eventOccurrence,
  eventShape,
  exdatesOf,
  isMaster,
  masterColumns,
  taskOccurrence,
  taskShape,
} from './series.js';

/**
 * Editing and deleting within a series, the calendar apps' way: this occurrence, this and following, or all. The
 * same for tasks and events; a `SeriesKind` says how each is stored.
 */

type Row = TaskRow | EventRow;
type Repository<R extends Row> = {
  find(userId: string, id: string): Promise<R | undefined>;
  create(row: R): Promise<R>;
  update(userId: string, id: string, changes: Partial<Omit<R, 'id' | 'userId'>>): Promise<R | undefined>;
  overridesOf(userId: string, seriesId: string): Promise<{ id: string; recurrenceAt: number }[]>;
  rekeyOverride(
    userId: string,
    id: string,
    to: { id: string; seriesId: string; recurrenceAt: number },
  ): Promise<void>;
  deleteOverrides(userId: string, seriesId: string, from?: number): Promise<void>;
  deleteOverrideAt(userId: string, seriesId: string, start: number): Promise<void>;
};

export interface SeriesKind<R extends Row> {
  repository: Repository<R>;
  occurrenceOf(master: R, start: number): R;
  shape(master: R): SeriesShape;
  /** A row's time columns for a new start and end (a task also has its local day and clock times). */
  retimed(row: R, startAt: number, endAt: number): Partial<R>;
  /** The columns a series' occurrences share, which an 'all' edit copies to every override. */
  sharedColumns(row: R): Partial<R>;
  /** The columns that are one occurrence's own state, which a series edit never changes. */
  stateColumns: readonly (keyof R)[];
  /** What a row made from a series' master must not inherit (an imported event's UID key is its master's alone). */
  notInherited: Partial<R>;
  /** Runs `work` in one transaction, on this kind bound to it: a failure midway leaves every row as it was. */
  transaction<T>(work: (kind: SeriesKind<R>) => Promise<T>): Promise<T>;
  /** What the repository writes through: the database, or the transaction this kind is bound to. */
  db: Kysely<Database>;
}

export function taskSeries(app: FastifyInstance, db: Kysely<Database> = app.db): SeriesKind<TaskRow> {
  return {
    repository: db === app.db ? app.tasksRepository : createTasksRepository(db, app.config.quotas.tasks),
    // Kysely nests no transactions: one already bound runs the work in itself.
    transaction: (work) =>
      db.isTransaction
        ? work(taskSeries(app, db))
        : db.transaction().execute((trx) => work(taskSeries(app, trx))),
    db,
    occurrenceOf: taskOccurrence,
    shape: taskShape,
    retimed: (row, startAt, endAt) => {
      if (row.scheduled === 0)
        return { startAt, endAt: startAt, date: localDateAt(row.seriesZone ?? 'UTC', startAt) };
      const zone = row.seriesZone ?? 'UTC';
      return {
        startAt,
        endAt,
        date: localDateAt(zone, startAt),
        startHhmm: localHHMMAt(zone, startAt),
        endHhmm: localHHMMAt(zone, endAt),
      };
    },
    sharedColumns: ({
      title,
      categoryId,
      notes,
      estimateMinutes,
      isEvent,
      isReminder,
      carryover,
      rrule,
    }) => ({
      title,
      categoryId,
      notes,
      estimateMinutes,
      isEvent,
      isReminder,
      carryover,
      rrule,
    }),
    stateColumns: ['done', 'dismissed', 'trackedMinutes', 'timerAutoStopped'],
    notInherited: {},
  };
}

export function eventSeries(app: FastifyInstance, db: Kysely<Database> = app.db): SeriesKind<EventRow> {
  return {
    repository: db === app.db ? app.eventsRepository : createEventsRepository(db, app.config.quotas.events),
    // Kysely nests no transactions: one already bound runs the work in itself.
    transaction: (work) =>
      db.isTransaction
        ? work(eventSeries(app, db))
        : db.transaction().execute((trx) => work(eventSeries(app, trx))),
    db,
    occurrenceOf: eventOccurrence,
    shape: eventShape,
    retimed: (_row, startAt, endAt) => ({ startAt, endAt }),
    sharedColumns: ({ title, categoryId, allDay, rrule }) => ({ title, categoryId, allDay, rrule }),
    stateColumns: [],
    notInherited: { icsKey: null },
  };
}

/** What an id names: a single item, a series (its master), or one occurrence (saved as an override, or not yet). */
export interface Resolved<R extends Row> {
  row: R;
  master: R | null;
  /** An occurrence that has no row of its own yet. */
  virtual: boolean;
}

export async function resolveItem<R extends Row>(
  kind: SeriesKind<R>,
  userId: string,
  id: string,
): Promise<Resolved<R> | undefined> {
  const row = await kind.repository.find(userId, id);
  if (row) {
    if (isMaster(row)) return { row, master: row, virtual: false };
    const master = row.seriesId ? ((await kind.repository.find(userId, row.seriesId)) ?? null) : null;
    return { row, master, virtual: false };
  }
  const named = parseOccurrenceId(id);
  if (!named) return undefined;
  const master = await kind.repository.find(userId, named.seriesId);
  if (!master || !isMaster(master) || !hasOccurrenceAt(kind.shape(master), named.start)) return undefined;
  return { row: kind.occurrenceOf(master, named.start), master, virtual: true };
}

/** The occurrence a request addressed, as a row: a master stands for its first occurrence. */
export function occurrenceRow<R extends Row>(kind: SeriesKind<R>, resolved: Resolved<R>): R {
  const { row } = resolved;
  return isMaster(row) ? kind.occurrenceOf(row, row.startAt) : row;
}

async function saveMaster<R extends Row>(
  kind: SeriesKind<R>,
  userId: string,
  master: R,
  changes: { rrule: string; startAt: number; durationMs: number; allDay: boolean; exdates: number[] },
  shared: Partial<R>,
  now: number,
): Promise<R> {
  const columns = await masterColumns(
    changes.rrule,
    {
      startAt: changes.startAt,
      durationMs: changes.durationMs,
      allDay: changes.allDay,
      zone: master.seriesZone!,
    },
    changes.exdates.filter((start) => start >= changes.startAt),
  );
  const retimed = kind.retimed(master, changes.startAt, changes.startAt + changes.durationMs);
  const updated = await kind.repository.update(userId, master.id, {
    ...shared,
    ...retimed,
    ...columns,
    updatedAt: now,
  } as Partial<R>);
  if (!updated) throw notFound('Not found');
  return updated;
}

/**
 * Applies an edit of one occurrence (`edited`: the occurrence as it should read afterwards) to the scope asked.
 * `rule`: the series' new rule, or undefined to keep it. Returns the row that now stands for the edited occurrence.
 */
export async function editOccurrence<R extends Row>(
  kind: SeriesKind<R>,
  userId: string,
  resolved: Resolved<R> & { master: R },
  edited: R,
  scope: 'this' | 'following' | 'all',
  rule: string | undefined,
  now: number,
): Promise<R> {
  const { master } = resolved;
  const occurrence = occurrenceRow(kind, resolved);
  const originalStart = occurrence.recurrenceAt ?? occurrence.startAt;
  const ruleChanged = rule !== undefined && rule !== master.rrule;
  if (scope === 'this') {
    if (ruleChanged) {
      throw fieldError(
        'rrule',
        "Change the repeat rule of the whole series (scope 'all') or from here on ('following')",
      );
    }
    const own = {
      ...edited,
      ...(resolved.virtual || isMaster(resolved.row) ? kind.notInherited : {}),
      id: occurrence.id,
      seriesId: master.id,
      recurrenceAt: originalStart,
      updatedAt: now,
    };
    if (resolved.virtual || isMaster(resolved.row)) {
      try {
        return await kind.repository.create({ ...own, createdAt: now });
      } catch (error) {
        // Saved meanwhile by another request: edit that row instead.
        if (!isUniqueViolation(error)) throw error;
      }
    }
    const saved = await kind.repository.update(userId, occurrence.id, own as Partial<R>);
    if (!saved) throw notFound('Not found');
    return saved;
  }

  for (const column of kind.stateColumns) {
    if (edited[column] !== occurrence[column]) {
      throw fieldError(
        String(column),
        `${String(column)} belongs to one occurrence: send it with scope 'this' (the default)`,
      );
    }
  }
  return kind.transaction((bound) =>
    editSeries(bound, userId, master, { occurrence, edited, originalStart, scope, rule }, now),
  );
}

/** A 'following' or 'all' edit: the split, the master and its overrides, written by the caller's one transaction. */
async function editSeries<R extends Row>(
  kind: SeriesKind<R>,
  userId: string,
  master: R,
  edit: {
    occurrence: R;
    edited: R;
    originalStart: number;
    scope: 'following' | 'all';
    rule: string | undefined;
  },
  now: number,
): Promise<R> {
  const { occurrence, edited, originalStart, scope, rule } = edit;
  const delta = edited.startAt - occurrence.startAt;
  const durationMs = Math.max(0, edited.endAt - edited.startAt);
  const shared = kind.sharedColumns(edited);
  const allDay = 'allDay' in edited ? edited.allDay === 1 : edited.scheduled === 0;

  const splits = scope === 'following' && originalStart > master.startAt;
  const target = splits ? await splitSeries(kind, userId, master, originalStart, now) : master;

  if (rule === '') {
    // Repeats no more: the series (from here on, when split) becomes the single item the edited occurrence is.
    await kind.repository.deleteOverrides(userId, target.id);
    // The occurrence read as its series' master; what a row does not inherit stays the target's own (its UID key).
    const own = Object.fromEntries(
      Object.keys(kind.notInherited).map((name) => [name, target[name as keyof R]]),
    );
    const single = await kind.repository.update(userId, target.id, {
      ...edited,
      ...own,
      ...SINGLE_ITEM,
      id: undefined,
      userId: undefined,
      createdAt: undefined,
      updatedAt: now,
    } as Partial<R>);
    if (!single) throw notFound('Not found');
    return single;
  }

  const exdates = exdatesOf(target).map((start) => start + delta);
  const saved = await saveMaster(
    kind,
    userId,
    target,
    {
      rrule: rule ?? target.rrule!,
      startAt: target.startAt + delta,
      durationMs,
      allDay,
      exdates,
    },
    shared,
    now,
  );
  await moveOverrides(
    kind,
    userId,
    target,
    saved,
    { delta, durationMs, shared, editedAt: originalStart },
    now,
  );
  const editedStart = originalStart + delta;
  return (
    (await kind.repository.find(userId, occurrenceId(saved.id, editedStart))) ??
    kind.occurrenceOf(saved, editedStart)
  );
}

/** Ends the series before `at` and starts a copy of it there, taking the later overrides with it: the copy. */
async function splitSeries<R extends Row>(
  kind: SeriesKind<R>,
  userId: string,
  master: R,
  at: number,
  now: number,
): Promise<R> {
  const shape = kind.shape(master);
  // A whole series of its own, its span included: a delete of the following occurrences keeps it as it is for Undo.
  const copy = await kind.repository.create({
    ...master,
    ...kind.notInherited,
    id: newId(),
    ...kind.retimed(master, at, at + master.occurrenceMs!),
    ...(await masterColumns(
      ruleFrom(shape, at),
      { startAt: at, durationMs: master.occurrenceMs!, allDay: shape.allDay, zone: master.seriesZone! },
      exdatesOf(master).filter((start) => start >= at),
    )),
    createdAt: now,
    updatedAt: now,
  } as R);
  for (const override of await kind.repository.overridesOf(userId, master.id)) {
    if (override.recurrenceAt < at) continue;
    await kind.repository.rekeyOverride(userId, override.id, {
      id: occurrenceId(copy.id, override.recurrenceAt),
      seriesId: copy.id,
      recurrenceAt: override.recurrenceAt,
    });
  }
  const ended = ruleEndingBefore(shape, at);
  for (const override of await kind.repository.overridesOf(userId, master.id)) {
    await kind.repository.update(userId, override.id, { rrule: ended } as Partial<R>);
  }
  await saveMaster(
    kind,
    userId,
    master,
    {
      rrule: ended,
      startAt: master.startAt,
      durationMs: master.occurrenceMs!,
      allDay: shape.allDay,
      exdates: exdatesOf(master).filter((start) => start < at),
    },
    {},
    now,
  );
  return copy;
}

/**
 * After a series edit: its overrides follow a time change (re-keyed to their new start; those still at their slot are
 * moved there too, those moved by hand keep their time). Of the shared fields, an override takes those it shares with
 * the series (it still reads as the series did before the edit); one it was given of its own (a title changed for that
 * occurrence alone) stays, as Google Calendar keeps an instance's own changes. The occurrence the edit was made on
 * takes them all: they are what it was edited to.
 */
async function moveOverrides<R extends Row>(
  kind: SeriesKind<R>,
  userId: string,
  before: R,
  master: R,
  edit: { delta: number; durationMs: number; shared: Partial<R>; editedAt: number },
  now: number,
): Promise<void> {
  const { delta, durationMs, shared, editedAt } = edit;
  for (const override of await kind.repository.overridesOf(userId, before.id)) {
    const row = await kind.repository.find(userId, override.id);
    if (!row) continue;
    const atSlot = row.startAt === override.recurrenceAt;
    const start = override.recurrenceAt + delta;
    const id = occurrenceId(master.id, start);
    if (delta !== 0)
      await kind.repository.rekeyOverride(userId, override.id, {
        id,
        seriesId: master.id,
        recurrenceAt: start,
      });
    const taken = (Object.keys(shared) as (keyof R)[]).filter(
      (name) => override.recurrenceAt === editedAt || row[name] === before[name],
    );
    await kind.repository.update(userId, id, {
      ...Object.fromEntries(taken.map((name) => [name, shared[name]])),
      rrule: master.rrule,
      ...(atSlot ? kind.retimed(row, start, start + durationMs) : {}),
      updatedAt: now,
    } as Partial<R>);
  }
}

/** Skips one occurrence of a series: its start joins the skipped ones and its override, if any, goes. */
export async function skipOccurrence<R extends Row>(
  kind: SeriesKind<R>,
  userId: string,
  master: R,
  start: number,
  now: number,
): Promise<boolean> {
  if (!hasOccurrenceAt(kind.shape(master), start)) {
    const overridden = (await kind.repository.overridesOf(userId, master.id)).some(
      (o) => o.recurrenceAt === start,
    );
    if (!overridden) return false;
  }
  const exdates = [...new Set([...exdatesOf(master), start])].sort((a, b) => a - b);
  if (exdates.length > SERIES_LIMITS.exdates) {
    throw new HttpError(409, `A series keeps at most ${SERIES_LIMITS.exdates} skipped occurrences`);
  }
  await kind.transaction(async (bound) => {
    await bound.repository.deleteOverrideAt(userId, master.id, start);
    await bound.repository.update(userId, master.id, {
      exdates: JSON.stringify(exdates),
      updatedAt: now,
    } as Partial<R>);
  });
  return true;
}

/** What a delete needs of a kind that repeats, without its row type (services/undoable-delete.ts). */
export interface SeriesDeletes {
  /** What the id names: nothing, a single item, a series, or an occurrence (with whether it has a row). */
  resolve(
    userId: string,
    id: string,
  ): Promise<
    | { is: 'single' }
    | { is: 'series'; seriesId: string }
    | { is: 'occurrence'; seriesId: string; start: number; saved: boolean }
    | undefined
  >;
  skip(userId: string, seriesId: string, start: number): Promise<boolean>;
  /**
   * Deletes the occurrence starting at `start` and every later one, in one transaction: the series is split there
   * (from its first occurrence, nothing is split) and `discard` deletes the part from `start` on, by its id, with the
   * transaction to write in. False when the series is gone or has no occurrence starting at `start`.
   */
  deleteFollowing(
    userId: string,
    seriesId: string,
    start: number,
    discard: (partId: string, trx: Kysely<Database>) => Promise<boolean>,
  ): Promise<boolean>;
  /** Brings a skipped occurrence back: the occurrence, or null when `id` names none. */
  unskip(userId: string, id: string): Promise<Row | null>;
}

export function seriesDeletes<R extends Row>(kind: SeriesKind<R>, now: () => number): SeriesDeletes {
  return {
    async resolve(userId, id) {
      const resolved = await resolveItem(kind, userId, id);
      if (!resolved) return undefined;
      const { master, row } = resolved;
      if (!master) return { is: 'single' };
      if (isMaster(row)) return { is: 'series', seriesId: master.id };
      return { is: 'occurrence', seriesId: master.id, start: row.recurrenceAt!, saved: !resolved.virtual };
    },
    async skip(userId, seriesId, start) {
      const master = await kind.repository.find(userId, seriesId);
      return master !== undefined && isMaster(master) && skipOccurrence(kind, userId, master, start, now());
    },
    deleteFollowing(userId, seriesId, start, discard) {
      return kind.transaction(async (bound) => {
        const master = await bound.repository.find(userId, seriesId);
        if (!master || !isMaster(master) || !hasOccurrenceAt(bound.shape(master), start)) return false;
        const part = start > master.startAt ? await splitSeries(bound, userId, master, start, now()) : master;
        return discard(part.id, bound.db);
      });
    },
    async unskip(userId, id) {
      const named = parseOccurrenceId(id);
      if (!named) return null;
      const master = await kind.repository.find(userId, named.seriesId);
      if (!master || !isMaster(master)) return null;
      const exdates = exdatesOf(master);
      if (!exdates.includes(named.start)) return null;
      const left = exdates.filter((start) => start !== named.start);
      await kind.repository.update(userId, master.id, {
        exdates: left.length > 0 ? JSON.stringify(left) : null,
        updatedAt: now(),
      } as Partial<R>);
      return kind.occurrenceOf(master, named.start);
    },
  };
}
