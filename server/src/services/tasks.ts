import type { FastifyInstance } from 'fastify';
import type { TaskRow, UserRow } from '../db/schema.js';
import { notFound } from '../lib/http-errors.js';
import { fieldError, requireCalendarDate, requireInstant, requireTitle } from '../lib/input-rules.js';
import { newId } from '../lib/ids.js';
import { SERIES_LIMITS } from '../lib/recurrence.js';
import {
  addDays,
  instantOfLocalTime,
  localDateAt,
  localDayBounds,
  localDaysBetween,
  localHHMMAt,
  startOfLocalDay,
  type InstantRange,
} from '../lib/time-zone.js';
import { byStart, createTasksRepository, type TasksRepository } from '../plugins/app/tasks-repository.js';
import { createUsersRepository } from '../plugins/app/users-repository.js';
import { toTaskJson, type CreateTaskBody, type Task, type UpdateTaskBody } from '../schemas/task.js';
import { editedCategoryId, ownCategoryId } from './categories.js';
import { SINGLE_ITEM, exdatesOf, expandTasks, isMaster, masterColumns } from './series.js';
import {
  editOccurrence,
  occurrenceRow,
  resolveItem,
  skipOccurrence,
  taskSeries,
  type Resolved,
  type SeriesKind,
} from './series-edits.js';
import { startTimer, stopTimer } from './timer.js';
import { setTrackedMinutes } from './time-entries.js';

// Tasks: where a task sits on the timeline (its day, clock times and instants), which tasks a day or a range lists,
// and the writes that span repositories (an edit that stops a timer, an occurrence saved as its series' override).
// The routes (routes/tasks) are a schema and a call into here.

export const TASK_NOT_FOUND = 'Task not found';

const END_AFTER_START = 'End time must be after start time';

function requireEndAfterStart(startAt: number, endAt: number): void {
  if (endAt <= startAt) throw fieldError('endHHMM', END_AFTER_START);
}

/**
 * Every instant a clock time names on a local day: one, none when the clocks skip it (they go forward), two when they
 * repeat it (they go back). A skipped time is refused with a message that says so.
 */
function instantsOfClockTime(
  zone: string,
  date: string,
  hhmm: string,
  field: 'startHHMM' | 'endHHMM',
): number[] {
  const first = instantOfLocalTime(zone, date, hhmm);
  const names = (instant: number) =>
    localHHMMAt(zone, instant) === hhmm && localDateAt(zone, instant) === date;
  if (!names(first)) {
    throw fieldError(
      field,
      `${hhmm} does not exist on ${date} in ${zone}: the clocks go forward that night and skip it. Choose a time before or after the change`,
    );
  }
  // A repeated hour is 60 minutes in most zones, 30 in a few (Lord Howe).
  const again = [30, 60].map((minutes) => first + minutes * MINUTE_MS).find(names);
  return again === undefined ? [first] : [first, again];
}

/**
 * A task's instants from its day and clock times. An end clock time earlier than the start ends on the next day
 * (23:00 -> 01:00 is two hours); equal times are no span at all. On the night the clocks go back, a time they repeat
 * is read as the occurrence that makes the block as long as the times written (02:30 -> 03:00 is 30 minutes); a block
 * across the change itself lasts the real time (00:00 -> 03:00 is four hours when an hour repeats).
 */
export function taskSpanOf(zone: string, date: string, startHHMM: string, endHHMM: string) {
  if (startHHMM === endHHMM) throw fieldError('endHHMM', END_AFTER_START);
  const endDate = endHHMM < startHHMM ? addDays(date, 1) : date;
  const clockMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
  const writtenMs = ((((clockMinutes(endHHMM) - clockMinutes(startHHMM)) % 1440) + 1440) % 1440) * MINUTE_MS;
  const starts = instantsOfClockTime(zone, date, startHHMM, 'startHHMM');
  const ends = instantsOfClockTime(zone, endDate, endHHMM, 'endHHMM');
  let span: { startAt: number; endAt: number } | null = null;
  for (const startAt of starts) {
    for (const endAt of ends) {
      if (endAt <= startAt) continue;
      const miss = Math.abs(endAt - startAt - writtenMs);
      if (span === null || miss < Math.abs(span.endAt - span.startAt - writtenMs)) span = { startAt, endAt };
    }
  }
  if (span === null) throw fieldError('endHHMM', END_AFTER_START);
  return span;
}

