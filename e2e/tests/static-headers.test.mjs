import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { startStack } from '../support/stack.mjs';

const require = createRequire(import.meta.url);
const { repoRoot, remotes, shell } = require('@time-wallet/devkit/apps');

const FOREIGN_ORIGIN = 'https://evil.example';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const HASHED_CHUNK = /^[\w.-]+\.[0-9a-f]{8}\.js$/;
const SAFE_REFERRER_POLICIES = new Set([
  'no-referrer',
  'same-origin',
  'strict-origin',
  'strict-origin-when-cross-origin',
]);

/** Each inline script of a page (one without src) with its CSP hash source. */
function inlineScriptsOf(html) {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter(([, , body]) => body.trim() !== '')
    .map(([, attributes, body]) => ({
      attributes,
      source: `'sha256-${crypto.createHash('sha256').update(body, 'utf8').digest('base64')}'`,
    }));
}

function parseCsp(header) {
  const directives = new Map();
  for (const part of header.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

/** The static servers as `startStack` runs them, read over HTTP the way a browser would. */
describe('static servers: security and caching headers', () => {
  let stack;
  let apps;
  let allowedScriptOrigins;
  let allowedConnectOrigins;
  const checked = { responses: 0, servers: new Set(), corsChecks: 0 };

  before(async () => {
    stack = await startStack();
    const remoteOrigins = remotes.map((remote) => stack.originOf(remote.federationName));
    allowedScriptOrigins = new Set(["'self'", ...remoteOrigins]);
    allowedConnectOrigins = new Set([...allowedScriptOrigins, new URL(stack.apiBaseUrl).origin]);

    const hashedChunkOf = (dir) => {
      const chunk = fs
        .readdirSync(path.join(repoRoot, dir, 'dist'))
        .sort()
        .find((file) => HASHED_CHUNK.test(file));
      assert.ok(chunk, `${dir} has a hashed chunk`);
      return `/${chunk}`;
    };
    apps = [
      {
        name: 'shell',
        origin: stack.shellUrl,
        noCache: ['/', '/app/wallet', '/index.html', '/main.js', '/config.json', '/mf-manifest.json'],
        immutable: [hashedChunkOf(shell.dir)],
      },
      ...remotes.map((remote) => {
        const origin = stack.originOf(remote.federationName);
        return {
          name: remote.federationName,
          origin,
          noCache: ['/remoteEntry.js', '/mf-manifest.json'],
          immutable: [hashedChunkOf(remote.dir)],
        };
      }),
    ];
  });
  after(async () => {
    console.log(
      `static-headers: ${checked.responses} responses from ${checked.servers.size} servers checked, ` +
        `${checked.corsChecks} CORS answers`,
    );
    await stack?.stop();
  });

  async function get(origin, urlPath, headers = {}) {
    const response = await fetch(`${origin}${urlPath}`, { headers });
    await response.arrayBuffer();
    return response;
  }

  /** `inlineHashes`: the hash sources of the page's own inline scripts, the one kind of source script-src may add. */
  function assertSecurityHeaders(response, where, inlineHashes = new Set()) {
    const csp = response.headers.get('content-security-policy');
    assert.ok(csp, `${where}: has a Content-Security-Policy`);
    const directives = parseCsp(csp);
    const scriptSources = directives.get('script-src') ?? directives.get('default-src');
    const connectSources = directives.get('connect-src') ?? directives.get('default-src');
    assert.ok(scriptSources, `${where}: script-src (or default-src) is set`);
    assert.ok(connectSources, `${where}: connect-src (or default-src) is set`);
    for (const [directive, sources] of directives) {
      for (const source of sources) {
        assert.ok(!source.includes('*'), `${where}: ${directive} has no wildcard (${source})`);
        assert.notEqual(source.toLowerCase(), "'unsafe-eval'", `${where}: ${directive} allows no eval`);
      }
    }
    for (const directive of ['default-src', 'script-src', 'script-src-elem']) {
      for (const source of directives.get(directive) ?? []) {
        assert.notEqual(
          source.toLowerCase(),
          "'unsafe-inline'",
          `${where}: ${directive} allows no inline scripts`,
        );
        assert.ok(!/^(data|blob|https?):?$/i.test(source), `${where}: ${directive} allows no whole scheme`);
      }
    }
    for (const source of scriptSources) {
      assert.ok(
        allowedScriptOrigins.has(source) || inlineHashes.has(source),
        `${where}: script-src allows only the app's own origins and the page's own inline scripts (${source})`,
      );
    }
    for (const source of connectSources) {
      assert.ok(
        allowedConnectOrigins.has(source),
        `${where}: connect-src allows only the app's own origins and the API (${source})`,
      );
    }
    assert.deepEqual(directives.get('object-src'), ["'none'"], `${where}: object-src 'none'`);
    const frameAncestors = directives.get('frame-ancestors');
    const frameOptions = response.headers.get('x-frame-options');
    assert.ok(
      (frameAncestors && frameAncestors.every((source) => source === "'none'" || source === "'self'")) ||
        /^(DENY|SAMEORIGIN)$/i.test(frameOptions ?? ''),
      `${where}: may not be framed by other sites (frame-ancestors ${frameAncestors}, X-Frame-Options ${frameOptions})`,
    );
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff', `${where}: nosniff`);
    assert.ok(
      SAFE_REFERRER_POLICIES.has(response.headers.get('referrer-policy')),
      `${where}: Referrer-Policy keeps paths to itself (${response.headers.get('referrer-policy')})`,
    );
    assert.equal(
      response.headers.get('cross-origin-opener-policy'),
      'same-origin',
      `${where}: COOP same-origin`,
    );
    checked.responses += 1;
  }

  it('sends a strict CSP and the other security headers with every page, entry, chunk and manifest', async () => {
    for (const app of apps) {
      for (const urlPath of [...app.noCache, ...app.immutable]) {
        const response = await get(app.origin, urlPath, { 'Accept-Encoding': 'gzip' });
        assert.equal(response.status, 200, `${app.name}${urlPath} is served`);
        const isPage = /^text\/html\b/.test(response.headers.get('content-type') ?? '');
        const page = isPage ? await (await fetch(`${app.origin}${urlPath}`)).text() : '';
        const inlineHashes = new Set(inlineScriptsOf(page).map((script) => script.source));
        assertSecurityHeaders(response, `${app.name}${urlPath}`, inlineHashes);
        if (urlPath.endsWith('.js')) {
          assert.match(response.headers.get('content-type'), /^text\/javascript\b/, `${app.name}${urlPath}`);
        }
      }
      const missing = await get(app.origin, '/no-such-file.js');
      assert.equal(missing.status, 404);
      assert.equal(
        missing.headers.get('x-content-type-options'),
        'nosniff',
        `${app.name}: a 404 is not sniffed`,
      );
      checked.servers.add(app.name);
    }
  });

  it("runs no inline code in the shell's pages but the build's own scripts, each allowed by its hash alone", async () => {
    for (const urlPath of ['/', '/index.html', '/auth/login', '/app/wallet']) {
      const response = await fetch(`${stack.shellUrl}${urlPath}`);
      const html = await response.text();
      const scriptSources = parseCsp(response.headers.get('content-security-policy')).get('script-src');
      const inline = inlineScriptsOf(html);
      // theme-init.js, inlined so the first paint waits on no request; and on the app's pages (not the static landing
      // page) register-service-worker.js, which registers the worker once the page has settled.
      const expected = urlPath === '/' ? 1 : 2;
      assert.equal(inline.length, expected, `${urlPath}: ${expected} inline scripts`);
      for (const { attributes, source } of inline) {
        assert.equal(attributes.trim(), '', `${urlPath}: a plain inline script`);
        assert.ok(scriptSources.includes(source), `${urlPath}: script-src names its hash`);
      }
      const hashes = scriptSources.filter((source) => source.startsWith("'sha"));
      assert.deepEqual(
        hashes,
        inline.map((script) => script.source),
        `${urlPath}: no other hash`,
      );
      assert.doesNotMatch(html, /\son[a-z]+=/i, `${urlPath}: no inline event handlers`);
    }
    const script = await fetch(`${stack.shellUrl}/main.js`);
    assert.ok(
      !parseCsp(script.headers.get('content-security-policy'))
        .get('script-src')
        .some((s) => s.startsWith("'sha")),
      'a script file is answered with the policy as configured',
    );
  });

  it('lets only the shell read a remote across origins', async () => {
    for (const app of apps.filter((candidate) => candidate.name !== 'shell')) {
      for (const urlPath of ['/mf-manifest.json', '/remoteEntry.js', app.immutable[0]]) {
        const foreign = await get(app.origin, urlPath, { Origin: FOREIGN_ORIGIN });
        assert.equal(foreign.status, 200);
        assert.equal(
          foreign.headers.get('access-control-allow-origin'),
          null,
          `${app.name}${urlPath}: no CORS grant to a foreign origin`,
        );
        const fromShell = await get(app.origin, urlPath, { Origin: stack.shellUrl });
        assert.equal(
          fromShell.headers.get('access-control-allow-origin'),
          stack.shellUrl,
          `${app.name}${urlPath}: the shell may read it`,
        );
        assert.match(
          fromShell.headers.get('vary') ?? '',
          /\bOrigin\b/,
          `${app.name}${urlPath}: varies by Origin`,
        );
        checked.corsChecks += 2;
      }
      const preflight = await fetch(`${app.origin}/mf-manifest.json`, {
        method: 'OPTIONS',
        headers: { Origin: FOREIGN_ORIGIN, 'Access-Control-Request-Method': 'GET' },
      });
      assert.equal(
        preflight.headers.get('access-control-allow-origin'),
        null,
        `${app.name}: foreign preflight`,
      );
      checked.corsChecks += 1;
    }
    const shellForeign = await get(stack.shellUrl, '/main.js', { Origin: FOREIGN_ORIGIN });
    assert.equal(shellForeign.headers.get('access-control-allow-origin'), null, 'the shell grants no one');
    checked.corsChecks += 1;
  });

  it('caches hashed chunks for good and revalidates entries, manifests, pages and the runtime config', async () => {
    for (const app of apps) {
      for (const urlPath of app.immutable) {
        const response = await get(app.origin, urlPath);
        assert.equal(response.headers.get('cache-control'), IMMUTABLE, `${app.name}${urlPath} is immutable`);
      }
      for (const urlPath of app.noCache) {
        const response = await get(app.origin, urlPath);
        assert.equal(
          response.headers.get('cache-control'),
          'no-cache',
          `${app.name}${urlPath} is revalidated`,
        );
        const etag = response.headers.get('etag');
        assert.ok(etag, `${app.name}${urlPath} has an ETag`);
        const again = await get(app.origin, urlPath, { 'If-None-Match': etag });
        assert.equal(again.status, 304, `${app.name}${urlPath} revalidates cheaply`);
      }
    }
  });
});
