import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

export default fp(
  async function helmetPlugin(app) {
    // The API answers JSON to another origin; the resource policy must allow the shell to read it.
    await app.register(helmet, {
      crossOriginResourcePolicy: { policy: 'cross-origin' },
      // The API is often served over plain HTTP locally; upgrading would break the docs page's own assets.
      contentSecurityPolicy: { directives: { upgradeInsecureRequests: null, frameAncestors: ["'none'"] } },
      // Nothing the API serves is meant to be framed, not even by its own origin.
      frameguard: { action: 'deny' },
    });
  },
  { name: 'helmet' },
);
