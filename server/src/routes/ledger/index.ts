import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MAX_RANGE_DAYS, requireDayRange } from '../../lib/input-rules.js';
import { addDays } from '../../lib/time-zone.js';
import { signedInUser } from '../../plugins/app/authentication.js';
import { bearerAuth } from '../../schemas/common.js';
import { DayRangeQuery } from '../../schemas/event.js';
import { DEFINITIONS, LedgerDays } from '../../schemas/ledger.js';
import { ledgerOfDays } from '../../services/ledger.js';

const ledgerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/',
    {
      schema: {
        tags: ['ledger'],
        summary: `The time ledger of the local days from (inclusive) to (exclusive), at most ${MAX_RANGE_DAYS} days`,
        // One definition per line; `npm run api:types` copies this list into docs/product.md, so the two say the same.
        description: Object.entries(DEFINITIONS)
          .map(([name, text]) => `- **${name}**: ${text}`)
          .join('\n'),
        security: bearerAuth,
        querystring: DayRangeQuery,
        response: { 200: LedgerDays },
      },
    },
    async (request) => {
      const { from, to } = requireDayRange(request.query.from, request.query.to);
      const days = await ledgerOfDays(app, signedInUser(request), request.timeZone, from, addDays(to, -1));
      return { days };
    },
  );
};

export default ledgerRoutes;
