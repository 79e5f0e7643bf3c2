// What starting a built API as its own process takes, shared by the reliability suites (support.ts) and the API
// bench (bench/api.mjs), which is plain JavaScript.
import { createServer } from 'node:net';

/** A port nothing listens on at 127.0.0.1 at the moment of asking. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The environment of `node dist/server.js` on 127.0.0.1:`port`: the bare minimum for production plus `env`, so that
 * nothing of the caller's (a DATABASE_URL, a PORT) leaks in.
 */
export function apiProcessEnv(port, env = {}) {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    ...env,
  };
}
