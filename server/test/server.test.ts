import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { serverDir, serverModule } from './support/source.js';

async function temporaryDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'time-wallet-server-'));
  after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('configuration', () => {
  test('reads the environment with the documented defaults', async () => {
    const dataDir = await temporaryDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    assert.equal(config.port, 4000);
    assert.equal(config.host, '127.0.0.1');
    assert.deepEqual(config.corsOrigins, ['http://localhost:3000']);
    assert.equal(config.appUrl, 'http://localhost:3000');
    assert.deepEqual(config.database, { kind: 'sqlite', file: path.join(dataDir, 'time-wallet.sqlite') });
    assert.equal(config.passwordHashCost, 17);

    const custom = loadConfig({
      DATA_DIR: dataDir,
      PORT: '4100',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      DATABASE_URL: 'postgresql://u:p@db/time',
      JWT_SECRET: 'x'.repeat(40),
    });
    assert.equal(custom.port, 4100);
    assert.deepEqual(custom.corsOrigins, ['https://a.example', 'https://b.example']);
    assert.deepEqual(custom.database, { kind: 'postgres', url: 'postgresql://u:p@db/time' });
    assert.equal(custom.rateLimit.store, 'database');
    assert.throws(() => loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'mysql://x' }), /postgres/);
    assert.throws(() => loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'short' }), /32 characters/);
  });

  test('generates the JWT secret once, readable by its owner only', async () => {
    const dataDir = await temporaryDir();
    const first = loadConfig({ DATA_DIR: dataDir }).jwtSecret;
    const second = loadConfig({ DATA_DIR: dataDir }).jwtSecret;
    assert.equal(first, second);
    assert.ok(first.length >= 32);
    assert.equal((await stat(path.join(dataDir, 'jwt-secret'))).mode & 0o777, 0o600);
  });

  test('creates DATA_DIR readable by its owner only (0700) and the SQLite files, -wal and -shm included, 0600', async () => {
    // The usual umask, which left the folder 0755 and the database 0644 (password hashes, sessions, all data).
    const umask = process.umask(0o022);
    after(() => process.umask(umask));
    const root = await temporaryDir();
    const modeOf = async (file: string) => ((await stat(file)).mode & 0o777).toString(8);
    // The folder is made by the secret's generation or, with JWT_SECRET set, by the database's opening.
    for (const env of [{}, { JWT_SECRET: 'x'.repeat(40) }]) {
      const dataDir = path.join(root, `data-${Object.keys(env).length}`, 'nested');
      const app = await buildApp({
        env: { DATA_DIR: dataDir, ...env },
        logger: false,
        config: { passwordHashCost: 10 },
      });
      const registration = await app.inject({
        method: 'POST',
        url: '/api/auth/register/user',
        payload: {
          username: 'private',
          email: 'p@example.com',
          password: 'Passw0rd!',
          name: 'Private Person',
        },
      });
      assert.equal(registration.statusCode, 201);
      const file = path.join(dataDir, 'time-wallet.sqlite');
      assert.deepEqual(
        {
          dataDir: await modeOf(dataDir),
          parent: await modeOf(path.dirname(dataDir)),
          database: await modeOf(file),
          wal: await modeOf(`${file}-wal`),
          shm: await modeOf(`${file}-shm`),
        },
        { dataDir: '700', parent: '700', database: '600', wal: '600', shm: '600' },
      );
      await app.close();
    }

    // A database file an earlier version created world-readable is tightened at the next start.
    const earlier = path.join(root, 'earlier');
    const first = await buildApp({ env: { DATA_DIR: earlier }, logger: false });
    await first.close();
    await chmod(path.join(earlier, 'time-wallet.sqlite'), 0o644);
    const second = await buildApp({ env: { DATA_DIR: earlier }, logger: false });
    after(() => second.close());
    assert.equal(await modeOf(path.join(earlier, 'time-wallet.sqlite')), '600');
  });

  test('a restart keeps the data and its sessions', async () => {
    const dataDir = await temporaryDir();
    const options = { env: { DATA_DIR: dataDir }, logger: false as const, config: { passwordHashCost: 10 } };
    const first = await buildApp(options);
    await first.inject({
      method: 'POST',
      url: '/api/auth/register/user',
      payload: { username: 'persistent', email: 'p@example.com', password: 'Passw0rd!', name: 'Persistent' },
    });
    const { token } = (
      await first.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'persistent', password: 'Passw0rd!' },
      })
    ).json();
    await first.close();
    const second = await buildApp(options);
    after(() => second.close());
    const me = await second.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(me.statusCode, 200);
    assert.equal(me.json().user.username, 'persistent');
  });
});

describe('server process', () => {
  test('listens, finishes requests in flight on SIGTERM and exits cleanly', async () => {
    const dataDir = await temporaryDir();
    const server = serverModule('src/server');
    const child = spawn(process.execPath, [...server.nodeArgs, server.file], {
      cwd: serverDir,
      env: { ...process.env, PORT: '0', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    after(() => child.kill('SIGKILL'));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const address = await new Promise<string>((resolve, reject) => {
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match) resolve(match[1]!);
      });
      child.once('exit', () => reject(new Error(`server exited early: ${output}`)));
    });

    const health = await fetch(`${address}/api/health`);
    assert.deepEqual(await health.json(), { status: 'ok' });

    // Registration hashes at full cost, so it is still running when the signal arrives.
    const inFlight = fetch(`${address}/api/auth/register/user`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username: 'inflight',
        email: 'in@example.com',
        password: 'Passw0rd!',
        name: 'In Flight',
      }),
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const signalledAt = Date.now();
    child.kill('SIGTERM');
    const response = await inFlight;
    assert.equal(response.status, 201);
    assert.equal(await exited, 0);
    assert.ok(Date.now() - signalledAt < 10_000);
  });
});
