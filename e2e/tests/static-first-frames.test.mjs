import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  createStaticServer,
  firstFramesFollowingRuntimeConfig,
  headersFollowingRuntimeConfig,
} from '@time-wallet/devkit/serve';

const require = createRequire(import.meta.url);
const { firstFrames } = require('@time-wallet/devkit/apps');

// A prerendered page as the shell's build writes it (minified: unquoted attributes), with its one inline script.
const THEME_SCRIPT = 'document.documentElement.dataset.theme="light"';
const PAGE =
  `<!doctype html><html><head><script>${THEME_SCRIPT}</script></head><body><div id=root><main>` +
  '<h1>Time Wallet Analytics</h1>' +
  // Over the 512 bytes from which the server compresses.
  `<p>${'See how you progress this week. '.repeat(20)}</p>` +
  `<div class=slot ${firstFrames.slot}=mfe_analytics/analytics aria-hidden=true><span class=bar></span></div>` +
  '</main></div></body></html>';
const FRAME =
  '<style>.card{padding:1rem}</style><section class=card><h2>Average Productive Hours</h2></section>';

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}
const close = (server) =>
  new Promise((resolve) => {
    server.closeAllConnections();
    server.close(resolve);
  });

/** A remote's origin: answers /first-frames/<page>.html as `answer` says, and counts what it is asked. */
async function startRemote() {
  const remote = {
    asked: 0,
    answer: { status: 200, type: 'text/html; charset=utf-8', body: FRAME, delayMs: 0 },
  };
  remote.server = http.createServer((req, res) => {
    remote.asked += 1;
    const { status, type, body, delayMs } = remote.answer;
    setTimeout(() => {
      if (req.url !== `/${firstFrames.dir}/analytics.html`) res.writeHead(404).end();
      else res.writeHead(status, { 'Content-Type': type }).end(body);
    }, delayMs);
  });
  remote.port = await listen(remote.server);
  remote.origin = `http://127.0.0.1:${remote.port}`;
  return remote;
}