const flag = (value: boolean | undefined, fallback: number) =>
  value === undefined ? fallback : value ? 1 : 0;

const BOTH_TIMES_OR_ESTIMATE = 'Give both startHHMM and endHHMM, or leave both out and give estimateMinutes';
const MINUTE_MS = 60_000;

/** Where an unscheduled task sits on the timeline: a point at the start of its day, which no figure counts. */
export function unscheduledSpanOf(zone: string, date: string) {
  const at = startOfLocalDay(zone, date);
  return { startHhmm: '', endHhmm: '', startAt: at, endAt: at, scheduled: 0 };
}

/** A block's length as an estimate: whole minutes, 1 to 1440. */
export const estimateOfSpan = (startAt: number, endAt: number) =>
  Math.min(1440, Math.max(1, Math.round((endAt - startAt) / MINUTE_MS)));

export type Placement = Pick<
  TaskRow,
  'date' | 'startHhmm' | 'endHhmm' | 'startAt' | 'endAt' | 'scheduled' | 'estimateMinutes'
>;

/**
 * Where an edit puts a task: rescheduled by its wall-clock fields or its instants, unscheduled by null times, moved to
 * another day while unscheduled, or left alone. An unscheduled task given only a start lasts its estimate.
 */
export function placementOf(zone: string, existing: TaskRow, body: UpdateTaskBody): Placement {
  const estimateMinutes =
    body.estimateMinutes === undefined ? existing.estimateMinutes : body.estimateMinutes;
  const { date, startHhmm, endHhmm, startAt, endAt, scheduled } = existing;
  const current: Placement = { date, startHhmm, endHhmm, startAt, endAt, scheduled, estimateMinutes };
  // '' is how an unscheduled task reads its times, so a task sent back whole keeps its state.
  const startSent = body.startHHMM === '' ? null : body.startHHMM;
  const endSent = body.endHHMM === '' ? null : body.endHHMM;
  if (startSent === null && endSent === null && existing.scheduled === 0) return current;
  if (startSent === null || endSent === null) {
    if (startSent !== null || endSent !== null) {
      throw fieldError('startHHMM', 'Clear both startHHMM and endHHMM to unschedule a task');
    }
    const date = requireCalendarDate(body.date ?? existing.date);
    const estimate =
      estimateMinutes ?? (existing.scheduled ? estimateOfSpan(existing.startAt, existing.endAt) : null);
    return { ...unscheduledSpanOf(zone, date), date, estimateMinutes: estimate };
  }
  const unscheduled = existing.scheduled === 0;
  if (body.date !== undefined || startSent !== undefined || endSent !== undefined) {
    const date = requireCalendarDate(body.date ?? existing.date);
    if (unscheduled && startSent === undefined && endSent === undefined) {
      return { ...current, ...unscheduledSpanOf(zone, date), date };
    }
    const startHhmm = startSent ?? existing.startHhmm;
    if (unscheduled && endSent === undefined) {
      if (!estimateMinutes) throw fieldError('endHHMM', BOTH_TIMES_OR_ESTIMATE);
      const startAt = instantOfLocalTime(zone, date, startHhmm);
      const endAt = startAt + estimateMinutes * MINUTE_MS;
      return {
        date,
        startHhmm,
        endHhmm: localHHMMAt(zone, endAt),
        startAt,
        endAt,
        scheduled: 1,
        estimateMinutes,
      };
    }
    const endHhmm = endSent ?? existing.endHhmm;
    if (startHhmm === '' || endHhmm === '') throw fieldError('startHHMM', BOTH_TIMES_OR_ESTIMATE);
    return {
      date,
      startHhmm,
      endHhmm,
      ...taskSpanOf(zone, date, startHhmm, endHhmm),
      scheduled: 1,
      estimateMinutes,
    };
  }
  if (body.start !== undefined || body.end !== undefined) {
    const startAt = body.start === undefined ? existing.startAt : requireInstant(body.start, 'start', zone);
    let endAt = body.end === undefined ? existing.endAt : requireInstant(body.end, 'end', zone);
    if (unscheduled && body.end === undefined) {
      if (!estimateMinutes) throw fieldError('end', 'Give end, or an estimate, to schedule this task');
      endAt = startAt + estimateMinutes * MINUTE_MS;
    }
    requireEndAfterStart(startAt, endAt);
    return scheduledPlacement(zone, startAt, endAt, estimateMinutes);
  }
  return current;
}

