import type { FastifyInstance } from 'fastify';
import { settleExpiredTimer } from '../services/timer.js';

/**
 * Applied by @fastify/autoload to every routes folder (cascadeHooks): a route needs a live session unless its config
 * says `public: true`, so a new route is protected unless it opts out. A signed-in request first stops the user's
 * timer if it has run past its 12-hour limit, so every figure it reads already counts that.
 */
export default async function requireSignIn(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.public === true) return;
    await app.authenticate(request);
    if (request.currentUser) request.currentUser = await settleExpiredTimer(app, request.currentUser);
  });
}