describe('static server: remote first frames in the shell pages', () => {
  let dir;
  let configFile;
  let remote;
  let shell;
  let shellUrl;
  let clock;
  let frames;
  const logged = [];

  const writeConfig = (remoteOrigin) =>
    fs.writeFileSync(
      configFile,
      JSON.stringify({
        apiBaseUrl: 'http://127.0.0.1:9/api',
        remotes: { mfe_analytics: `${remoteOrigin}/mf-manifest.json` },
      }),
    );

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'time-wallet-first-frames-'));
    const root = path.join(dir, 'dist');
    fs.mkdirSync(path.join(root, 'app'), { recursive: true });
    fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>app</title>');
    fs.writeFileSync(path.join(root, 'app/analytics.html'), PAGE);
    fs.writeFileSync(
      path.join(root, 'prerendered.json'),
      JSON.stringify({ '/app/analytics': 'app/analytics.html' }),
    );
    configFile = path.join(dir, 'config.json');
    remote = await startRemote();
    writeConfig(remote.origin);
    clock = { now: 0 };
    frames = firstFramesFollowingRuntimeConfig(configFile, {
      now: () => clock.now,
      waitMs: 300,
      freshMs: 10_000,
      log: (line) => logged.push(line),
    });
    shell = createStaticServer({
      root,
      spa: true,
      headers: headersFollowingRuntimeConfig(configFile),
      files: { '/config.json': configFile },
      composePage: frames.compose,
    });
    shellUrl = `http://127.0.0.1:${await listen(shell)}`;
  });
  after(async () => {
    await close(shell);
    await close(remote.server);
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    logged.length = 0;
  });

  /** Moves the clock past the frames' freshness, and lets the read that a visit then starts finish. */
  async function nextRead() {
    clock.now += 10_000;
    await fetch(`${shellUrl}/app/analytics`).then((response) => response.text());
    await frames.settled();
  }

  it("puts the remote's frame into the page's slot, keeps the page's own CSP and names the frame in the ETag", async () => {
    // The first visit waits up to 300 ms for the frame; on a busy machine the read may take longer than that.
    await (await fetch(`${shellUrl}/app/analytics`)).text();
    await frames.settled();
    const response = await fetch(`${shellUrl}/app/analytics`);
    const html = await response.text();
    assert.equal(response.status, 200);
    assert.ok(
      html.includes(
        `<div class=slot ${firstFrames.slot}=mfe_analytics/analytics aria-hidden=true>${FRAME}</div>`,
      ),
      'the frame stands in for the placeholders, inside the slot',
    );
    assert.ok(!html.includes('class=bar'), 'the placeholders are gone');
    const hash = crypto.createHash('sha256').update(THEME_SCRIPT).digest('base64');
    const scriptSrc = response.headers
      .get('content-security-policy')
      .split('; ')
      .find((directive) => directive.startsWith('script-src'));
    assert.equal(
      scriptSrc,
      `script-src 'self' ${remote.origin} 'sha256-${hash}'`,
      "the page's own script only",
    );

    const etag = response.headers.get('etag');
    assert.match(etag, /-[\w-]{12}"$/, 'the ETag names the frame');
    const again = await fetch(`${shellUrl}/app/analytics`, { headers: { 'If-None-Match': etag } });
    assert.equal(again.status, 304, 'the same page and frame are not sent twice');

    const gzipped = await new Promise((resolve, reject) => {
      http.get(`${shellUrl}/app/analytics`, { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
    });
    assert.equal(gzipped.headers['content-encoding'], 'gzip');
    assert.equal(zlib.gunzipSync(gzipped.body).toString(), html, 'compressed, the same page');
  });

  it('reads a frame once while fresh, and a new one once stale, serving the old one meanwhile', async () => {
    const askedBefore = remote.asked;
    for (let visit = 0; visit < 5; visit += 1) await (await fetch(`${shellUrl}/app/analytics`)).text();
    assert.equal(remote.asked, askedBefore, 'five visits inside the freshness: no read');

    const changed = FRAME.replace('Average Productive Hours', 'Average Focus Hours');
    remote.answer = { ...remote.answer, body: changed };
    clock.now += 10_000;
    const during = await (await fetch(`${shellUrl}/app/analytics`)).text();
    assert.ok(during.includes('Average Productive Hours'), 'the old frame while the new one is read');
    await frames.settled();
    const afterRead = await (await fetch(`${shellUrl}/app/analytics`)).text();
    assert.ok(afterRead.includes('Average Focus Hours'), "then the remote's new deploy");
    assert.equal(remote.asked, askedBefore + 1, 'one read for it');
    remote.answer = { ...remote.answer, body: FRAME };
    await nextRead();
  });

  it('keeps the placeholders for a frame that is missing, not HTML, too large or holding a script', async () => {
    const cases = [
      ['missing', { status: 404 }],
      ['not HTML', { type: 'application/json' }],
      ['over 64 KB', { body: `<p>${'x'.repeat(64 * 1024)}</p>` }],
      ['a script', { body: `${FRAME}<script>alert(1)</script>` }],
      ['a handler', { body: '<img src=x onerror=alert(1)>' }],
      ['a javascript: link', { body: '<a href="javascript:alert(1)">x</a>' }],
    ];
    for (const [what, answer] of cases) {
      remote.answer = { status: 200, type: 'text/html', body: FRAME, delayMs: 0, ...answer };
      await nextRead();
      const html = await (await fetch(`${shellUrl}/app/analytics`)).text();
      assert.ok(html.includes('<span class=bar></span>'), `${what}: the placeholders stay`);
      assert.ok(!html.includes('alert(1)'), `${what}: nothing of it is sent`);
    }
    assert.ok(logged.some((line) => /over 65536 bytes/.test(line)));
    assert.ok(logged.some((line) => /holds scripts, frames or handlers/.test(line)));
    remote.answer = { status: 200, type: 'text/html', body: FRAME, delayMs: 0 };
    await nextRead();
  });

  it('waits once, at most its wait, for a frame it never had; later visits do not wait for that read', async () => {
    const slow = await startRemote();
    slow.answer = { ...slow.answer, delayMs: 4000 };
    fs.writeFileSync(
      path.join(dir, 'slow-config.json'),
      JSON.stringify({
        apiBaseUrl: 'http://127.0.0.1:9/api',
        remotes: { mfe_analytics: `${slow.origin}/m.json` },
      }),
    );
    const waiting = firstFramesFollowingRuntimeConfig(path.join(dir, 'slow-config.json'), {
      waitMs: 1000,
      log: () => {},
    });
    try {
      let started = Date.now();
      assert.equal(await waiting.compose(Buffer.from(PAGE)), null, 'no frame yet: the page as it is');
      const waited = Date.now() - started;
      assert.ok(
        waited >= 900 && waited < 3500,
        `the first visit waited ${waited} ms: its wait, not the read's 4 s`,
      );
      started = Date.now();
      assert.equal(await waiting.compose(Buffer.from(PAGE)), null);
      assert.ok(Date.now() - started < 500, 'the next visit does not wait for the same read');
      await waiting.settled();
      const composed = await waiting.compose(Buffer.from(PAGE));
      assert.ok(
        composed.body.toString().includes(FRAME),
        'the frame read meanwhile is used by the next visit',
      );
      assert.equal(slow.asked, 1, 'one read for all three visits');
    } finally {
      await close(slow.server);
    }
  });

  it('keeps the last good frame while its remote is unreachable or failing, and drops it once the remote has none', async () => {
    const flaky = await startRemote();
    const configFile2 = path.join(dir, 'flaky-config.json');
    fs.writeFileSync(
      configFile2,
      JSON.stringify({
        apiBaseUrl: 'http://127.0.0.1:9/api',
        remotes: { mfe_analytics: `${flaky.origin}/m.json` },
      }),
    );
    const time = { now: 0 };
    const flakyFrames = firstFramesFollowingRuntimeConfig(configFile2, {
      now: () => time.now,
      log: () => {},
    });
    const visit = async () => {
      time.now += 10_000;
      await flakyFrames.compose(Buffer.from(PAGE));
      await flakyFrames.settled();
      return (await flakyFrames.compose(Buffer.from(PAGE)))?.body.toString() ?? PAGE;
    };
    try {
      assert.ok((await visit()).includes(FRAME), 'read');
      flaky.answer = { ...flaky.answer, status: 503 };
      assert.ok((await visit()).includes(FRAME), 'a 503: the last frame is kept');
      await close(flaky.server);
      assert.ok((await visit()).includes(FRAME), 'the remote gone: kept');
      const back = http.createServer((req, res) => res.writeHead(404).end());
      await new Promise((resolve) => back.listen(flaky.port, '127.0.0.1', resolve));
      try {
        assert.equal(await visit(), PAGE, 'back, with no frame for the page: the placeholders');
      } finally {
        await close(back);
      }
    } finally {
      await close(flaky.server).catch(() => undefined);
    }
  });

  it('leaves pages without a slot, or whose remote the config does not name, as they are', async () => {
    const index = await fetch(`${shellUrl}/app/wallet`);
    assert.equal(await index.text(), '<!doctype html><title>app</title>');
    fs.writeFileSync(configFile, JSON.stringify({ apiBaseUrl: 'http://127.0.0.1:9/api', remotes: {} }));
    try {
      const html = await (await fetch(`${shellUrl}/app/analytics`)).text();
      assert.equal(html, PAGE);
    } finally {
      writeConfig(remote.origin);
    }
  });
});
