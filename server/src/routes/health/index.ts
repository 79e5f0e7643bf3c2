import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { pingDatabase } from '../../db/database.js';

const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/',
    {
      // Limited like every route, but on a counter of its own: a load balancer's probes and the API traffic of the same
      // address never push each other over the limit.
      config: {
        public: true,
        rateLimit: { max: app.config.rateLimit.healthPerMinute, timeWindow: 60_000 },
        ownRateLimitOnly: true,
      },
      schema: {
        tags: ['health'],
        summary: 'Liveness with a database round trip',
        response: {
          200: Type.Object({ status: Type.Literal('ok') }),
          503: Type.Object({ status: Type.Literal('unavailable'), message: Type.String() }),
        },
      },
    },
    async (request, reply) => {
      try {
        await pingDatabase(app.db);
        return { status: 'ok' as const };
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unreachable');
        return reply.code(503).send({ status: 'unavailable' as const, message: 'Database unavailable' });
      }
    },
  );
};

export default healthRoutes;
