import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { TaskRow, UserRow } from '../../db/schema.js';
import { notFound } from '../../lib/http-errors.js';
import {
  MAX_RANGE_DAYS,
  fieldError,
  requireCalendarDate,
  requireDayRange,
  requireInstant,
  requireTitle,
} from '../../lib/input-rules.js';
import { newId } from '../../lib/ids.js';
import {
  addDays,
  instantOfLocalTime,
  localDateAt,
  localDayBounds,
  localHHMMAt,
  startOfLocalDay,
} from '../../lib/time-zone.js';
import { signedInUser } from '../../plugins/app/authentication.js';
import { IdParams, NoBody, bearerAuth } from '../../schemas/common.js';
import { DayRangeQuery } from '../../schemas/event.js';
import {
  CreateTaskBody,
  TaskList,
  TaskListQuery,
  TaskRef,
  TodayTasks,
  UpdateTaskBody,
  toTaskJson,
} from '../../schemas/task.js';
import { editedCategoryId, ownCategoryId } from '../../services/categories.js';
import { todayOf } from '../../services/ledger.js';
import { SINGLE_ITEM, expandTasks, isMaster, masterColumns } from '../../services/series.js';
import {
  editOccurrence,
  occurrenceRow,
  resolveItem,
  seriesDeletes,
  taskSeries,
  type Resolved,
} from '../../services/series-edits.js';
import { EditScopeQuery } from '../../schemas/series.js';
import { byStart } from '../../plugins/app/tasks-repository.js';
import { startTimer, stopTimer } from '../../services/timer.js';
import { undoableDeleteRoutes } from '../../services/undoable-delete.js';

const TASK_NOT_FOUND = 'Task not found';

const END_AFTER_START = 'End time must be after start time';

function requireEndAfterStart(startAt: number, endAt: number): void {
  if (endAt <= startAt) throw fieldError('endHHMM', END_AFTER_START);
}

/**
 * A task's instants from its day and clock times. An end clock time earlier than the start ends on the next day
 * (23:00 -> 01:00 is two hours); equal times are no span at all.
 */
function taskSpanOf(zone: string, date: string, startHHMM: string, endHHMM: string) {
  if (startHHMM === endHHMM) throw fieldError('endHHMM', END_AFTER_START);
  const endDate = endHHMM < startHHMM ? addDays(date, 1) : date;
  const span = {
    startAt: instantOfLocalTime(zone, date, startHHMM),
    endAt: instantOfLocalTime(zone, endDate, endHHMM),
  };
  requireEndAfterStart(span.startAt, span.endAt);
  return span;
}

const flag = (value: boolean | undefined, fallback: number) =>
  value === undefined ? fallback : value ? 1 : 0;

const BOTH_TIMES_OR_ESTIMATE = 'Give both startHHMM and endHHMM, or leave both out and give estimateMinutes';
const MINUTE_MS = 60_000;

/** Where an unscheduled task sits on the timeline: a point at the start of its day, which no figure counts. */
function unscheduledSpanOf(zone: string, date: string) {
  const at = startOfLocalDay(zone, date);
  return { startHhmm: '', endHhmm: '', startAt: at, endAt: at, scheduled: 0 };
}

/** A block's length as an estimate: whole minutes, 1 to 1440. */
const estimateOfSpan = (startAt: number, endAt: number) =>
  Math.min(1440, Math.max(1, Math.round((endAt - startAt) / MINUTE_MS)));

type Placement = Pick<
  TaskRow,
  'date' | 'startHhmm' | 'endHhmm' | 'startAt' | 'endAt' | 'scheduled' | 'estimateMinutes'
>;

/**
 * Where an edit puts a task: rescheduled by its wall-clock fields or its instants, unscheduled by null times, moved to
 * another day while unscheduled, or left alone. An unscheduled task given only a start lasts its estimate.
 */
