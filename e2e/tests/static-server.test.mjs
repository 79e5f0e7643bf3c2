import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { spawnSync } from 'node:child_process';
import zlib from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import {
  createStaticServer,
  headersFollowingRuntimeConfig,
  securityHeaders,
} from '@time-wallet/devkit/serve';

const INDEX_HTML = '<!doctype html><title>robust</title>';
const BIG_FILE_BYTES = 4 * 1024 * 1024;

/** Sends raw bytes and collects everything the server writes until it closes the connection. */
function rawRequest(port, bytes) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    const chunks = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(parseResponse(Buffer.concat(chunks))));
  });
}

function parseResponse(raw) {
  const headEnd = raw.indexOf('\r\n\r\n');
  const head = raw.subarray(0, headEnd === -1 ? raw.length : headEnd).toString('latin1');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return {
    status: Number(statusLine.match(/^HTTP\/1\.1 (\d{3})/)?.[1] ?? 0),
    headers,
    body: headEnd === -1 ? Buffer.alloc(0) : raw.subarray(headEnd + 4),
  };
}

const get = (port, target, headerLines = []) =>
  rawRequest(
    port,
    [`GET ${target} HTTP/1.1`, 'Host: localhost', 'Connection: close', ...headerLines, '', ''].join('\r\n'),
  );

function listen(server) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server.address().port));
  });
}

async function waitUntil(condition, what) {
  for (let attempt = 0; attempt < 250; attempt += 1) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.fail(`gave up waiting until ${what}`);
}

function sourcesOf(response, name) {
  const csp = response.headers['content-security-policy'] ?? '';
  const directive = csp.split(';').find((part) => part.trim().startsWith(`${name} `)) ?? '';
  return directive.trim().split(/\s+/).slice(1);
}
const scriptSources = (response) => sourcesOf(response, 'script-src');

