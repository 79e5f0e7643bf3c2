import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createSupervisor } from './supervisor.mjs';

const require = createRequire(import.meta.url);
export const { repoRoot, remotes, shell, api, portOf } = require('../apps.cjs');

export const frontEndApps = [shell, ...remotes];
export const originOf = (port) => `http://localhost:${port}`;

/**
 * Minutes without activity before the browser signs out: SESSION_IDLE_MINUTES, else the default the API reads from
 * the same file (server/session-defaults.json), so the API's idle expiry and the browser's timer are one number.
 * The API gets the same variable through apiEnvironmentFor.
 */
export function sessionIdleMinutesFor(env = process.env) {
  const value = env.SESSION_IDLE_MINUTES?.trim();
  if (!value) {
    const defaults = JSON.parse(
      fs.readFileSync(path.join(repoRoot, 'server', 'session-defaults.json'), 'utf8'),
    );
    return defaults.idleMinutes;
  }
  const minutes = Number(value);
  if (!Number.isInteger(minutes) || minutes <= 0)
    throw new Error('SESSION_IDLE_MINUTES must be a positive integer');
  return minutes;
}

/** The shell's runtime config: where the API and each remote's manifest live. Nothing of it is in any build. */
export function runtimeConfigFor(env = process.env, overrides = {}) {
  const apiUrl = env.API_URL ?? `${originOf(portOf(api, env))}/api`;
  return {
    apiBaseUrl: apiUrl,
    remotes: Object.fromEntries(
      remotes.map((remote) => [remote.federationName, `${originOf(portOf(remote, env))}/mf-manifest.json`]),
    ),
    inactivityTimeoutMs: sessionIdleMinutesFor(env) * 60_000,
    ...overrides,
  };
}

/** The local deployment's data folder (SQLite file, mail outbox, runtime config), created if missing. */
export function dataDirFor(env = process.env) {
  const dataDir = path.resolve(repoRoot, env.DATA_DIR ?? 'data');
  fs.mkdirSync(dataDir, { recursive: true });
  return dataDir;
}

/** The API's environment for a local deployment: its port, data folder, and the shell's origin for CORS and links. */
export function apiEnvironmentFor(env, dataDir) {
  const shellOrigin = originOf(portOf(shell, env));
  return {
    ...env,
    PORT: String(portOf(api, env)),
    DATA_DIR: dataDir,
    CORS_ORIGINS: env.CORS_ORIGINS ?? shellOrigin,
    APP_URL: env.APP_URL ?? shellOrigin,
  };
}

export function writeRuntimeConfig(file, config) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}

/** Builds one app with the shared config, in this process (one build at a time is fastest on two cores). */
export async function buildApp(app, { outputPath, mode = 'production', env = {} } = {}) {
  // Loaded here, not at the top: the static-server children import this file and need no webpack.
  const webpack = require('webpack');
  const { createConfig } = require('../webpack/create-config.cjs');
  const appDir = path.join(repoRoot, app.dir);
  // The app's own webpack.config.cjs, as `webpack` run in its folder reads it (the shell adds its service worker
  // there); each is the shared config plus what that app alone needs.
  const appConfig = path.join(appDir, 'webpack.config.cjs');
  const configFor = fs.existsSync(appConfig)
    ? require(appConfig)
    : (appEnv, argv) => createConfig(appDir, appEnv, argv);
  const config = configFor({ ...env, ...(outputPath ? { outputPath } : {}) }, { mode });
  const started = Date.now();
  await new Promise((resolve, reject) => {
    webpack(config).run((error, stats) => {
      if (error) return reject(error);
      if (stats.hasErrors()) return reject(new Error(stats.toString({ all: false, errors: true })));
      resolve();
    });
  });
  return (Date.now() - started) / 1000;
}

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

const STAMP = '.build-stamp';
const sharedSources = [
  'shared-ui/src',
  'shell/packages/api/src',
  'shell/packages/devkit/webpack',
  'package-lock.json',
];

/** True when the app's last production build is newer than its sources and everything it is built from. */
export function isBuildFresh(app) {
  const stamp = path.join(repoRoot, app.dir, 'dist', STAMP);
  if (!fs.existsSync(stamp)) return false;
  const builtAt = fs.statSync(stamp).mtimeMs;
  const sources = [
    `${app.dir}/src`,
    `${app.dir}/public`,
    `${app.dir}/package.json`,
    `${app.dir}/webpack.config.cjs`,
    ...sharedSources,
  ];
  return sources.every((source) => newestMtime(path.join(repoRoot, source)) < builtAt);
}

export function markBuilt(app) {
  fs.writeFileSync(path.join(repoRoot, app.dir, 'dist', STAMP), new Date().toISOString());
}

export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', cwd: repoRoot, ...options });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`${command} ${args.join(' ')} exited with ${signal ?? code}`)),
    );
  });
}

/**
 * The API's tsc build without its type check (the same JavaScript, 5 s instead of 13 here): what `npm start` and the
 * browser suite run is checked by `npm run typecheck`, as the apps' swc builds are. `npm run build -w server` alone
 * still checks.
 */
export async function buildServer() {
  await run('npm', ['run', 'build', '--workspace', 'server', '--', '--noCheck']);
}

/** Builds what is stale: every front-end app one at a time, then the API. */
export async function buildAll({ force = false } = {}) {
  for (const app of frontEndApps) {
    if (!force && isBuildFresh(app)) {
      console.log(`  ${app.dir}: up to date`);
      continue;
    }
    const seconds = await buildApp(app);
    markBuilt(app);
    console.log(`  ${app.dir}: built in ${seconds.toFixed(1)} s`);
  }
  await buildServer();
}

/**
 * What `npm start` and `npm run dev` share: the data folder, the shell's runtime config written under it (as
 * `runtimeConfigName`), the shell's origin, and a supervisor for the children that stops everything on Ctrl-C.
 */
export function openLauncher(env, runtimeConfigName) {
  const dataDir = dataDirFor(env);
  const runtimeConfig = runtimeConfigFor(env);
  const runtimeConfigFile = writeRuntimeConfig(
    path.join(dataDir, 'runtime', runtimeConfigName),
    runtimeConfig,
  );
  const supervisor = createSupervisor();
  supervisor.stopOnSignals();
  void supervisor.stopped.then((code) => process.exit(code));
  return { dataDir, runtimeConfig, runtimeConfigFile, shellOrigin: originOf(portOf(shell, env)), supervisor };
}
