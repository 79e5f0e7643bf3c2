import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { freePort } from '@time-wallet/devkit/prerequisites';

const require = createRequire(import.meta.url);
const { repoRoot, remotes, shell } = require('@time-wallet/devkit/apps');

const SEED = 0x13f00d;
const REQUESTS_PER_SERVER = 300;
const CONNECTIONS_PER_SERVER = 12;
// A connection that has sent its bytes and heard nothing for this long is closed from our side (a truncated
// request waits for bytes that never come); the server must then still be answering, which is what is checked.
const IDLE_MS = 250;

/** mulberry32: a small seeded PRNG, so every run sends the same requests. */
function randomSource(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below) => Math.floor(next() * below);
  return { next, int, pick: (list) => list[int(list.length)], chance: (p) => next() < p };
}

const METHODS = ['GET', 'GET', 'GET', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH', 'CONNECT'];
const BAD_METHODS = ['get', 'G E T', 'GET\0', 'BREW', '', 'GET'.repeat(200), '\x7f', 'GET\t', 'PRI'];
const TARGETS = ['/', '/index.html', '/remoteEntry.js', '/mf-manifest.json', '/config.json', '/app/wallet'];
const BAD_TARGETS = [
  'http://[',
  'http://[::1',
  'https://[/index.html',
  'http://localhost:99999/',
  'http://user:pw@[::1]:80/',
  'http://',
  '*',
  '',
  '//..%2f..%2f..%2fetc/passwd',
  '/..%2f..%2f..%2fetc/passwd',
  '/../../../etc/passwd',
  '/%2e%2e/%2e%2e/etc/passwd',
  '/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd',
  '/%',
  '/%zz',
  '/%00',
  '/index.html%00.js',
  '/\0',
  '/\x01\x02\x1b',
  '/ /',
  '/\\..\\..\\windows\\win.ini',
  '/\xff\xfe\xfd',
  '/caf\xc3\xa9',
  `/?${'%'.repeat(50)}`,
  '/#fragment',
  'javascript:alert(1)',
  'mailto:someone',
  `/${'a'.repeat(9_000)}`,
  `/${'a'.repeat(70_000)}`,
  `/${'../'.repeat(2_000)}etc/passwd`,
];
const VERSIONS = ['HTTP/1.1', 'HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0'];
const BAD_VERSIONS = [
  'HTTP/1.2',
  'HTTP/2.0',
  'HTTP/0.9',
  'HTP/1.1',
  'HTTP/1.1x',
  'HTTP/11',
  '',
  'http/1.1',
  'HTTP/1.1 x',
];
const HEADER_SETS = [
  () => ['Host: localhost'],
  () => ['Host: a', 'Host: b'],
  () => ['Host: ['],
  () => ['Host: localhost', 'No colon on this line'],
  () => ['Host: localhost', ' folded: continuation'],
  () => ['Host: localhost', 'Name : space before the colon'],
  () => ['Host: localhost', 'Bad\x01Name: value'],
  () => ['Host: localhost', 'X-Nul: a\0b'],
  () => ['Host: localhost', `X-Huge: ${'h'.repeat(20_000)}`],
  () => ['Host: localhost', `X-Huger: ${'h'.repeat(100_000)}`],
  () => ['Host: localhost', ...Array.from({ length: 3_000 }, (_, index) => `X-${index}: v`)],
  () => ['Host: localhost', 'Content-Length: -1'],
  () => ['Host: localhost', 'Content-Length: abc'],
  () => ['Host: localhost', 'Content-Length: 1, 2'],
  () => ['Host: localhost', 'Content-Length: 5', 'Content-Length: 6'],
  () => ['Host: localhost', 'Content-Length: 99999999999999999999'],
  () => ['Host: localhost', 'Content-Length: 1000'],
  () => ['Host: localhost', 'Transfer-Encoding: chunked'],
  () => ['Host: localhost', 'Transfer-Encoding: gzip, chunked'],
  () => ['Host: localhost', 'Transfer-Encoding: chunkedx'],
  () => ['Host: localhost', 'Transfer-Encoding: chunked', 'Content-Length: 3'],
  () => ['Host: localhost', 'Origin: http://localhost:3100'],
  () => ['Host: localhost', 'Origin: null'],
  () => ['Host: localhost', `Origin: ${'o'.repeat(5_000)}`],
  () => ['Host: localhost', 'If-None-Match: *'],
  () => ['Host: localhost', 'If-None-Match: W/"\xff\xfe"'],
  () => ['Host: localhost', 'Accept-Encoding: gzip'],
  () => ['Host: localhost', `Accept-Encoding: ${'gzip, '.repeat(2_000)}`],
  () => ['Host: localhost', 'Accept-Encoding: gzip', 'Accept-Encoding: br'],
  () => ['Host: localhost', 'Range: bytes=0-1'],
  () => ['Host: localhost', 'Range: bytes=-'],
  () => ['Host: localhost', 'Connection: keep-alive, Upgrade', 'Upgrade: websocket'],
  () => ['Host: localhost', 'Expect: 100-continue', 'Content-Length: 10'],
  () => ['Host: localhost', 'Expect: 999-nonsense'],
  () => [],
];
const BODIES = ['', '', '', 'zz\r\n', '0\r\n\r\n', 'ffffffffffffffff\r\nabc', 'hello', '\0\0\0\0'];

/** One malformed (or now and then well-formed) HTTP/1 request, as raw bytes. */
function generateRequest(random) {
  if (random.chance(0.04)) {
    return Buffer.from(Array.from({ length: 1 + random.int(300) }, () => random.int(256)));
  }
  const method = random.chance(0.8) ? random.pick(METHODS) : random.pick(BAD_METHODS);
  const target = random.chance(0.35) ? random.pick(TARGETS) : random.pick(BAD_TARGETS);
  const version = random.chance(0.85) ? random.pick(VERSIONS) : random.pick(BAD_VERSIONS);
  const headers = random.pick(HEADER_SETS)();
  if (random.chance(0.6)) headers.push('Connection: close');
  const newline = random.chance(0.85) ? '\r\n' : random.pick(['\n', '\r', '\r\r\n']);
  let text = `${method} ${target} ${version}${newline}${headers.map((line) => line + newline).join('')}${newline}`;
  text += random.pick(BODIES);
  const bytes = Buffer.from(text, 'latin1');
  return random.chance(0.15) ? bytes.subarray(0, random.int(bytes.length)) : bytes;
}

/** Sends one request; resolves with the status of the first answer ('none' when the server just closed). */
function send(port, bytes) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let idle;
    const finish = () => {
      clearTimeout(idle);
      socket.destroy();
      resolve(received.match(/^HTTP\/1\.[01] (\d{3})/)?.[1] ?? 'none');
    };
    const waitIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(() => socket.end(), IDLE_MS);
    };
    socket.on('connect', () => {
      socket.write(bytes);
      waitIdle();
    });
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      // The answer has begun: hang up once it is flowing (the server finishes writing first).
      if (received.includes('\r\n\r\n')) socket.end();
      else waitIdle();
    });
    socket.on('error', () => undefined);
    socket.on('close', finish);
  });
}

