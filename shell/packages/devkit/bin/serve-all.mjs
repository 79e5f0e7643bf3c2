import path from 'node:path';
import { createStaticServer, headersFollowingRuntimeConfig } from '../serve/static-server.mjs';
import { repoRoot, remotes, shell, portOf, originOf } from './lib.mjs';

/**
 * Serves the shell and each remote from its own origin, as a CDN would. `roots` can point an app at another
 * build folder (a redeployed remote); the runtime config says which remote origin the shell uses.
 */
export function serveFrontEnds({ env = process.env, runtimeConfigFile, roots = {} }) {
  const shellOrigin = originOf(portOf(shell, env));
  const headers = headersFollowingRuntimeConfig(runtimeConfigFile);
  const listening = [];
  for (const app of [shell, ...remotes]) {
    const server = createStaticServer({
      root: roots[app.dir] ?? path.join(repoRoot, app.dir, 'dist'),
      spa: app === shell,
      allowedOrigins: app === shell ? [] : [shellOrigin],
      headers,
      files: app === shell ? { '/config.json': runtimeConfigFile } : {},
    });
    const port = portOf(app, env);
    listening.push(
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, 'localhost', () => resolve({ app, server, url: originOf(port) }));
      }),
    );
  }
  return Promise.all(listening);
}
