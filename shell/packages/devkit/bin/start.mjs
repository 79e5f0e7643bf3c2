import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  api,
  apiEnvironmentFor,
  buildAll,
  frontEndApps,
  openLauncher,
  originOf,
  portOf,
  repoRoot,
} from './lib.mjs';
import { pinDeployedVersions } from './deploy.mjs';

/**
 * `npm start`: the API and one static server per app, each its own supervised child process, so one that fails
 * takes nothing else down and is started again. Ctrl-C (or SIGTERM) stops every child, then the launcher.
 */
const env = process.env;

if (env.SKIP_BUILD !== '1') {
  console.log('Building (only what changed since the last build)');
  await buildAll();
}

const { dataDir, runtimeConfig, runtimeConfigFile, shellOrigin, supervisor } = openLauncher(
  env,
  'config.json',
);
// A remote deployed with `npm run deploy` stays live across restarts (its versions are served from deployDir).
const deployDir = path.join(dataDir, 'deploy');
for (const line of pinDeployedVersions({ dataDir, configFile: runtimeConfigFile, env })) console.log(line);

supervisor.start('api', {
  script: path.join(repoRoot, 'server', 'dist', 'server.js'),
  cwd: repoRoot,
  env: { ...apiEnvironmentFor(env, dataDir), NODE_ENV: env.NODE_ENV ?? 'production' },
});

const serveAll = fileURLToPath(new URL('./serve-all.mjs', import.meta.url));
const frontEndUrls = new Map();
await new Promise((allListening) => {
  for (const app of frontEndApps) {
    supervisor.start(app.dir, {
      script: serveAll,
      args: ['--runtime-config', runtimeConfigFile, '--deploy-dir', deployDir, app.dir],
      cwd: repoRoot,
      env,
      onMessage(message, starts) {
        if (message?.type !== 'listening') return;
        if (starts > 1) console.error(`[${app.dir}] serving again at ${message.url}`);
        frontEndUrls.set(app.dir, message.url);
        if (frontEndUrls.size === frontEndApps.length) allListening();
      },
    });
  }
});
await apiHealthy(`${originOf(portOf(api, env))}/api/health`);

for (const app of frontEndApps) console.log(`  ${app.dir.padEnd(14)} ${frontEndUrls.get(app.dir)}`);
console.log(`  ${'api'.padEnd(14)} ${runtimeConfig.apiBaseUrl}`);
console.log(`\nTime Wallet is up: open ${shellOrigin} (Ctrl-C stops everything)`);

/** Waits for the API to answer its health check (it migrates the database first), for at most a minute. */
async function apiHealthy(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !supervisor.stopping) {
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (!supervisor.stopping) console.error(`The API did not answer ${url} within a minute; still trying.`);
}