type Span = Pick<TaskRow, 'scheduled' | 'startAt' | 'endAt'>;

/** A scheduled task's block overlaps [from, to): it is on the timeline then (an unscheduled task never is). */
export const blockOverlaps = (task: Span, from: number, to: number): boolean =>
  task.scheduled === 1 && task.endAt > from && task.startAt < to;

/**
 * The one membership rule (DEFINITIONS.membership): a scheduled task belongs to the local days its block overlaps in
 * the reader's zone, wherever it was planned; an unscheduled task (or an unscheduled series' occurrence) to the day it
 * is dated.
 */
export const isOnDay = (task: Span & Pick<TaskRow, 'date'>, date: string, bounds: InstantRange): boolean =>
  task.scheduled === 1 ? blockOverlaps(task, bounds.start, bounds.end) : task.date === date;

/** Which of a day's tasks a list shows: its scheduled ones or its unscheduled ones, and done, pending or both. */
export interface DayFilter {
  scheduled: boolean;
  /** true: done only; false: pending only (neither done nor dismissed); undefined: both. */
  done?: boolean;
}

/**
 * A local day's tasks in `zone`, sorted by start: those dated that day and the scheduled ones whose block overlaps
 * it, with series replaced by their occurrences. `tasks` reads them: the app's repository, or one bound to a
 * transaction.
 */
export async function tasksOfDay(
  app: FastifyInstance,
  userId: string,
  zone: string,
  date: string,
  filter: DayFilter,
  tasks: TasksRepository = app.tasksRepository,
): Promise<TaskRow[]> {
  const bounds = localDayBounds(zone, date);
  const rows = await tasks.listForDate(userId, date, { ...filter, bounds });
  const read = await expandTasks(app, userId, rows, { from: bounds.start, to: bounds.end }, tasks);
  // The repository filters its rows; the occurrences the series gave are filtered here, by the same rules.
  return read
    .filter(
      (task) =>
        task.scheduled === (filter.scheduled ? 1 : 0) &&
        isOnDay(task, date, bounds) &&
        (filter.done === undefined ||
          (filter.done ? task.done === 1 : task.done === 0 && task.dismissed === 0)),
    )
    .sort(byStart);
}

/**
 * The tasks of the local days [from, to) in `zone`, sorted by start (the calendar's read): scheduled tasks whose
 * block overlaps them and unscheduled tasks dated in them, dismissed ones included.
 */
export async function tasksInRange(
  app: FastifyInstance,
  userId: string,
  zone: string,
  from: string,
  to: string,
): Promise<TaskRow[]> {
  const range = {
    from: startOfLocalDay(zone, from),
    to: startOfLocalDay(zone, to),
    fromDate: from,
    toDate: addDays(to, -1),
  };
  const rows = await app.tasksRepository.listForRange(userId, range);
  const ids = new Set<string>();
  const read = await expandTasks(
    app,
    userId,
    rows.filter((task) => !ids.has(task.id) && ids.add(task.id)),
    range,
  );
  return read
    .filter((task) =>
      task.scheduled === 1
        ? blockOverlaps(task, range.from, range.to)
        : task.date >= range.fromDate && task.date <= range.toDate,
    )
    .sort(byStart);
}

