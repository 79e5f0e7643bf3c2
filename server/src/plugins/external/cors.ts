import cors from '@fastify/cors';
import fp from 'fastify-plugin';

export default fp(
  async function corsPlugin(app, options: { origins: string[] }) {
    await app.register(cors, {
      origin: options.origins,
      methods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
      allowedHeaders: ['Authorization', 'Content-Type', 'X-Time-Zone', 'X-Request-Id'],
      exposedHeaders: ['Retry-After', 'X-Request-Id', 'Content-Disposition'],
      credentials: true,
      maxAge: 600,
    });
  },
  { name: 'cors' },
);