async function fuzz(port, requests, statuses) {
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const status = await send(port, requests[next++]);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS_PER_SERVER }, worker));
}

/**
 * The six static servers as `serve-all.mjs` runs them: one process, as `npm start` used to run them, so a request
 * that throws out of any server ends all six and the final check sees it (inside the test process, node:test would
 * catch the exception and the servers would go on).
 */
describe('static servers: fuzzed request lines and headers', () => {
  let workDir;
  let serveAll;
  let servers;

  before(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'time-wallet-fuzz-'));
    const apps = [shell, ...remotes];
    const ports = new Map();
    for (const app of apps) ports.set(app, await freePort('localhost'));
    const origin = (app) => `http://localhost:${ports.get(app)}`;
    const runtimeConfigFile = path.join(workDir, 'config.json');
    fs.writeFileSync(
      runtimeConfigFile,
      JSON.stringify({
        apiBaseUrl: 'http://localhost:9/api',
        remotes: Object.fromEntries(
          remotes.map((remote) => [remote.federationName, `${origin(remote)}/mf-manifest.json`]),
        ),
      }),
    );
    serveAll = spawn(
      process.execPath,
      [path.join(repoRoot, 'shell/packages/devkit/bin/serve-all.mjs'), '--runtime-config', runtimeConfigFile],
      {
        env: {
          ...process.env,
          ...Object.fromEntries(apps.map((app) => [app.portEnv, String(ports.get(app))])),
        },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    let listening = 0;
    await new Promise((resolve, reject) => {
      serveAll.on('message', (message) => {
        if (message?.type === 'listening' && ++listening === apps.length) resolve();
      });
      serveAll.once('exit', (code) => reject(new Error(`serve-all exited with ${code} before listening`)));
    });
    servers = apps.map((app) => ({
      name: app.dir,
      origin: origin(app),
      page: app === shell ? '/' : '/remoteEntry.js',
    }));
  });
  after(async () => {
    if (serveAll && serveAll.exitCode === null && serveAll.signalCode === null) {
      const exited = new Promise((resolve) => serveAll.once('exit', resolve));
      serveAll.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it(`keeps all six servers answering after ${REQUESTS_PER_SERVER} malformed requests each`, async () => {
    const random = randomSource(SEED);
    const requests = Array.from({ length: REQUESTS_PER_SERVER }, () => generateRequest(random));
    const statuses = {};
    await Promise.all(servers.map(({ origin }) => fuzz(Number(new URL(origin).port), requests, statuses)));

    const silent = [];
    for (const { name, origin, page } of servers) {
      const response = await fetch(`${origin}${page}`).catch(() => null);
      await response?.arrayBuffer();
      if (response?.status !== 200) silent.push(name);
    }
    const tally = Object.fromEntries(Object.entries(statuses).sort(([a], [b]) => a.localeCompare(b)));
    console.log(
      `fuzz: ${servers.length} servers x ${REQUESTS_PER_SERVER} requests (seed ${SEED.toString(16)}), ` +
        `${silent.length} crashes, statuses ${JSON.stringify(tally)}`,
    );
    assert.equal(serveAll.exitCode, null, 'the process serving the six apps is still running');
    assert.deepEqual(silent, [], 'every server still answers a normal GET with 200');
    assert.equal(
      Object.values(statuses).reduce((sum, count) => sum + count, 0),
      servers.length * REQUESTS_PER_SERVER,
      'every request was sent and ended',
    );
    assert.equal(statuses['500'], undefined, 'no request made a server fail');
  });
});