/** createStaticServer on a throw-away root, driven over raw TCP so malformed bytes reach it as sent. */
describe('static server: nothing a client sends stops it', () => {
  let workDir;
  let root;
  let outside;
  const servers = [];
  const counts = { requests: 0 };

  async function start(options) {
    const server = createStaticServer({ root, headers: securityHeaders(), ...options });
    servers.push(server);
    return listen(server);
  }

  async function assertStillServing(port) {
    const response = await get(port, '/index.html');
    counts.requests += 1;
    assert.equal(response.status, 200, 'the server still answers a normal request');
    assert.equal(response.body.toString(), INDEX_HTML);
  }

  before(() => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'time-wallet-static-'));
    root = path.join(workDir, 'dist');
    outside = path.join(workDir, 'outside');
    fs.mkdirSync(path.join(root, 'assets'), { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(root, 'index.html'), INDEX_HTML);
    fs.writeFileSync(path.join(root, 'assets', 'inside.txt'), 'inside the build');
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'outside the build');
    fs.writeFileSync(path.join(outside, 'config.json'), '{}');
  });
  after(async () => {
    console.log(`static-server: ${counts.requests} raw requests`);
    await Promise.all(
      servers.map((server) => new Promise((resolve) => server.close(resolve).closeAllConnections())),
    );
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it("names a page's inline scripts by their hash in script-src, whole in every answer, and no other file's", async () => {
    const code = 'document.documentElement.dataset.theme="dark";';
    const padding = `<p>${'x'.repeat(600)}</p>`;
    fs.writeFileSync(path.join(root, 'inline.html'), `<!doctype html><script>${code}</script>${padding}`);
    fs.writeFileSync(path.join(root, 'inline.js'), `/* <script>${code}</script> */`);
    const hash = `'sha256-${crypto.createHash('sha256').update(code).digest('base64')}'`;
    const port = await start();

    const plain = await get(port, '/inline.html');
    const zipped = await get(port, '/inline.html', ['Accept-Encoding: gzip']);
    const head = await rawRequest(
      port,
      ['HEAD /inline.html HTTP/1.1', 'Host: localhost', 'Connection: close', '', ''].join('\r\n'),
    );
    counts.requests += 3;
    for (const response of [plain, zipped, head]) {
      assert.equal(response.status, 200);
      assert.deepEqual(scriptSources(response), ["'self'", hash]);
    }
    assert.equal(plain.body.toString(), fs.readFileSync(path.join(root, 'inline.html'), 'utf8'));
    assert.equal(zlib.gunzipSync(zipped.body).toString(), plain.body.toString());
    assert.equal(head.body.length, 0);
    // The same code in a file that is not a page adds nothing; a page without inline scripts neither.
    assert.deepEqual(scriptSources(await get(port, '/inline.js')), ["'self'"]);
    assert.deepEqual(scriptSources(await get(port, '/index.html')), ["'self'"]);
    counts.requests += 2;
  });

  it('answers a page rewritten between its stat and its read as read, its CSP from those bytes, without a validator', async () => {
    const before = '<!doctype html><script>var a=1;</script>';
    const after = `<!doctype html><script>var b=2;</script><p>${'y'.repeat(700)}</p>`;
    fs.writeFileSync(path.join(root, 'rewritten.html'), before);
    const fileSystem = {
      ...fs,
      // The stat saw the old page; the read gets the new one, as when a deploy lands in between.
      readFileSync(target, ...rest) {
        return typeof target === 'number' ? Buffer.from(after) : fs.readFileSync(target, ...rest);
      },
    };
    const port = await start({ fileSystem });
    const hash = `'sha256-${crypto.createHash('sha256').update('var b=2;').digest('base64')}'`;
    for (const encoding of [[], ['Accept-Encoding: gzip']]) {
      const response = await get(port, '/rewritten.html', encoding);
      counts.requests += 1;
      assert.equal(response.status, 200);
      const body = encoding.length ? zlib.gunzipSync(response.body) : response.body;
      assert.equal(body.toString(), after);
      assert.deepEqual(scriptSources(response), ["'self'", hash]);
      assert.equal(response.headers.etag, undefined, 'no validator of the old stat');
    }
  });

  it('answers 400 with the security headers to request targets that are not URLs', async () => {
    const port = await start();
    for (const target of ['http://[', 'http://[::1', 'https://[/index.html', 'http://a:99999/']) {
      const response = await get(port, target);
      counts.requests += 1;
      assert.equal(response.status, 400, `${target} is a bad request`);
      assert.match(response.headers['content-type'], /^text\/plain/);
      assert.ok(response.headers['content-security-policy'], `${target}: the CSP is still sent`);
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
      await assertStillServing(port);
    }
  });

  it('answers requests Node cannot parse with 400 or 431, with the security headers', async () => {
    const port = await start();
    const cases = [
      ['GET / HTTP/1.1\r\nHost: localhost\r\nNo colon here\r\n\r\n', 400],
      ['GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n', 400],
      ['GET /\0 HTTP/1.1\r\nHost: localhost\r\n\r\n', 400],
      [`GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`, 431],
    ];
    for (const [request, status] of cases) {
      const response = await rawRequest(port, request);
      counts.requests += 1;
      assert.equal(response.status, status, JSON.stringify(request.slice(0, 60)));
      assert.ok(response.headers['content-security-policy'], 'the CSP is still sent');
      await assertStillServing(port);
    }
  });

  it('serves a file that a rebuild removes or replaces by a folder while it is being answered, whole', async () => {
    const port = await start();
    const server = servers.at(-1);
    const content = 'x'.repeat(100_000);
    for (const replacement of ['removed', 'a folder']) {
      const file = path.join(root, 'assets', 'rebuilt.js');
      fs.rmSync(file, { recursive: true, force: true });
      fs.writeFileSync(file, content);
      // Runs right after the server's own handler, before any of its file reads complete.
      const rebuild = () => {
        fs.rmSync(file);
        if (replacement === 'a folder') fs.mkdirSync(file);
      };
      server.once('request', rebuild);
      const response = await get(port, '/assets/rebuilt.js');
      counts.requests += 1;
      assert.equal(response.status, 200, `file ${replacement} meanwhile`);
      assert.equal(response.body.length, content.length, `file ${replacement} meanwhile: served whole`);
      await assertStillServing(port);
    }
  });

  it('answers 404 when a file cannot be read, and cuts an answer off when reading fails midway', async () => {
    const failing = new Map();
    const fileSystem = {
      ...fs,
      openSync(file, ...rest) {
        if (failing.get(path.basename(file)) === 'open')
          throw Object.assign(new Error('EIO'), { code: 'EIO' });
        return fs.openSync(file, ...rest);
      },
      readFileSync(target, ...rest) {
        if (typeof target === 'number' && failing.get('*') === 'readFile') {
          throw Object.assign(new Error('EIO'), { code: 'EIO' });
        }
        return fs.readFileSync(target, ...rest);
      },
      createReadStream(file, options) {
        const mode = failing.get(path.basename(file));
        if (mode === 'stream-before-data' || mode === 'stream-midway' || mode === 'stream-short') {
          fs.closeSync(options.fd);
          return Readable.from(
            (async function* () {
              if (mode !== 'stream-before-data') yield Buffer.from('first bytes');
              if (mode !== 'stream-short') throw Object.assign(new Error('EIO'), { code: 'EIO' });
            })(),
          );
        }
        return fs.createReadStream(file, options);
      },
    };
    const port = await start({ fileSystem });
    const bigFile = path.join(root, 'assets', 'big.bin');
    fs.writeFileSync(bigFile, Buffer.alloc(64 * 1024, 1));

    failing.set('big.bin', 'open');
    assert.equal((await get(port, '/assets/big.bin')).status, 404, 'a file that cannot be opened');
    failing.set('big.bin', 'stream-before-data');
    const beforeData = await get(port, '/assets/big.bin');
    assert.equal(beforeData.status, 404, 'a read failing before the first byte');
    assert.equal(beforeData.headers.etag, undefined, 'the 404 carries no ETag of the file');
    for (const mode of ['stream-midway', 'stream-short']) {
      failing.set('big.bin', mode);
      const cutOff = await get(port, '/assets/big.bin');
      assert.equal(cutOff.status, 200, mode);
      assert.equal(Number(cutOff.headers['content-length']), 64 * 1024);
      assert.ok(cutOff.body.length < 64 * 1024, `${mode}: the connection is closed, not left waiting`);
    }
    failing.clear();
    failing.set('*', 'readFile');
    fs.writeFileSync(path.join(root, 'assets', 'large.js'), 'y'.repeat(10_000));
    const gzipFailed = await get(port, '/assets/large.js', ['Accept-Encoding: gzip']);
    assert.equal(gzipFailed.status, 404, 'a read failing on the gzip path');
    failing.clear();
    counts.requests += 5;
    await assertStillServing(port);
    assert.equal((await get(port, '/assets/big.bin')).body.length, 64 * 1024, 'served whole once readable');
  });

  it('closes the file when the client hangs up halfway through it', async () => {
    const streams = [];
    const fileSystem = {
      ...fs,
      createReadStream(...args) {
        const stream = fs.createReadStream(...args);
        streams.push(stream);
        return stream;
      },
    };
    const port = await start({ fileSystem });
    fs.writeFileSync(path.join(root, 'assets', 'huge.bin'), Buffer.alloc(BIG_FILE_BYTES, 2));
    await new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () =>
        socket.write('GET /assets/huge.bin HTTP/1.1\r\nHost: localhost\r\n\r\n'),
      );
      socket.once('data', () => {
        socket.destroy();
        resolve();
      });
      socket.on('error', reject);
    });
    counts.requests += 1;
    assert.equal(streams.length, 1, 'the file was streamed');
    await waitUntil(() => streams[0].destroyed, 'the file stream is closed');
    await assertStillServing(port);
  });

  it('starts with a strict CSP and keeps the last good one when the runtime config is missing or malformed', async () => {
    const configFile = path.join(workDir, 'runtime-config.json');
    const logged = [];
    let version = 0;
    const writeConfig = (text) => {
      fs.writeFileSync(configFile, text);
      // Each write is a new version even on a file system with coarse modification times.
      version += 1;
      fs.utimesSync(configFile, version, version);
    };
    writeConfig('{ "apiBaseUrl": "http://localhost:4000/api", ');
    const headers = headersFollowingRuntimeConfig(configFile, { log: (line) => logged.push(line) });
    const port = await start({ headers });

    for (let request = 0; request < 3; request += 1) {
      const response = await get(port, '/index.html');
      assert.equal(response.status, 200, 'pages still load before any good config');
      assert.deepEqual(scriptSources(response), ["'self'"], 'scripts from the page itself only');
      assert.deepEqual(sourcesOf(response, 'style-src'), ["'self'", "'unsafe-inline'"]);
    }
    assert.equal(logged.length, 1, 'a malformed config is logged once, not per request');

    writeConfig(
      JSON.stringify({
        apiBaseUrl: 'http://localhost:4000/api',
        remotes: { mfe_wallet: 'http://localhost:3002/mf-manifest.json' },
      }),
    );
    const good = await get(port, '/index.html');
    assert.deepEqual(scriptSources(good), ["'self'", 'http://localhost:3002']);
    // A remote's stylesheets are files on its origin (devkit's create-config.cjs); the shell's own stay inline.
    assert.deepEqual(sourcesOf(good, 'style-src'), ["'self'", "'unsafe-inline'", 'http://localhost:3002']);

    const broken = [
      '{"apiBaseUrl": 42}',
      JSON.stringify({ apiBaseUrl: 'http://localhost:4000/api', remotes: { x: 'javascript:alert(1)' } }),
      JSON.stringify({ apiBaseUrl: 'http://localhost:4000/api', remotes: ['http://[::1'] }),
      'null',
      '',
    ];
    for (const text of broken) {
      writeConfig(text);
      for (let request = 0; request < 2; request += 1) {
        const response = await get(port, '/index.html');
        assert.equal(response.status, 200);
        assert.deepEqual(
          scriptSources(response),
          ["'self'", 'http://localhost:3002'],
          `keeps it after ${text}`,
        );
      }
    }
    fs.rmSync(configFile);
    const missing = await get(port, '/index.html');
    assert.deepEqual(scriptSources(missing), ["'self'", 'http://localhost:3002'], 'keeps it when it is gone');
    await get(port, '/index.html');
    assert.equal(logged.length, 1 + broken.length + 1, 'each bad version logged once');
    counts.requests += 6 + broken.length * 2 + 2;
  });

  it('serves symlinks only while they stay inside the root', async () => {
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'assets', 'leak.txt'));
    fs.symlinkSync(outside, path.join(root, 'leaked-dir'));
    fs.symlinkSync(path.join(root, 'assets', 'inside.txt'), path.join(root, 'alias.txt'));
    fs.symlinkSync(path.join(root, 'assets'), path.join(root, 'alias-dir'));
    const port = await start({ files: { '/config.json': path.join(outside, 'config.json') } });

    for (const target of [
      '/assets/leak.txt',
      '/leaked-dir/secret.txt',
      '/leaked-dir/',
      '/alias-dir/../assets/leak.txt',
    ]) {
      const response = await get(port, target);
      assert.equal(response.status, 404, `${target} leaves the root`);
      assert.doesNotMatch(response.body.toString(), /outside the build/);
    }
    for (const target of ['/alias.txt', '/alias-dir/inside.txt']) {
      const response = await get(port, target);
      assert.equal(response.status, 200, `${target} stays inside`);
      assert.equal(response.body.toString(), 'inside the build');
    }
    assert.equal(
      (await get(port, '/config.json')).status,
      200,
      'a `files` entry is served from outside on purpose',
    );

    const linkedRoot = path.join(workDir, 'linked-root');
    fs.symlinkSync(root, linkedRoot);
    const server = createStaticServer({ root: linkedRoot });
    servers.push(server);
    const linkedPort = await listen(server);
    assert.equal(
      (await get(linkedPort, '/assets/inside.txt')).status,
      200,
      'a root that is itself a symlink',
    );
    assert.equal((await get(linkedPort, '/assets/leak.txt')).status, 404);
    counts.requests += 9;
    await assertStillServing(port);
  });

  it('answers 404 for a FIFO in the build folder without waiting on it', async (t) => {
    if (spawnSync('mkfifo', [path.join(root, 'assets', 'pipe.js')]).status !== 0) {
      t.skip('mkfifo is not available');
      return;
    }
    const port = await start();
    assert.equal((await get(port, '/assets/pipe.js')).status, 404);
    counts.requests += 1;
    await assertStillServing(port);
  });
});

