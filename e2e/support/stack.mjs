import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import {
  createStaticServer,
  firstFramesFollowingRuntimeConfig,
  headersFollowingRuntimeConfig,
} from '@time-wallet/devkit/serve';

const require = createRequire(import.meta.url);
const { repoRoot, remotes, shell } = require('@time-wallet/devkit/apps');

// Test ports sit 100 above `npm start`'s (the registry's default ports), so a new remote gets one without an edit here;
// E2E_PORT_OFFSET moves a whole run, so two runs can share a machine.
const PORT_OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 0);
const TEST_PORTS = Object.fromEntries(
  [shell, ...remotes].map((app) => [app.federationName, app.defaultPort + 100 + PORT_OFFSET]),
);
export const API_PORT = 4100 + PORT_OFFSET;
/** A free port of this run for an extra server (a redeployed remote, say): 3150-3199 plus the offset. */
export const sparePort = (index) => 3150 + index + PORT_OFFSET;
const origin = (port) => `http://localhost:${port}`;
const LOOPBACK_ONLY = pathToFileURL(path.join(repoRoot, 'server/test/support/loopback-only.mjs')).href;

async function waitForHealthy(url, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not become healthy in ${timeoutMs} ms`);
}

/**
 * Refuses a port another process holds. The API is a child process: one that cannot bind exits, and its health check
 * would be answered by the other process (an API left running by a killed run), so a test would drive a stranger's
 * API and fail far from the cause.
 */
async function assertPortFree(port) {
  const probe = net.createServer();
  try {
    // The address the API listens on by default (HOST, server/src/config.ts).
    await listen(probe, port, '127.0.0.1');
  } catch (error) {
    throw new Error(`port ${port} is taken (${error.code}): stop what listens there, or set E2E_PORT_OFFSET`);
  }
  await new Promise((resolve) => probe.close(resolve));
}

function listen(server, port, host = 'localhost') {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
}

/**
 * The product as `npm start` runs it, on test ports: the real API on a throw-away SQLite database and every
 * production build served from its own origin. `runtimeConfig` overrides parts of the shell's /config.json;
 * `distDirs` serves another build of an app ('shell' or a federation name) instead of its dist folder.
 */
export async function startStack({ runtimeConfig = {}, distDirs = {}, api = {} } = {}) {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'time-wallet-e2e-'));
  const configFile = path.join(workDir, 'config.json');
  const apiBaseUrl = `${origin(API_PORT)}/api`;
  const shellOrigin = origin(TEST_PORTS.shell);

  const config = {
    apiBaseUrl,
    remotes: Object.fromEntries(
      remotes.map((remote) => [
        remote.federationName,
        `${origin(TEST_PORTS[remote.federationName])}/mf-manifest.json`,
      ]),
    ),
    ...runtimeConfig,
  };
  const writeConfig = (next) => fs.writeFileSync(configFile, JSON.stringify(next, null, 2));
  writeConfig(config);

  // The API keeps its data in workDir, so a stopped API started again serves everything saved before.
  // `api.instances` > 1 runs that many API processes (on `api.env`'s shared database) behind a round-robin proxy on
  // the API's port, as behind a load balancer: consecutive requests of one page go to different instances.
  const instances = api.instances ?? 1;
  let apiProcesses = [];
  let proxy = null;
  async function startApi() {
    if (apiProcesses.length > 0) return;
    const ports =
      instances === 1 ? [API_PORT] : Array.from({ length: instances }, (_, i) => API_PORT + 20 + i);
    for (const [index, port] of ports.entries()) {
      await assertPortFree(port);
      // As in the server's own tests, the API may connect to nothing but loopback addresses: a push service or a
      // calendar on the internet is refused (and named on its stderr) rather than reached.
      const child = spawn(process.execPath, ['--import', LOOPBACK_ONLY, 'server/dist/server.js'], {
        cwd: repoRoot,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: {
          ...process.env,
          NODE_ENV: 'production',
          PORT: String(port),
          DATA_DIR: path.join(workDir, instances === 1 ? 'data' : `data-${index}`),
          CORS_ORIGINS: shellOrigin,
          APP_URL: shellOrigin,
          LOG_LEVEL: 'warn',
          // The browser suites sign in many times a minute from one address.
          AUTH_RATE_LIMIT_PER_MINUTE: '1000',
          RATE_LIMIT_PER_MINUTE: '100000',
          // Subscription tests serve their calendars from this machine (127.0.0.1), which the API refuses by default.
          SUBSCRIPTIONS_ALLOW_PRIVATE_HOSTS: 'true',
          ...api.env,
        },
      });
      apiProcesses.push(child);
      // One at a time: the first migrates a shared database, the others find nothing to do.
      await waitForHealthy(`${origin(port)}/api/health`, 60_000);
    }
    if (instances > 1) {
      const { startRoundRobinProxy } = await import('../../server/test/reliability/round-robin-proxy.mjs');
      proxy = await startRoundRobinProxy(
        ports.map((port) => origin(port)),
        { port: API_PORT, host: 'localhost' },
      );
    }
  }
  async function stopApi() {
    const running = apiProcesses;
    apiProcesses = [];
    await proxy?.close();
    proxy = null;
    await Promise.all(
      running
        .filter((child) => child.exitCode === null)
        .map((child) => {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          return exited;
        }),
    );
  }
  await startApi();

  const headers = headersFollowingRuntimeConfig(configFile);
  const firstFrames = firstFramesFollowingRuntimeConfig(configFile);
  const servers = new Map();
  const serverOptions = new Map();
  // Milliseconds each server waits before answering, by name (a slow remote).
  const delays = new Map();
  async function serve(name, root, port, { spa = false } = {}) {
    const server = createStaticServer({
      root,
      spa,
      allowedOrigins: spa ? [] : [shellOrigin],
      headers,
      files: spa ? { '/config.json': configFile } : {},
      composePage: spa ? firstFrames.compose : undefined,
    });
    const [handle] = server.listeners('request');
    server.removeAllListeners('request');
    server.on('request', (req, res) => {
      const delay = delays.get(name) ?? 0;
      if (delay > 0) setTimeout(() => handle(req, res), delay);
      else handle(req, res);
    });
    await listen(server, port);
    servers.set(name, server);
    serverOptions.set(name, { root, port, spa });
    return server;
  }
  function closeServer(server) {
    const closed = new Promise((resolve) => server.close(resolve));
    // Kept-alive browser connections would otherwise go on being served.
    server.closeAllConnections();
    return closed;
  }

  const distOf = (name, dir) => distDirs[name] ?? path.join(repoRoot, dir, 'dist');
  await serve('shell', distOf('shell', shell.dir), TEST_PORTS.shell, { spa: true });
  for (const remote of remotes) {
    await serve(
      remote.federationName,
      distOf(remote.federationName, remote.dir),
      TEST_PORTS[remote.federationName],
    );
  }

  return {
    shellUrl: shellOrigin,
    apiBaseUrl,
    workDir,
    config,
    originOf: (name) => origin(TEST_PORTS[name]),
    /** Publishes another build of a remote on a new port and points the runtime config at it. */
    async deployRemote(federationName, buildDir, port) {
      await serve(`${federationName}@${port}`, buildDir, port);
      config.remotes[federationName] = `${origin(port)}/mf-manifest.json`;
      writeConfig(config);
    },
    /** Stops the API process (the browser then gets connection errors); its data stays for startApi(). */
    stopApi,
    /** Starts the API again on the same port and data directory. */
    startApi,
    /** Takes one app's static server ('shell' or a federation name) off the network, dropping its connections. */
    async stopServer(name) {
      const server = servers.get(name);
      if (!server) throw new Error(`no server named ${name}`);
      servers.delete(name);
      await closeServer(server);
    },
    /** Serves that app again, on the same port and from the same folder. */
    async startServer(name) {
      if (servers.has(name)) return;
      const options = serverOptions.get(name);
      if (!options) throw new Error(`no server named ${name}`);
      await serve(name, options.root, options.port, { spa: options.spa });
    },
    /** Requests each API instance received through the round-robin proxy (with `api.instances` > 1). */
    apiRequestCounts: () => proxy?.counts.slice() ?? [],
    /** Makes one app's static server wait `ms` before every answer (0 to answer at once again). */
    setServerDelay(name, ms) {
      delays.set(name, ms);
    },
    async stop() {
      await Promise.all([...servers.values()].map(closeServer));
      await stopApi();
      fs.rmSync(workDir, { recursive: true, force: true });
    },
  };
}
