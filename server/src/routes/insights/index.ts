import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { fieldError } from '../../lib/input-rules.js';
import { signedInUser } from '../../plugins/app/authentication.js';
import { bearerAuth } from '../../schemas/common.js';
import { EstimateInsights, EstimateInsightsQuery } from '../../schemas/time-entry.js';
import { estimateInsights } from '../../services/time-entries.js';

const insightsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/estimates',
    {
      schema: {
        tags: ['insights'],
        summary: 'How long tasks took against their estimates, per category, over the last weeks (default 8)',
        description:
          "Done tasks dated in the last `weeks` weeks up to today (the request's time zone), not dismissed, with time entries and an estimate (estimateMinutes, or a scheduled task's planned length when it has none), grouped by category; ratio = trackedMinutes / estimateMinutes. A client offers the ratio when a person types an estimate for a task of a category with at least 5 such tasks, and never applies it by itself.",
        security: bearerAuth,
        querystring: EstimateInsightsQuery,
        response: { 200: EstimateInsights },
      },
    },
    async (request) => {
      const weeks = Number(request.query.weeks ?? 8);
      if (weeks < 1 || weeks > 52)
        throw fieldError('weeks', 'weeks must be a whole number of weeks from 1 to 52');
      return estimateInsights(app, signedInUser(request).id, request.timeZone, weeks);
    },
  );
};

export default insightsRoutes;
