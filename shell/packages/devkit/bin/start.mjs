import path from 'node:path';
import { spawn } from 'node:child_process';
import {
  apiEnvironmentFor,
  buildAll,
  dataDirFor,
  originOf,
  portOf,
  repoRoot,
  runtimeConfigFor,
  shell,
  writeRuntimeConfig,
} from './lib.mjs';
import { serveFrontEnds } from './serve-all.mjs';

const env = process.env;
const dataDir = dataDirFor(env);

if (env.SKIP_BUILD !== '1') {
  console.log('Building (only what changed since the last build)');
  await buildAll();
}

const runtimeConfig = runtimeConfigFor(env);
const runtimeConfigFile = writeRuntimeConfig(path.join(dataDir, 'runtime', 'config.json'), runtimeConfig);
const shellOrigin = originOf(portOf(shell, env));

const apiProcess = spawn(process.execPath, ['server/dist/server.js'], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: { ...apiEnvironmentFor(env, dataDir), NODE_ENV: env.NODE_ENV ?? 'production' },
});

const servers = await serveFrontEnds({ env, runtimeConfigFile });
for (const { app, url } of servers) console.log(`  ${app.dir.padEnd(14)} ${url}`);
console.log(`  ${'api'.padEnd(14)} ${runtimeConfig.apiBaseUrl}`);
console.log(`\nTime Wallet is up: open ${shellOrigin} (Ctrl-C stops everything)`);

let stopping = false;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const { server } of servers) server.close();
  if (apiProcess.exitCode === null) apiProcess.kill('SIGTERM');
  const forceExit = setTimeout(() => process.exit(code), 10_000);
  forceExit.unref();
  apiProcess.once('exit', () => process.exit(code));
  if (apiProcess.exitCode !== null) process.exit(code);
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
apiProcess.on('exit', (code) => {
  if (!stopping) {
    console.error(`The API exited with ${code}; stopping.`);
    stop(1);
  }
});
