import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireCalendarDate } from '../../lib/input-rules.js';
import { localDateAt } from '../../lib/time-zone.js';
import { signedInUser } from '../../plugins/app/authentication.js';
import { WeeklyAnalyticsRef, WeeklyQuery, WeeklySnapshotResponse } from '../../schemas/analytics.js';
import { NoBody, bearerAuth } from '../../schemas/common.js';
import { weeklyAnalytics } from '../../services/ledger.js';

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
      return weeklyAnalytics(app, signedInUser(request), request.timeZone, date);
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
      const analytics = await weeklyAnalytics(
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
