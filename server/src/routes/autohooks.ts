import type { FastifyInstance } from 'fastify';

/**
 * Applied by @fastify/autoload to every routes folder (cascadeHooks): a route needs a live session unless its config
 * says `public: true`, so a new route is protected unless it opts out.
 */
export default async function requireSignIn(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public !== true) await app.authenticate(request);
  });
}
