import path from 'node:path';
import { spawn } from 'node:child_process';
import {
  apiEnvironmentFor,
  dataDirFor,
  frontEndApps,
  originOf,
  portOf,
  repoRoot,
  runtimeConfigFor,
  shell,
  writeRuntimeConfig,
} from './lib.mjs';

/**
 * `npm run dev`: the API in watch mode and a webpack dev server per app, each on its own port, with the shell
 * reading the same kind of runtime config as production. One Ctrl-C stops everything.
 */
const env = process.env;
const dataDir = dataDirFor(env);
const runtimeConfigFile = writeRuntimeConfig(
  path.join(dataDir, 'runtime', 'config.dev.json'),
  runtimeConfigFor(env),
);
const shellOrigin = originOf(portOf(shell, env));

const children = [];
function launch(label, command, args, options) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  const prefix = `[${label}]`.padEnd(16);
  const relay = (stream, target) => {
    let pending = '';
    stream.on('data', (chunk) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) target.write(`${prefix}${line}\n`);
    });
  };
  relay(child.stdout, process.stdout);
  relay(child.stderr, process.stderr);
  children.push(child);
  return child;
}

launch('api', 'npm', ['run', 'dev', '--workspace', 'server'], {
  cwd: repoRoot,
  env: apiEnvironmentFor(env, dataDir),
});
for (const app of frontEndApps) {
  launch(app.dir, process.execPath, [webpackCli(), 'serve', '--mode', 'development'], {
    cwd: path.join(repoRoot, app.dir),
    env: { ...env, RUNTIME_CONFIG_FILE: runtimeConfigFile },
  });
}
console.log(
  `Time Wallet (dev) is starting: open ${shellOrigin} once the builds finish. Ctrl-C stops everything.`,
);

function webpackCli() {
  return path.join(repoRoot, 'node_modules', 'webpack-cli', 'bin', 'cli.js');
}

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(0), 5000).unref();
  Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve())),
    ),
  ).then(() => process.exit(0));
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
