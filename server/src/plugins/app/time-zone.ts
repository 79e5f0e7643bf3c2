import fp from 'fastify-plugin';
import { isValidTimeZone } from '../../lib/time-zone.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The zone that decides local days: X-Time-Zone when valid, else the signed-in user's, else UTC. */
    timeZone: string;
    hasTimeZoneHeader: boolean;
  }
}

export default fp(
  async function timeZonePlugin(app) {
    app.decorateRequest('timeZone', 'UTC');
    app.decorateRequest('hasTimeZoneHeader', false);
    app.addHook('onRequest', async (request) => {
      const header = request.headers['x-time-zone'];
      if (typeof header === 'string' && isValidTimeZone(header.trim())) {
        request.timeZone = header.trim();
        request.hasTimeZoneHeader = true;
      }
    });
  },
  { name: 'time-zone' },
);
