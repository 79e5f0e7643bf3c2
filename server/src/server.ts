import { buildApp } from './app.js';

const SHUTDOWN_DEADLINE_MS = 10_000;

const app = await buildApp();

let shuttingDown = false;
async function shutDown(signal: NodeJS.Signals) {
  if (shuttingDown) return;
  shuttingDown = true;
  app.log.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
  const deadline = setTimeout(() => {
    app.log.error('requests still in flight after 10 s; exiting');
    process.exit(1);
  }, SHUTDOWN_DEADLINE_MS);
  deadline.unref();
  // Fastify closes idle keep-alive connections once, when closing starts; connections whose requests finish later
  // would otherwise stay open until the keep-alive timeout.
  const closeIdleConnections = setInterval(() => app.server.closeIdleConnections(), 100);
  closeIdleConnections.unref();
  try {
    await app.close();
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}

process.once('SIGTERM', (signal) => void shutDown(signal));
process.once('SIGINT', (signal) => void shutDown(signal));

try {
  await app.listen({ host: app.config.host, port: app.config.port });
} catch (error) {
  app.log.error({ err: error }, 'could not start the API');
  await app.close().catch(() => undefined);
  process.exit(1);
}
