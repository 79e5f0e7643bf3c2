// Several API processes starting at once on one fresh DATA_DIR (a restart script, a supervisor racing a manual
// start): they must agree on one JWT secret and run each SQLite migration exactly once, and every one must come up.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Worker } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';
import { readOrCreateJwtSecret } from '../../src/config.js';
import { migrations } from '../../src/db/database.js';
import { builtServer, call, ensureBuilt, serverDir, signUpOn, startApi, type RunningApi } from './support.js';
import { isPostgresRun } from '../helpers.js';

const PROCESSES = 4;
const ROUNDS = 4;
const worker = path.join(serverDir, 'test', 'reliability', 'start-race-worker.mjs');
const builtApp = path.join(path.dirname(builtServer), 'app.js');

const dataDirs: string[] = [];
async function freshDataDir(): Promise<string> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'time-wallet-start-'));
  dataDirs.push(dataDir);
  return dataDir;
}

after(async () => {
  await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Names in SQLite's migration table, in the order they ran, read with a connection of the test's own. */
function migrationsRecorded(dataDir: string): string[] {
  const db = new SqliteDatabase(path.join(dataDir, 'time-wallet.sqlite'), { readonly: true });
  try {
    return (
      db.prepare('select name from kysely_migration order by timestamp, name').all() as Array<{
        name: string;
      }>
    ).map((row) => row.name);
  } finally {
    db.close();
  }
}

interface Started {
  code: number | null;
  output: string;
  secret: string | undefined;
}

interface Racer {
  ready: Promise<void>;
  go(startAt: number): void;
  done: Promise<Started>;
}

/** A worker that loads the app, says it is ready, and starts up when told to. */
function racer(dataDir: string): Racer {
  const child = spawn(process.execPath, [worker, builtApp, dataDir], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (output.startsWith('ready\n')) markReady();
  });
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // 'close', not 'exit': a child's output may still be on its way when 'exit' comes, and the secret is its last line.
  const done = new Promise<Started>((resolve) =>
    child.once('close', (code) => {
      markReady();
      const line = output.split('\n').find((text) => text.startsWith('{"secret"'));
      resolve({ code, output, secret: line ? (JSON.parse(line) as { secret: string }).secret : undefined });
    }),
  );
  return { ready, go: (startAt) => child.stdin.end(`go ${startAt}\n`), done };
}

describe('the generated JWT secret', () => {
  test('a secret file another process has created but not yet written is waited for, never replaced', async () => {
    const dataDir = await freshDataDir();
    const file = path.join(dataDir, 'jwt-secret');
    await writeFile(file, '');
    const winner = 'w'.repeat(64);
    // The other process, writing its secret a moment later (this thread is blocked meanwhile).
    const writer = new Worker(
      `setTimeout(() => require('node:fs').writeFileSync(${JSON.stringify(file)}, '${winner}\\n'), 100);`,
      { eval: true },
    );
    const exited = new Promise((resolve) => writer.once('exit', resolve));
    await new Promise((resolve) => writer.once('online', resolve));
    assert.equal(readOrCreateJwtSecret(dataDir), winner);
    await exited;
    assert.equal((await readFile(file, 'utf8')).trim(), winner);
  });

  test('one that stays empty stops the start-up with a message instead of being overwritten', async () => {
    const dataDir = await freshDataDir();
    await writeFile(path.join(dataDir, 'jwt-secret'), '');
    assert.throws(() => readOrCreateJwtSecret(dataDir), /jwt-secret holds no secret .* set JWT_SECRET/);
    assert.equal(await readFile(path.join(dataDir, 'jwt-secret'), 'utf8'), '');
  });

  test('the first start writes 64 characters readable by the owner only; later starts reuse them', async () => {
    const dataDir = await freshDataDir();
    const secret = readOrCreateJwtSecret(dataDir);
    assert.equal(secret.length, 64);
    assert.equal((await stat(path.join(dataDir, 'jwt-secret'))).mode & 0o777, 0o600);
    assert.equal(readOrCreateJwtSecret(dataDir), secret);
  });
});

before(ensureBuilt);

// The race is over SQLite's file and the generated secret; the PostgreSQL pass of the suite would only repeat it.
describe(
  `${PROCESSES} API processes starting at once on one fresh DATA_DIR`,
  { skip: isPostgresRun ? 'SQLite files: runs in the SQLite pass' : false },
  () => {
    test(`${ROUNDS} rounds lined up to the millisecond: one secret, each migration once, no start-up fails`, async () => {
      const failures: string[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const dataDir = await freshDataDir();
        const racers = Array.from({ length: PROCESSES }, () => racer(dataDir));
        await Promise.all(racers.map((one) => one.ready));
        // Every process has loaded its modules; they spin until the same instant, then start up.
        const startAt = Date.now() + 100;
        for (const one of racers) one.go(startAt);
        const started = await Promise.all(racers.map((one) => one.done));
        const onDisk = (await readFile(path.join(dataDir, 'jwt-secret'), 'utf8')).trim();
        for (const [index, result] of started.entries()) {
          if (result.code !== 0)
            failures.push(`round ${round}, process ${index}: exit ${result.code}\n${result.output}`);
          else if (result.secret !== onDisk)
            failures.push(`round ${round}, process ${index}: a secret other than the one on disk`);
        }
        assert.ok(onDisk.length >= 32, `round ${round}: secret of ${onDisk.length} characters`);
        assert.deepEqual(migrationsRecorded(dataDir), Object.keys(migrations), `round ${round}`);
      }
      assert.deepEqual(failures, []);
    });

    test('the real servers all come up and accept each other’s tokens', { timeout: 120_000 }, async () => {
      const dataDir = await freshDataDir();
      const apis: RunningApi[] = [];
      after(() => Promise.all(apis.map((api) => api.kill())));
      const starts = await Promise.allSettled(
        Array.from({ length: PROCESSES }, () => startApi({ DATA_DIR: dataDir }, 60_000)),
      );
      for (const start of starts) if (start.status === 'fulfilled') apis.push(start.value);
      assert.deepEqual(
        starts.flatMap((start) => (start.status === 'rejected' ? [String(start.reason)] : [])),
        [],
      );
      // Each server signs a token; every other server must accept it, which it can only with the same secret.
      const tokens = await Promise.all(apis.map((api, index) => signUpOn(api.url, `racer${index}`)));
      let accepted = 0;
      for (const [signer, { token, username }] of tokens.entries()) {
        for (const [reader, api] of apis.entries()) {
          const me = await call<{ user: { username: string } }>(api.url, 'GET', '/auth/me', { token });
          assert.equal(
            me.status,
            200,
            `token from server ${signer} on server ${reader}: ${JSON.stringify(me.body)}`,
          );
          assert.equal(me.body.user.username, username);
          accepted += 1;
        }
      }
      assert.equal(accepted, PROCESSES * PROCESSES);
      assert.deepEqual(migrationsRecorded(dataDir), Object.keys(migrations));
    });
  },
);