/** A new task: scheduled by its day and clock times, or unscheduled with an estimate; a series with `rrule`. */
export async function createTask(
  app: FastifyInstance,
  user: UserRow,
  zone: string,
  body: CreateTaskBody,
): Promise<TaskRow> {
  const date = requireCalendarDate(body.date ?? localDateAt(zone, app.now()));
  const title = requireTitle(body.title);
  const estimateMinutes = body.estimateMinutes ?? null;
  let placement: Omit<Placement, 'date' | 'estimateMinutes'>;
  if (body.startHHMM !== undefined && body.endHHMM !== undefined) {
    placement = {
      startHhmm: body.startHHMM,
      endHhmm: body.endHHMM,
      ...taskSpanOf(zone, date, body.startHHMM, body.endHHMM),
      scheduled: 1,
    };
  } else if (body.startHHMM === undefined && body.endHHMM === undefined && estimateMinutes !== null) {
    placement = unscheduledSpanOf(zone, date);
  } else {
    throw fieldError(body.startHHMM === undefined ? 'startHHMM' : 'endHHMM', BOTH_TIMES_OR_ESTIMATE);
  }
  const series =
    body.rrule === undefined
      ? SINGLE_ITEM
      : await masterColumns(body.rrule, {
          startAt: placement.startAt,
          durationMs: placement.endAt - placement.startAt,
          allDay: placement.scheduled === 0,
          zone,
        });
  const now = app.now();
  return app.tasksRepository.create({
    id: newId(),
    userId: user.id,
    title,
    categoryId: await ownCategoryId(app, user, body.categoryId),
    notes: body.notes ?? '',
    date,
    ...placement,
    estimateMinutes,
    trackedMinutes: 0,
    timerAutoStopped: 0,
    done: flag(body.done, 0),
    dismissed: 0,
    isEvent: flag(body.isEvent, 0),
    isReminder: flag(body.isReminder, 0),
    carryover: flag(body.carryover, 0),
    ...series,
    createdAt: now,
    updatedAt: now,
  });
}

/** The task as JSON, with the timer as the user's row holds it now. */
async function freshTaskJson(app: FastifyInstance, user: UserRow, task: TaskRow): Promise<Task> {
  const timer = (await app.usersRepository.findById(user.id)) ?? user;
  return toTaskJson(task, timer);
}

/**
 * An edit of a task, or of an occurrence of a series and, by `scope`, of the following or all occurrences (this by
 * default for an occurrence, all for a series' own id). Marking it done or dismissed, or correcting its tracked
 * minutes, stops its running timer first. Answers the task that now stands for the one edited.
 */
export async function editTask(
  app: FastifyInstance,
  user: UserRow,
  zone: string,
  id: string,
  body: UpdateTaskBody,
  scope: 'this' | 'following' | 'all' | undefined,
): Promise<Task> {
  const kind = taskSeries(app);
  const resolved = await resolveItem(kind, user.id, id);
  if (!resolved) throw notFound(TASK_NOT_FOUND);
  const existing = occurrenceRow(kind, resolved);
  if (body._id !== undefined && body._id !== existing.id && body._id !== id) {
    throw fieldError('_id', '_id must be the id of the task being edited');
  }
  const placement = placementOf(zone, existing, body);
  if (placement.scheduled === 0 && placement.estimateMinutes === null) {
    throw fieldError('estimateMinutes', 'An unscheduled task needs estimateMinutes (1 to 1440)');
  }
  const categoryId = await editedCategoryId(app, user, body.categoryId, existing.categoryId);
  const corrected = body.trackedMinutes !== undefined && body.trackedMinutes !== existing.trackedMinutes;
  const finished =
    (body.done === true && existing.done === 0) || (body.dismissed === true && existing.dismissed === 0);
  if (finished || corrected) await stopTimer(app, user.id, existing.id);
  // Re-read: stopping the timer may just have added its minutes.
  const current = (await app.tasksRepository.find(user.id, existing.id)) ?? existing;
  const now = app.now();
  const edited: TaskRow = {
    ...existing,
    title: body.title === undefined ? existing.title : requireTitle(body.title),
    categoryId,
    notes: body.notes ?? existing.notes,
    ...placement,
    trackedMinutes: current.trackedMinutes,
    timerAutoStopped: corrected ? 0 : current.timerAutoStopped,
    done: flag(body.done, existing.done),
    dismissed: flag(body.dismissed, existing.dismissed),
    isEvent: flag(body.isEvent, existing.isEvent),
    isReminder: flag(body.isReminder, existing.isReminder),
    carryover: flag(body.carryover, existing.carryover),
    updatedAt: now,
  };
  if (resolved.master) {
    const master = { ...resolved, master: resolved.master };
    const editScope = scope ?? (isMaster(resolved.row) ? 'all' : 'this');
    const saved = await editOccurrence(kind, user.id, master, edited, editScope, body.rrule, now);
    return freshTaskJson(
      app,
      user,
      corrected ? await correctTracked(app, user, zone, saved, body.trackedMinutes!) : saved,
    );
  }
  const series =
    body.rrule === undefined || body.rrule === ''
      ? {}
      : await masterColumns(body.rrule, {
          startAt: edited.startAt,
          durationMs: edited.endAt - edited.startAt,
          allDay: edited.scheduled === 0,
          zone,
        });
  const { id: _id, userId: _userId, createdAt: _createdAt, ...changes } = { ...edited, ...series };
  const task = await app.tasksRepository.update(user.id, existing.id, changes);
  if (!task) throw notFound(TASK_NOT_FOUND);
  return freshTaskJson(
    app,
    user,
    corrected ? await correctTracked(app, user, zone, task, body.trackedMinutes!) : task,
  );
}

