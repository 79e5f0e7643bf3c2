import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { UserRow } from '../../db/schema.js';
import { requireCalendarDate } from '../../lib/input-rules.js';
import { localDateAt } from '../../lib/time-zone.js';
import { computeWeeklyAnalytics, weekRange } from '../../lib/weekly-analytics.js';
import { signedInUser } from '../../plugins/app/authentication.js';
import { WeeklyAnalyticsRef, WeeklyQuery, WeeklySnapshotResponse } from '../../schemas/analytics.js';
import { NoBody, bearerAuth } from '../../schemas/common.js';

async function weeklyAnalyticsFor(app: FastifyInstance, user: UserRow, timeZone: string, date: string) {
  const { from, to } = weekRange(timeZone, date);
  const [tasks, events, categories] = await Promise.all([
    app.tasksRepository.listSpansOverlapping(user.id, from, to),
    app.eventsRepository.listSpansOverlapping(user.id, from, to),
    app.categoriesRepository.list(user.id),
  ]);
  return computeWeeklyAnalytics({
    timeZone,
    date,
    now: app.now(),
    tasks: tasks.map((task) => ({ ...task, done: task.done === 1 })),
    events,
    categories,
  });
}

const aggregationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['analytics'];

  app.get(
    '/analytics/weekly',
    {
      schema: {
        tags,
        summary:
          'Figures for the Sunday..Saturday week containing date (default today), in the request time zone',
        security: bearerAuth,
        querystring: WeeklyQuery,
        response: { 200: WeeklyAnalyticsRef },
      },
    },
    async (request) => {
      const date = requireCalendarDate(request.query.date ?? localDateAt(request.timeZone, app.now()));
      return weeklyAnalyticsFor(app, signedInUser(request), request.timeZone, date);
    },
  );

  app.post(
    '/analytics/weekly/update',
    {
      schema: {
        tags,
        summary: "Store a snapshot of this week's figures; repeating it replaces the same snapshot",
        security: bearerAuth,
        body: NoBody,
        response: { 200: WeeklySnapshotResponse },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const now = app.now();
      const analytics = await weeklyAnalyticsFor(
        app,
        user,
        request.timeZone,
        localDateAt(request.timeZone, now),
      );
      await app.analyticsSnapshotsRepository.save(user.id, analytics.weekStart, analytics, now);
      return { message: 'Weekly analytics updated', updatedAt: new Date(now).toISOString(), analytics };
    },
  );
};

export default aggregationRoutes;
