import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createStaticServer, headersFollowingRuntimeConfig } from '@time-wallet/devkit/serve';

const require = createRequire(import.meta.url);
const { repoRoot, remotes, shell } = require('@time-wallet/devkit/apps');

// Test ports sit away from `npm start`'s; E2E_PORT_OFFSET moves a whole run, so two runs can share a machine.
const PORT_OFFSET = Number(process.env.E2E_PORT_OFFSET ?? 0);
const TEST_PORTS = Object.fromEntries(
  Object.entries({
    shell: 3100,
    mfe_auth: 3101,
    mfe_wallet: 3102,
    mfe_calendar: 3103,
    mfe_analytics: 3104,
    mfe_tags: 3105,
  }).map(([name, port]) => [name, port + PORT_OFFSET]),
);
export const API_PORT = 4100 + PORT_OFFSET;
/** A free port of this run for an extra server (a redeployed remote, say): 3150-3199 plus the offset. */
export const sparePort = (index) => 3150 + index + PORT_OFFSET;
const origin = (port) => `http://localhost:${port}`;

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

function listen(server, port) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, 'localhost', resolve);
  });
}

/**
 * The product as `npm start` runs it, on test ports: the real API on a throw-away SQLite database and every
 * production build served from its own origin. `runtimeConfig` overrides parts of the shell's /config.json.
 */
export async function startStack({ runtimeConfig = {} } = {}) {
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

  const apiProcess = spawn(process.execPath, ['server/dist/server.js'], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(API_PORT),
      DATA_DIR: path.join(workDir, 'data'),
      CORS_ORIGINS: shellOrigin,
      APP_URL: shellOrigin,
      LOG_LEVEL: 'warn',
      // The browser suites sign in many times a minute from one address.
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      RATE_LIMIT_PER_MINUTE: '100000',
    },
  });
  await waitForHealthy(`${apiBaseUrl}/health`);

  const headers = headersFollowingRuntimeConfig(configFile);
  const servers = new Map();
  async function serve(name, root, port, { spa = false } = {}) {
    const server = createStaticServer({
      root,
      spa,
      allowedOrigins: spa ? [] : [shellOrigin],
      headers,
      files: spa ? { '/config.json': configFile } : {},
    });
    await listen(server, port);
    servers.set(name, server);
    return server;
  }

  await serve('shell', path.join(repoRoot, shell.dir, 'dist'), TEST_PORTS.shell, { spa: true });
  for (const remote of remotes) {
    await serve(
      remote.federationName,
      path.join(repoRoot, remote.dir, 'dist'),
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
    async stop() {
      await Promise.all(
        [...servers.values()].map((server) => new Promise((resolve) => server.close(resolve))),
      );
      if (apiProcess.exitCode === null) {
        const exited = new Promise((resolve) => apiProcess.once('exit', resolve));
        apiProcess.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(workDir, { recursive: true, force: true });
    },
  };
}