/** A correction of trackedMinutes, recorded as entries (services/time-entries.ts, setTrackedMinutes). */
async function correctTracked(
  app: FastifyInstance,
  user: UserRow,
  zone: string,
  task: TaskRow,
  minutes: number,
): Promise<TaskRow> {
  await app.db.transaction().execute((trx) => setTrackedMinutes(app, trx, user, zone, task, minutes));
  return (await app.tasksRepository.find(user.id, task.id)) ?? task;
}

/** The occurrence a request named, saved as an override row when `save` and it has none yet. */
async function savedOccurrence(
  app: FastifyInstance,
  userId: string,
  resolved: Resolved<TaskRow>,
  save: boolean,
): Promise<TaskRow> {
  const kind = taskSeries(app);
  const occurrence = occurrenceRow(kind, resolved);
  if (!save || !resolved.master || !(resolved.virtual || isMaster(resolved.row))) return occurrence;
  const master = { ...resolved, master: resolved.master };
  return editOccurrence(kind, userId, master, occurrence, 'this', undefined, app.now());
}

/**
 * Starts or stops the task's timer. A timer runs on a task of its own: an occurrence not saved yet is saved first (a
 * series' own id stands for its first occurrence).
 */
export async function runTimer(
  app: FastifyInstance,
  user: UserRow,
  zone: string,
  id: string,
  action: 'start' | 'stop',
): Promise<Task> {
  const resolved = await resolveItem(taskSeries(app), user.id, id);
  if (!resolved) throw notFound(TASK_NOT_FOUND);
  const existing = await savedOccurrence(app, user.id, resolved, action === 'start');
  if (action === 'start') await startTimer(app, user, zone, existing.id);
  else await stopTimer(app, user.id, existing.id);
  const task = await app.tasksRepository.find(user.id, existing.id);
  if (!task) throw notFound(TASK_NOT_FOUND);
  return freshTaskJson(app, user, task);
}

/**
 * Where a task put back on `date` sits: at the same clock times in `zone`, its end as many days after its start as
 * before, so a block crossing midnight keeps its length. An unscheduled task moves to that day.
 */
function putBackPlacement(zone: string, task: TaskRow, date: string): Placement {
  const { estimateMinutes } = task;
  if (task.scheduled === 0) return { ...unscheduledSpanOf(zone, date), date, estimateMinutes };
  const days = localDaysBetween(localDateAt(zone, task.startAt), localDateAt(zone, task.endAt));
  const startAt = instantOfLocalTime(zone, date, localHHMMAt(zone, task.startAt));
  const endAtClock = instantOfLocalTime(zone, addDays(date, days), localHHMMAt(zone, task.endAt));
  // A clock time that a change to or from summer time skips can leave no span at all: then the length is kept.
  const endAt = endAtClock > startAt ? endAtClock : startAt + (task.endAt - task.startAt);
  return scheduledPlacement(zone, startAt, endAt, estimateMinutes);
}

/** A block's placement: its local day and clock times in `zone`. */
function scheduledPlacement(
  zone: string,
  startAt: number,
  endAt: number,
  estimateMinutes: number | null,
): Placement {
  return {
    date: localDateAt(zone, startAt),
    startHhmm: localHHMMAt(zone, startAt),
    endHhmm: localHHMMAt(zone, endAt),
    startAt,
    endAt,
    scheduled: 1,
    estimateMinutes,
  };
}

