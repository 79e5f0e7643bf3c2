import path from 'node:path';
import { apiEnvironmentFor, frontEndApps, openLauncher, repoRoot } from './lib.mjs';

/**
 * `npm run dev`: the API in watch mode and a webpack dev server per app, each on its own port, with the shell
 * reading the same kind of runtime config as production. One Ctrl-C stops everything.
 */
const env = process.env;

// Every child runs under the launcher's supervisor: restarted if it exits, stopped with it. The API is the server's
// `dev` script (tsx watch) run directly rather than through npm, which would not pass SIGTERM on to tsx.
const { dataDir, runtimeConfigFile, shellOrigin, supervisor } = openLauncher(env, 'config.dev.json');
const outputPrefix = (label) => `[${label}]`.padEnd(16);

supervisor.start('api', {
  script: path.join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
  args: ['watch', 'src/server.ts'],
  cwd: path.join(repoRoot, 'server'),
  env: apiEnvironmentFor(env, dataDir),
  outputPrefix: outputPrefix('api'),
});
for (const app of frontEndApps) {
  supervisor.start(app.dir, {
    script: webpackCli(),
    args: ['serve', '--mode', 'development'],
    cwd: path.join(repoRoot, app.dir),
    env: { ...env, RUNTIME_CONFIG_FILE: runtimeConfigFile },
    outputPrefix: outputPrefix(app.dir),
  });
}
console.log(
  `Time Wallet (dev) is starting: open ${shellOrigin} once the builds finish. Ctrl-C stops everything.`,
);

function webpackCli() {
  return path.join(repoRoot, 'node_modules', 'webpack-cli', 'bin', 'cli.js');
}