function placementOf(zone: string, existing: TaskRow, body: UpdateTaskBody): Placement {
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
  return current;
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

/** The task as JSON, with the timer as the user's row holds it now. */
async function freshTaskJson(app: FastifyInstance, user: UserRow, task: TaskRow) {
  const timer = (await app.usersRepository.findById(user.id)) ?? user;
  return toTaskJson(task, timer);
}

const tasksRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['tasks'];

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: "One local day's tasks, sorted by start (GET /tasks/today for today with its ledger)",
        description:
          "Lists the day's scheduled tasks: those dated that day and those whose block overlaps it in the request's time zone. scheduled=false lists the day's unscheduled tasks instead.",
        security: bearerAuth,
        querystring: TaskListQuery,
        response: { 200: TaskList },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const date = requireCalendarDate(request.query.date);
      const { done, scheduled } = request.query;
      const bounds = localDayBounds(request.timeZone, date);
      const options = {
        done: done === undefined ? undefined : done === 'true',
        scheduled: scheduled !== 'false',
        bounds,
      };
      const rows = await app.tasksRepository.listForDate(user.id, date, options);
      const read = await expandTasks(app, user.id, rows, { from: bounds.start, to: bounds.end });
      // The repository's filters again, for the occurrences the series gave.
      const tasks = read
        .filter(
          (task) =>
            task.scheduled === (options.scheduled ? 1 : 0) &&
            (task.date === date ||
              (task.scheduled === 1 && task.endAt > bounds.start && task.startAt < bounds.end)) &&
            (options.done === undefined ||
              (options.done ? task.done === 1 : task.done === 0 && task.dismissed === 0)),
        )
        .sort(byStart);
      return { tasks: tasks.map((task) => toTaskJson(task, user)) };
    },
  );

  app.get(
    '/today',
    {
      schema: {
        tags,
        summary:
          "Today's tasks and today's ledger: planned (spent), tracked, unscheduled, budget, remaining, over",
        security: bearerAuth,
        response: { 200: TodayTasks },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const { wallet, tasks } = await todayOf(app, user, request.timeZone);
      return { ...wallet, tasks: tasks.map((task) => toTaskJson(task, user)) };
    },
  );

  app.get(
    '/range',
    {
      schema: {
        tags,
        summary: `Tasks of the local days from (inclusive) to (exclusive), at most ${MAX_RANGE_DAYS} days: the calendar's read`,
        description:
          'Scheduled tasks whose block overlaps the range and unscheduled tasks dated in it, dismissed ones included (each says so), sorted by start.',
        security: bearerAuth,
        querystring: DayRangeQuery,
        response: { 200: TaskList },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const { from, to } = requireDayRange(request.query.from, request.query.to);
      const zone = request.timeZone;
      const range = {
        from: startOfLocalDay(zone, from),
        to: startOfLocalDay(zone, to),
        fromDate: from,
        toDate: addDays(to, -1),
      };
      const rows = await app.tasksRepository.listForRange(user.id, range);
      const ids = new Set<string>();
      const read = await expandTasks(
        app,
        user.id,
        rows.filter((task) => !ids.has(task.id) && ids.add(task.id)),
        range,
      );
      const tasks = read
        .filter((task) =>
          task.scheduled === 1
            ? task.endAt > range.from && task.startAt < range.to
            : task.date >= range.fromDate && task.date <= range.toDate,
        )
        .sort(byStart);
      return { tasks: tasks.map((task) => toTaskJson(task, user)) };
    },
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        summary:
          'Create a task: scheduled (date + startHHMM and endHHMM in the request time zone) or unscheduled (estimateMinutes, no times)',
        security: bearerAuth,
        body: CreateTaskBody,
        response: { 201: TaskRef },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const { body } = request;
      const zone = request.timeZone;
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
          : masterColumns(body.rrule, {
              startAt: placement.startAt,
              durationMs: placement.endAt - placement.startAt,
              allDay: placement.scheduled === 0,
              zone,
            });
      const now = app.now();
      const task = await app.tasksRepository.create({
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
      return reply.code(201).send(toTaskJson(task, user));
    },
  );

  app.patch(
    '/:id',
    {
      config: { notFoundMessage: TASK_NOT_FOUND },
      schema: {
        tags,
        summary:
          'Edit, toggle, schedule, unschedule, dismiss or put back a task, or an occurrence of a series (scope: this, following or all)',
        description:
          'Any subset of the fields. When date, startHHMM or endHHMM is sent, start and end are computed from them in the request time zone; when only start and/or end are sent (put back, or a drag on the grid), date, startHHMM and endHHMM are derived from them. An unscheduled task given only a start lasts its estimate. Marking a task done or dismissed, or correcting trackedMinutes, stops its running timer first.',
        security: bearerAuth,
        params: IdParams,
        querystring: EditScopeQuery,
        body: UpdateTaskBody,
        response: { 200: TaskRef },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const { body } = request;
      const kind = taskSeries(app);
      const resolved = await resolveItem(kind, user.id, request.params.id);
      if (!resolved) throw notFound(TASK_NOT_FOUND);
      const existing = occurrenceRow(kind, resolved);
      if (body._id !== undefined && body._id !== existing.id && body._id !== request.params.id) {
        throw fieldError('_id', '_id must be the id of the task being edited');
      }
      const placement = placementOf(request.timeZone, existing, body);
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
        trackedMinutes: corrected ? body.trackedMinutes! : current.trackedMinutes,
        timerAutoStopped: corrected ? 0 : current.timerAutoStopped,
        done: flag(body.done, existing.done),
        dismissed: flag(body.dismissed, existing.dismissed),
        isEvent: flag(body.isEvent, existing.isEvent),
        isReminder: flag(body.isReminder, existing.isReminder),
        carryover: flag(body.carryover, existing.carryover),
        updatedAt: now,
      };
      if (resolved.master) {
        const scope = request.query.scope ?? (isMaster(resolved.row) ? 'all' : 'this');
        const master = { ...resolved, master: resolved.master };
        const saved = await editOccurrence(kind, user.id, master, edited, scope, body.rrule, now);
        return freshTaskJson(app, user, saved);
      }
      const series =
        body.rrule === undefined || body.rrule === ''
          ? {}
          : masterColumns(body.rrule, {
              startAt: edited.startAt,
              durationMs: edited.endAt - edited.startAt,
              allDay: edited.scheduled === 0,
              zone: request.timeZone,
            });
      const { id: _id, userId: _userId, createdAt: _createdAt, ...changes } = { ...edited, ...series };
      const task = await app.tasksRepository.update(user.id, existing.id, changes);
      if (!task) throw notFound(TASK_NOT_FOUND);
      return freshTaskJson(app, user, task);
    },
  );

  for (const action of ['start', 'stop'] as const) {
    app.post(
      `/:id/timer/${action}`,
      {
        config: { notFoundMessage: TASK_NOT_FOUND },
        schema: {
          tags,
          summary:
            action === 'start'
              ? "Start the task's timer; the user's running timer on another task stops first (one runs per user)"
              : "Stop the task's timer, adding its minutes to trackedMinutes; nothing changes when it does not run",
          security: bearerAuth,
          params: IdParams,
          body: NoBody,
          response: { 200: TaskRef },
        },
      },
      async (request) => {
        const user = signedInUser(request);
        const resolved = await resolveItem(taskSeries(app), user.id, request.params.id);
        if (!resolved) throw notFound(TASK_NOT_FOUND);
        // A timer runs on a task of its own: an occurrence not saved yet is saved first (a series' own id stands for
        // its first occurrence).
        const existing = await savedOccurrence(app, user.id, resolved, action === 'start');
        await (action === 'start' ? startTimer : stopTimer)(app, user.id, existing.id);
        const task = await app.tasksRepository.find(user.id, existing.id);
        if (!task) throw notFound(TASK_NOT_FOUND);
        return freshTaskJson(app, user, task);
      },
    );
  }

  await app.register(
    undoableDeleteRoutes({
      kind: 'tasks',
      noun: 'task',
      notFoundMessage: TASK_NOT_FOUND,
      toJson: (task) => toTaskJson(task),
      response: TaskRef,
      series: (app) => seriesDeletes(taskSeries(app), () => app.now()),
    }),
  );
};

export default tasksRoutes;
