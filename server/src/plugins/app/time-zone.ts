import fp from 'fastify-plugin';
import { canonicalTimeZone } from '../../lib/time-zone.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The zone that decides local days, by its canonical name: X-Time-Zone when valid, else the signed-in user's,
     * else UTC.
     */
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
      if (typeof header !== 'string') return;
      // Canonical, so 'AMERICA/NEW_YORK' and 'America/New_York' are one zone everywhere, caches and stored rows alike.
      const zone = canonicalTimeZone(header.trim());
      if (zone === null) return;
      request.timeZone = zone;
      request.hasTimeZoneHeader = true;
    });
  },
  { name: 'time-zone' },
);
