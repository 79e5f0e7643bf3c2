import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { UserRow } from '../../db/schema.js';
import { notFound } from '../../lib/http-errors.js';
import { fieldError, requireCalendarDate, requireInstant, requireTitle } from '../../lib/input-rules.js';
import { newId } from '../../lib/ids.js';
import { requireRoomFor } from '../../lib/quotas.js';
import { addDays, instantOfLocalTime, localDateAt, localHHMMAt } from '../../lib/time-zone.js';
import { signedInUser } from '../../plugins/app/authentication.js';
import { IdParams, bearerAuth } from '../../schemas/common.js';
import {
  CreateTaskBody,
  TaskList,
  TaskListQuery,
  TaskRef,
  TodayTasks,
  UpdateTaskBody,
  toTaskJson,
} from '../../schemas/task.js';
import { undoableDeleteRoutes } from '../../services/undoable-delete.js';
import { walletOfDay } from '../../services/wallet.js';

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

/** '' and null mean uncategorised; any other id must be one of the user's own categories. */
async function ownCategoryId(app: FastifyInstance, user: UserRow, categoryId: string | null | undefined) {
  if (categoryId === undefined || categoryId === null || categoryId === '') return null;
  const category = await app.categoriesRepository.find(user.id, categoryId);
  if (!category) throw fieldError('categoryId', 'Category not found: choose one of your categories');
  return category.id;
}

const flag = (value: boolean | undefined, fallback: number) =>
  value === undefined ? fallback : value ? 1 : 0;

const tasksRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['tasks'];

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: "One local day's tasks, sorted by start (GET /tasks/today for today with spent hours)",
        security: bearerAuth,
        querystring: TaskListQuery,
        response: { 200: TaskList },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const date = requireCalendarDate(request.query.date);
      const done = request.query.done === undefined ? undefined : request.query.done === 'true';
      const tasks = await app.tasksRepository.listForDate(user.id, date, done);
      return { tasks: tasks.map(toTaskJson) };
    },
  );

  app.get(
    '/today',
    {
      schema: {
        tags,
        summary: "Today's tasks and the wallet's spent hours (tasks plus events, clamped to today)",
        security: bearerAuth,
        response: { 200: TodayTasks },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const date = localDateAt(request.timeZone, app.now());
      const [tasks, wallet] = await Promise.all([
        app.tasksRepository.listForDate(user.id, date),
        walletOfDay(app, user, request.timeZone, date),
      ]);
      return { ...wallet, tasks: tasks.map(toTaskJson) };
    },
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        summary: 'Create a task; start and end are date + HH:MM in the request time zone',
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
      const { startAt, endAt } = taskSpanOf(zone, date, body.startHHMM, body.endHHMM);
      requireRoomFor('tasks', app.config.quotas, await app.tasksRepository.countOf(user.id));
      const now = app.now();
      const task = await app.tasksRepository.create({
        id: newId(),
        userId: user.id,
        title,
        categoryId: await ownCategoryId(app, user, body.categoryId),
        startHhmm: body.startHHMM,
        endHhmm: body.endHHMM,
        notes: body.notes ?? '',
        date,
        startAt,
        endAt,
        done: flag(body.done, 0),
        dismissed: 0,
        isEvent: flag(body.isEvent, 0),
        isReminder: flag(body.isReminder, 0),
        carryover: flag(body.carryover, 0),
        createdAt: now,
        updatedAt: now,
      });
      return reply.code(201).send(toTaskJson(task));
    },
  );

  app.patch(
    '/:id',
    {
      config: { notFoundMessage: TASK_NOT_FOUND },
      schema: {
        tags,
        summary: 'Edit, toggle or put back a task',
        description:
          'Any subset of the fields. When date, startHHMM or endHHMM is sent, start and end are computed from them in the request time zone; when only start and/or end are sent (put back), date, startHHMM and endHHMM are derived from them.',
        security: bearerAuth,
        params: IdParams,
        body: UpdateTaskBody,
        response: { 200: TaskRef },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const { body } = request;
      const zone = request.timeZone;
      const existing = await app.tasksRepository.find(user.id, request.params.id);
      if (!existing) throw notFound(TASK_NOT_FOUND);
      if (body._id !== undefined && body._id !== existing.id) {
        throw fieldError('_id', '_id must be the id of the task being edited');
      }

      let { date, startHhmm, endHhmm, startAt, endAt } = existing;
      if (body.date !== undefined || body.startHHMM !== undefined || body.endHHMM !== undefined) {
        date = requireCalendarDate(body.date ?? existing.date);
        startHhmm = body.startHHMM ?? existing.startHhmm;
        endHhmm = body.endHHMM ?? existing.endHhmm;
        ({ startAt, endAt } = taskSpanOf(zone, date, startHhmm, endHhmm));
      } else if (body.start !== undefined || body.end !== undefined) {
        startAt = body.start === undefined ? existing.startAt : requireInstant(body.start, 'start', zone);
        endAt = body.end === undefined ? existing.endAt : requireInstant(body.end, 'end', zone);
        date = localDateAt(zone, startAt);
        startHhmm = localHHMMAt(zone, startAt);
        endHhmm = localHHMMAt(zone, endAt);
      }
      requireEndAfterStart(startAt, endAt);

      // An unchanged id may point at a deleted category: editing other fields must still work.
      const categoryId =
        body.categoryId === undefined || (body.categoryId !== null && body.categoryId === existing.categoryId)
          ? existing.categoryId
          : await ownCategoryId(app, user, body.categoryId);

      const task = await app.tasksRepository.update(user.id, existing.id, {
        title: body.title === undefined ? existing.title : requireTitle(body.title),
        categoryId,
        notes: body.notes ?? existing.notes,
        date,
        startHhmm,
        endHhmm,
        startAt,
        endAt,
        done: flag(body.done, existing.done),
        dismissed: flag(body.dismissed, existing.dismissed),
        isEvent: flag(body.isEvent, existing.isEvent),
        isReminder: flag(body.isReminder, existing.isReminder),
        carryover: flag(body.carryover, existing.carryover),
        updatedAt: app.now(),
      });
      if (!task) throw notFound(TASK_NOT_FOUND);
      return toTaskJson(task);
    },
  );

  await app.register(
    undoableDeleteRoutes({
      kind: 'tasks',
      noun: 'task',
      notFoundMessage: TASK_NOT_FOUND,
      toJson: toTaskJson,
      response: TaskRef,
    }),
  );
};

export default tasksRoutes;
