import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  createStaticServer,
  firstFramesFollowingRuntimeConfig,
  headersFollowingRuntimeConfig,
} from '../serve/static-server.mjs';
import { frontEndApps, repoRoot, shell, portOf, originOf } from './lib.mjs';

/**
 * Serves the shell and each remote (or the `apps` given) from its own origin, as a CDN would. `roots` can point an
 * app at another build folder (a redeployed remote); the runtime config says which remote origin the shell uses.
 * `deployDir` (DATA_DIR/deploy) adds each remote's deployed versions at `/v/<version>/` (see deploy.mjs).
 */
export function serveFrontEnds({
  env = process.env,
  runtimeConfigFile,
  roots = {},
  apps = frontEndApps,
  deployDir,
  log,
}) {
  const shellOrigin = originOf(portOf(shell, env));
  const headers = headersFollowingRuntimeConfig(runtimeConfigFile, { log });
  // The shell's pages take their remote's first frame, from whichever version of it the runtime config names now.
  const firstFrames = firstFramesFollowingRuntimeConfig(runtimeConfigFile, { log });
  const listening = [];
  for (const app of apps) {
    const server = createStaticServer({
      root: roots[app.dir] ?? path.join(repoRoot, app.dir, 'dist'),
      spa: app === shell,
      allowedOrigins: app === shell ? [] : [shellOrigin],
      headers,
      files: app === shell ? { '/config.json': runtimeConfigFile } : {},
      versionsDir: deployDir && app !== shell ? path.join(deployDir, app.dir) : undefined,
      composePage: app === shell ? firstFrames.compose : undefined,
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

/**
 * `node serve-all.mjs --runtime-config FILE [--deploy-dir DIR] [app ...]`: serves those apps (every one without
 * names) until SIGTERM or SIGINT. `npm start` runs one of these per app, so a server that fails takes no other app
 * down with it; each tells the launcher over IPC when it is listening.
 */
async function main() {
  const { values, positionals } = parseArgs({
    options: { 'runtime-config': { type: 'string' }, 'deploy-dir': { type: 'string' } },
    allowPositionals: true,
  });
  const runtimeConfigFile = values['runtime-config'];
  if (!runtimeConfigFile) throw new Error('--runtime-config FILE is required');
  const apps = positionals.length === 0 ? frontEndApps : positionals.map(appNamed);
  const label = apps.length === 1 ? `[${apps[0].dir}] ` : '';
  const servers = await serveFrontEnds({
    runtimeConfigFile,
    apps,
    deployDir: values['deploy-dir'],
    log: (line) => console.error(`${label}${line}`),
  });
  const stop = () => {
    for (const { server } of servers) {
      server.close();
      server.closeAllConnections();
    }
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  for (const { app, url } of servers) process.send?.({ type: 'listening', app: app.dir, url });
}

function appNamed(dir) {
  const app = frontEndApps.find((candidate) => candidate.dir === dir);
  if (!app)
    throw new Error(`${dir} is not an app: ${frontEndApps.map((candidate) => candidate.dir).join(', ')}`);
  return app;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
