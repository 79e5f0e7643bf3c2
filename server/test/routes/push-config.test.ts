import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import webpush from 'web-push';
import { isVapidKeyPair, loadConfig, readOrCreateVapidKeys } from '../../src/config.js';
import { vapidKeysOf } from '../../src/services/push.js';
import { buildTestApp, send, signUp } from '../helpers.js';
import { serverModule } from '../support/source.js';

const JWT_SECRET = 'x'.repeat(40);

async function emptyDir() {
  const dir = await mkdtemp(path.join(tmpdir(), 'time-wallet-vapid-'));
  after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('VAPID keys', () => {
  it('reading the configuration writes nothing; the app makes the pair in DATA_DIR and keeps it', async () => {
    const dir = await emptyDir();
    const dataDir = path.join(dir, 'data');
    const config = loadConfig({ JWT_SECRET, DATA_DIR: dataDir });
    assert.equal(config.push.vapidKeys, null);
    await assert.rejects(stat(path.join(dataDir, 'vapid-keys.json')), { code: 'ENOENT' });

    const { app } = await buildTestApp({ config: { dataDir } });
    const file = path.join(dataDir, 'vapid-keys.json');
    const stored = JSON.parse(await readFile(file, 'utf8'));
    assert.ok(isVapidKeyPair(stored));
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    const user = await signUp(app);
    const key = await send(app, user.headers, 'GET', '/api/push/key');
    assert.equal(key.json().publicKey, stored.publicKey);
    // The next start on the same DATA_DIR signs with the same pair.
    const { app: restarted } = await buildTestApp({ config: { dataDir } });
    assert.deepEqual(vapidKeysOf(restarted), stored);
    assert.deepEqual(readOrCreateVapidKeys(dataDir), stored);
  });

  it('processes starting together on one DATA_DIR share one pair', async () => {
    const dataDir = await emptyDir();
    const config = serverModule('src/config');
    const script = `import { readOrCreateVapidKeys } from ${JSON.stringify(pathToFileURL(config.file).href)};
      process.stdout.write(JSON.stringify(readOrCreateVapidKeys(${JSON.stringify(dataDir)})));`;
    const run = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, [...config.nodeArgs, '--input-type=module', '-e', script], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk));
        child.on('error', reject);
        child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`exit ${code}`))));
      });
    const pairs = await Promise.all([run(), run(), run()]);
    assert.equal(new Set(pairs).size, 1, pairs.join('\n'));
    assert.deepEqual(
      JSON.parse(pairs[0]),
      JSON.parse(await readFile(path.join(dataDir, 'vapid-keys.json'), 'utf8')),
    );
  });

  it('refuses a damaged file instead of replacing it', async () => {
    const dataDir = await emptyDir();
    await writeFile(path.join(dataDir, 'vapid-keys.json'), '{"publicKey":"abc"}\n');
    assert.throws(
      () => readOrCreateVapidKeys(dataDir),
      /holds no VAPID key pair.*VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY/,
    );
  });

  it('takes the pair from the environment, and nothing from DATA_DIR', async () => {
    const dataDir = await emptyDir();
    const pair = webpush.generateVAPIDKeys();
    const env = {
      JWT_SECRET,
      DATA_DIR: dataDir,
      VAPID_PUBLIC_KEY: pair.publicKey,
      VAPID_PRIVATE_KEY: pair.privateKey,
    };
    assert.deepEqual(loadConfig(env).push.vapidKeys, pair);
    const { app } = await buildTestApp({ env, config: { dataDir } });
    assert.deepEqual(vapidKeysOf(app), pair);
    await assert.rejects(stat(path.join(dataDir, 'vapid-keys.json')), { code: 'ENOENT' });
  });

  it('refuses half a pair, a mismatched pair and a bad subject at start', () => {
    const pair = webpush.generateVAPIDKeys();
    const other = webpush.generateVAPIDKeys();
    const base = { JWT_SECRET, DATA_DIR: '/nonexistent-unused' };
    assert.throws(() => loadConfig({ ...base, VAPID_PUBLIC_KEY: pair.publicKey }), /set together/);
    assert.throws(() => loadConfig({ ...base, VAPID_PRIVATE_KEY: pair.privateKey }), /set together/);
    assert.throws(
      () => loadConfig({ ...base, VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: other.privateKey }),
      /P-256 key pair/,
    );
    assert.throws(
      () =>
        loadConfig({
          ...base,
          VAPID_PUBLIC_KEY: pair.publicKey.slice(2),
          VAPID_PRIVATE_KEY: pair.privateKey,
        }),
      /P-256 key pair/,
    );
    assert.throws(() => loadConfig({ ...base, VAPID_SUBJECT: 'me@example.com' }), /VAPID_SUBJECT/);
    assert.throws(() => loadConfig({ ...base, VAPID_SUBJECT: 'http://example.com' }), /VAPID_SUBJECT/);
  });

  it("contacts MAIL_FROM's address unless VAPID_SUBJECT says otherwise", () => {
    const base = { JWT_SECRET, DATA_DIR: '/nonexistent-unused' };
    assert.equal(loadConfig(base).push.vapidSubject, 'mailto:no-reply@time-wallet.local');
    assert.equal(
      loadConfig({ ...base, MAIL_FROM: 'Planner <ops@example.com>' }).push.vapidSubject,
      'mailto:ops@example.com',
    );
    assert.equal(
      loadConfig({ ...base, VAPID_SUBJECT: 'https://time-wallet.example.com' }).push.vapidSubject,
      'https://time-wallet.example.com',
    );
  });
});
