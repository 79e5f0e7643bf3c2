import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MAX_RANGE_DAYS, requireCalendarDate, requireDayRange } from '../../lib/input-rules.js';
import { signedInUser } from '../../plugins/app/authentication.js';
import { IdParams, NoBody, bearerAuth } from '../../schemas/common.js';
import { DayRangeQuery } from '../../schemas/event.js';
import {
  CreateTaskBody,
  PutBackBody,
  TaskList,
  TaskListQuery,
  TaskRef,
  TodayTasks,
  UpdateTaskBody,
  toTaskJson,
} from '../../schemas/task.js';
import { todayOf } from '../../services/ledger.js';
import { seriesDeletes, taskSeries } from '../../services/series-edits.js';
import { EditScopeQuery } from '../../schemas/series.js';
import {
  TASK_NOT_FOUND,
  createTask,
  editTask,
  putBackTasks,
  runTimer,
  tasksInRange,
  tasksOfDay,
} from '../../services/tasks.js';
import { undoableDeleteRoutes } from '../../services/undoable-delete.js';
import { stopTimerOfDeleted } from '../../services/timer.js';

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
      const { date, done, scheduled } = request.query;
      const tasks = await tasksOfDay(app, user.id, request.timeZone, requireCalendarDate(date), {
        done: done === undefined ? undefined : done === 'true',
        scheduled: scheduled !== 'false',
      });
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
      const tasks = await tasksInRange(app, user.id, request.timeZone, from, to);
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
      const task = await createTask(app, user, request.timeZone, request.body);
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
      const { id } = request.params;
      return editTask(app, user, request.timeZone, id, request.body, request.query.scope);
    },
  );

  app.post(
    '/put-back',
    {
      schema: {
        tags,
        summary:
          "Put tasks back on a day (SPEC's Put Back): the same clock times, not done, all in one transaction",
        description:
          "Each task or occurrence named moves to date at the same clock times in the request's time zone (a block crossing midnight keeps its length; an unscheduled task moves to that day) and is no longer done. An occurrence of a series whose own occurrence that day is untouched (not done or dismissed, nothing tracked, no timer running, no notes, still at its own slot) takes its place: that one is skipped, so a daily task put back is on the day's list once. One per series. Every id must name one of the user's tasks (404 naming it otherwise); a failure changes nothing. PATCH /tasks/{id} with start, end and done: false still puts back one task, without replacing.",
        security: bearerAuth,
        body: PutBackBody,
        response: { 200: TaskList },
      },
    },
    async (request) => {
      const { ids, date } = request.body;
      return { tasks: await putBackTasks(app, signedInUser(request), request.timeZone, ids, date) };
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
      async (request) => runTimer(app, signedInUser(request), request.timeZone, request.params.id, action),
    );
  }

  await app.register(
    undoableDeleteRoutes({
      kind: 'tasks',
      noun: 'task',
      notFoundMessage: TASK_NOT_FOUND,
      toJson: (task) => toTaskJson(task),
      response: TaskRef,
      // The time a task spends deleted is never tracked: its running timer stops at the delete.
      beforeDelete: (userId, id) => stopTimerOfDeleted(app, userId, id),
      series: (app) => seriesDeletes(taskSeries(app), () => app.now()),
    }),
  );
};

export default tasksRoutes;