/**
 * The day's own occurrences that occurrences put back take the place of: of the same series, dated that day, not
 * themselves put back, and untouched (not done or dismissed, nothing tracked, no timer running, no notes, still at
 * their own slot, not a series' own row). One per series; none in a series that keeps as many skips as it may.
 */
async function occurrencesToReplace(
  app: FastifyInstance,
  tasks: TasksRepository,
  user: Pick<UserRow, 'id' | 'timerTaskId'>,
  zone: string,
  date: string,
  putBack: readonly Resolved<TaskRow>[],
  kind: SeriesKind<TaskRow>,
): Promise<TaskRow[]> {
  const fromSeries = putBack.filter(
    (resolved) => resolved.master && exdatesOf(resolved.master).length < SERIES_LIMITS.exdates,
  );
  if (fromSeries.length === 0) return [];
  const moving = new Set(putBack.flatMap((resolved) => [resolved.row.id, occurrenceRow(kind, resolved).id]));
  const listed: TaskRow[] = [];
  for (const scheduled of new Set(fromSeries.map((resolved) => resolved.row.scheduled === 1))) {
    listed.push(...(await tasksOfDay(app, user.id, zone, date, { scheduled }, tasks)));
  }
  const replaced = new Map<string, TaskRow>();
  for (const { master } of fromSeries) {
    if (replaced.has(master!.id)) continue;
    const own = listed.find(
      (candidate) =>
        candidate.seriesId === master!.id &&
        candidate.date === date &&
        !moving.has(candidate.id) &&
        candidate.done === 0 &&
        candidate.dismissed === 0 &&
        candidate.trackedMinutes === 0 &&
        candidate.id !== user.timerTaskId &&
        candidate.notes === '' &&
        !isMaster(candidate) &&
        candidate.recurrenceAt === candidate.startAt,
    );
    if (own) replaced.set(master!.id, own);
  }
  return [...replaced.values()];
}

/**
 * SPEC's Put Back, in one transaction: each task (or occurrence) named moves to `date` at the same clock times in
 * `zone`, not done. An occurrence of a series whose own occurrence that day is untouched takes its place: that one is
 * skipped once the move is written, so a daily task put back is on the day's list once, with what was tracked or
 * noted on it. An id that is not one of the user's tasks changes nothing (404). Answers the tasks as they now read.
 */
export async function putBackTasks(
  app: FastifyInstance,
  user: UserRow,
  zone: string,
  ids: readonly string[],
  date: string,
): Promise<Task[]> {
  requireCalendarDate(date);
  const now = app.now();
  return app.db.transaction().execute(async (trx) => {
    const kind = taskSeries(app, trx);
    const tasks = createTasksRepository(trx, app.config.quotas.tasks);
    const named = new Map<string, Resolved<TaskRow>>();
    for (const id of ids) {
      const resolved = await resolveItem(kind, user.id, id);
      if (!resolved) throw notFound(`${TASK_NOT_FOUND}: ${id}`);
      named.set(occurrenceRow(kind, resolved).id, resolved);
    }
    const putBack = [...named.values()];
    const timer = (await createUsersRepository(trx).findById(user.id)) ?? user;
    const replaced = await occurrencesToReplace(app, tasks, timer, zone, date, putBack, kind);
    const moved: TaskRow[] = [];
    for (const resolved of putBack) {
      const existing = occurrenceRow(kind, resolved);
      const edited: TaskRow = {
        ...existing,
        ...putBackPlacement(zone, existing, date),
        done: 0,
        updatedAt: now,
      };
      if (resolved.master) {
        const master = { ...resolved, master: resolved.master };
        moved.push(await editOccurrence(kind, user.id, master, edited, 'this', undefined, now));
        continue;
      }
      const { id, userId: _userId, createdAt: _createdAt, ...changes } = edited;
      const task = await tasks.update(user.id, id, changes);
      if (!task) throw notFound(`${TASK_NOT_FOUND}: ${id}`);
      moved.push(task);
    }
    for (const own of replaced) {
      const master = await tasks.find(user.id, own.seriesId!);
      if (master) await skipOccurrence(kind, user.id, master, own.recurrenceAt!, now);
    }
    const read: Task[] = [];
    for (const task of moved) read.push(toTaskJson((await tasks.find(user.id, task.id)) ?? task, timer));
    return read;
  });
}
