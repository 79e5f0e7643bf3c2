import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** Epoch milliseconds; tests pin it to make "today" and token expiry deterministic. */
    now(): number;
  }
}

export default fp(
  async function clockPlugin(app, options: { now?: () => number }) {
    app.decorate('now', options.now ?? Date.now);
  },
  { name: 'clock' },
);