/** What a build folder holds for tools (source maps, build statistics, its stamp) and what a deploy leaves in one. */
describe('static server: files a build holds that are never served', () => {
  let workDir;
  let port;
  let server;

  before(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'time-wallet-private-'));
    const root = path.join(workDir, 'dist');
    const version = path.join(workDir, 'deploy', '1.0.0');
    const files = {
      [root]: {
        'index.html': INDEX_HTML,
        'main.js': 'main',
        'main.js.map': '{"sources":["secret source"]}',
        'mf-manifest.json': '{"name":"shell"}',
        'mf-stats.json': '{"secret":"stats"}',
        '.build-stamp': 'secret stamp',
        '.git/config': 'secret git',
        '.private/notes.txt': 'secret notes',
        'assets/.hidden.txt': 'secret hidden',
        'assets/style.css.map': 'secret css map',
      },
      [version]: {
        'remoteEntry.js': 'entry',
        'remoteEntry.js.map': 'secret map',
        'mf-stats.json': 'secret stats',
        '.build-stamp': 'secret stamp',
      },
    };
    for (const [dir, contents] of Object.entries(files)) {
      for (const [file, text] of Object.entries(contents)) {
        fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        fs.writeFileSync(path.join(dir, file), text);
      }
    }
    // Names that look public, for files that are not.
    fs.symlinkSync(path.join(root, 'main.js.map'), path.join(root, 'alias.js'));
    fs.symlinkSync(path.join(root, '.private'), path.join(root, 'notes'));
    server = createStaticServer({
      root,
      spa: true,
      headers: securityHeaders(),
      versionsDir: path.dirname(version),
    });
    port = await listen(server);
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve).closeAllConnections());
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('answers 404 for source maps, dotfiles and build statistics, where the page would answer too', async () => {
    for (const target of [
      '/main.js.map',
      '/main.js.map?v=1',
      '/main.js%2emap',
      '/assets/style.css.map',
      '/mf-stats.json',
      '/.build-stamp',
      '/%2ebuild-stamp',
      '/assets/../.build-stamp',
      '/.git/config',
      '/.git/',
      '/.git',
      '/assets/.hidden.txt',
      '/alias.js',
      '/notes/notes.txt',
      '/v/1.0.0/remoteEntry.js.map',
      '/v/1.0.0/mf-stats.json',
      '/v/1.0.0/.build-stamp',
    ]) {
      const response = await get(port, target);
      assert.equal(response.status, 404, target);
      assert.doesNotMatch(response.body.toString(), /secret/, target);
    }
    for (const [target, body] of [
      ['/main.js', 'main'],
      ['/mf-manifest.json', '{"name":"shell"}'],
      ['/app/wallet', INDEX_HTML],
      ['/v/1.0.0/remoteEntry.js', 'entry'],
    ]) {
      const response = await get(port, target);
      assert.equal(response.status, 200, target);
      assert.equal(response.body.toString(), body, target);
    }
  });
});
