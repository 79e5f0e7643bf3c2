import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { runtimeConfigReader } from './runtime-config.mjs';

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.webmanifest']);
// Chunks are named `[name].[contenthash:8].js` by the shared webpack config: their bytes never change.
const HASHED_FILE = /\.[0-9a-f]{8}\.(js|css|png|svg|webp|jpg)$/;
// Where a remote's static server serves its deployed versions (createStaticServer's versionsDir).
export const VERSIONS_PREFIX = '/v/';
const gzipCache = new Map();
const GZIP_CACHE_LIMIT = 200;

export function cacheControlFor(relativePath) {
  return HASHED_FILE.test(relativePath) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

export function securityHeaders({ scriptOrigins = [], styleOrigins = [], connectOrigins = [] } = {}) {
  const scripts = ["'self'", ...scriptOrigins].join(' ');
  const styles = ["'self'", "'unsafe-inline'", ...styleOrigins].join(' ');
  const connects = ["'self'", ...connectOrigins].join(' ');
  return {
    'Content-Security-Policy': [
      "default-src 'self'",
      `script-src ${scripts}`,
      `connect-src ${connects}`,
      // The shell's components inject their scoped styles at run time (as do remotes built before their stylesheets
      // became files); a remote's stylesheets are files on its origin. No inline scripts are allowed.
      `style-src ${styles}`,
      "img-src 'self' data: blob:",
      "font-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
  };
}

// An inline <script> element's code (one without src), as the HTML minifier writes it: no attributes.
const INLINE_SCRIPT = /<script>([\s\S]*?)<\/script>/g;

/**
 * The policy with each inline script of the page named in script-src by its SHA-256 (CSP 2 hash sources), so the
 * build's own inline scripts run (theme-init.js, inlined so the first paint waits on no request) and no other inline
 * code does: the page's bytes are the build's, read from the file served, so a script injected into the DOM later
 * has no hash here. A page without inline scripts keeps the policy as it is.
 */
export function allowingInlineScripts(policy, html) {
  const hashes = [...html.toString('utf8').matchAll(INLINE_SCRIPT)].map(
    ([, code]) => `'sha256-${crypto.createHash('sha256').update(code, 'utf8').digest('base64')}'`,
  );
  if (hashes.length === 0) return policy;
  return policy
    .split(/;\s*/)
    .map((directive) =>
      /^script-src\s/.test(directive) ? [directive, ...new Set(hashes)].join(' ') : directive,
    )
    .join('; ');
}

function resolveInside(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const file = path.resolve(root, `.${path.posix.normalize(`/${decoded}`)}`);
  return isInside(root, file) ? file : null;
}

function isInside(root, file) {
  return file === root || file.startsWith(root + path.sep);
}

// The federation plugin's build statistics: read by tools from disk, like source maps, never by a browser.
const BUILD_METADATA = new Set(['mf-stats.json']);

/**
 * A file of a build that is never sent, by its path inside the folder served: source maps (the readable sources),
 * anything under a name starting with '.' (the build stamp, a deploy's copy under way, a VCS folder) and build metadata.
 */
function isPrivate(relativePath) {
  const segments = relativePath.split(path.sep);
  const name = segments.at(-1);
  return (
    segments.some((segment) => segment.startsWith('.')) || name.endsWith('.map') || BUILD_METADATA.has(name)
  );
}

/**
 * Opens a file to serve and stats the open descriptor, so what is stat'ed is what is read: a file a rebuild
 * removes or replaces afterwards is still read whole. `realRoot` set: the real path (symlinks followed) must stay
 * inside it and not be private there. Null when there is nothing to serve: missing, unreadable, not a regular file,
 * outside the root or private (see isPrivate).
 */
function openServable(fileSystem, file, realRoot) {
  let fd;
  try {
    const real = realRoot === undefined ? file : fileSystem.realpathSync(file);
    if (realRoot !== undefined && (!isInside(realRoot, real) || isPrivate(path.relative(realRoot, real))))
      return null;
    // O_NONBLOCK: opening a FIFO left in a build folder must not block the server.
    fd = fileSystem.openSync(real, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    const stat = fileSystem.fstatSync(fd);
    if (stat.isFile()) return { fd, stat };
  } catch {
    // Not found, or gone or unreadable by now: answered as not found.
  }
  if (fd !== undefined) closeQuietly(fileSystem, fd);
  return null;
}

function closeQuietly(fileSystem, fd) {
  try {
    fileSystem.closeSync(fd);
  } catch {
    // Already closed: nothing is left to release.
  }
}

function gzipped(file, stat, readBody) {
  const key = `${file}:${stat.mtimeMs}:${stat.size}`;
  let body = gzipCache.get(key);
  if (!body) {
    const raw = readBody();
    body = zlib.gzipSync(raw, { level: 9 });
    // A file rewritten while it was read is served as read, but never cached under the older stat's key.
    if (raw.length !== stat.size) return body;
    if (gzipCache.size >= GZIP_CACHE_LIMIT) gzipCache.delete(gzipCache.keys().next().value);
    gzipCache.set(key, body);
  }
  return body;
}

const PRERENDERED_PAGES = 'prerendered.json';

/**
 * The document a build prerendered for a URL path, as a one-item list (none: empty): its prerendered.json maps paths
 * to files inside the build (devkit/webpack/prerender.cjs writes it; "/" is the static landing page). Read on every
 * request like any file, so a rebuild is served at once; a missing or unreadable list means no prerendered pages.
 */
function prerenderedFile(fileSystem, root, realRoot, pathname) {
  const opened = openServable(fileSystem, path.join(root, PRERENDERED_PAGES), realRoot);
  if (!opened) return [];
  try {
    const pages = JSON.parse(fileSystem.readFileSync(opened.fd, 'utf8'));
    const key = pathname.replace(/(.)\/+$/, '$1');
    const file = pages !== null && typeof pages === 'object' && Object.hasOwn(pages, key) ? pages[key] : null;
    const resolved = typeof file === 'string' ? resolveInside(root, file) : null;
    return resolved ? [resolved] : [];
  } catch {
    return [];
  } finally {
    closeQuietly(fileSystem, opened.fd);
  }
}

function sendText(res, status, text) {
  for (const name of ['Content-Encoding', 'Content-Length', 'ETag']) res.removeHeader(name);
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' });
  res.end(text);
}

function clientErrorStatus(error) {
  if (error.code === 'HPE_HEADER_OVERFLOW') return 431;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

/**
 * Serves one app's build from its own origin. Every request stats the file again, so a rebuild is served at once.
 * `spa` answers unknown paths with index.html; `files` maps URL paths to files outside root (the runtime config).
 * `headers` may be a function, read per request, so a policy that follows the runtime config stays current.
 * `versionsDir` serves a remote's deployed versions beside its build: `/v/<version>/<file>` is `<file>` in the folder
 * `versionsDir/<version>` (see bin/deploy.mjs), with the same caching rules; nothing directly in `versionsDir` (the
 * deploy history) and no folder whose name starts with a dot (a copy still under way) is served.
 * Symlinks are followed only while their target stays inside root. Source maps, dotfiles and build metadata are
 * never served, answered as not found (see isPrivate). `fileSystem` (node:fs by default) lets tests
 * make reads fail. No request, however malformed, throws out of the server: bad ones get a 4xx.
 */
export function createStaticServer({
  root,
  spa = false,
  allowedOrigins = [],
  headers = {},
  files = {},
  versionsDir,
  fileSystem = fs,
  composePage,
}) {
  const absoluteRoot = path.resolve(root);
  const absoluteVersionsDir = versionsDir === undefined ? null : path.resolve(versionsDir);
  const origins = new Set(allowedOrigins);
  const currentHeaders = () => (typeof headers === 'function' ? headers() : headers);

  function realPathNow(dir) {
    try {
      return fileSystem.realpathSync(dir);
    } catch {
      return null;
    }
  }

  /** A file of a deployed version, or null: only inside a version's folder, and only while it stays inside. */
  function findVersioned(pathname) {
    const realVersionsDir = realPathNow(absoluteVersionsDir);
    const requested = resolveInside(absoluteVersionsDir, pathname.slice(VERSIONS_PREFIX.length - 1));
    if (realVersionsDir === null || requested === null) return null;
    const [version, ...inside] = path.relative(absoluteVersionsDir, requested).split(path.sep);
    if (inside.length === 0 || version.startsWith('.')) return null;
    const opened = openServable(fileSystem, requested, realVersionsDir);
    return opened && { ...opened, file: requested, cacheControl: cacheControlFor(inside.join('/')) };
  }

  /** The file a URL path names: a `files` entry, else a file inside root, its folder's index.html or the SPA page. */
  function findServable(pathname) {
    if (Object.hasOwn(files, pathname)) {
      const opened = openServable(fileSystem, files[pathname], undefined);
      return opened && { ...opened, file: files[pathname], cacheControl: 'no-cache' };
    }
    if (absoluteVersionsDir !== null && pathname.startsWith(VERSIONS_PREFIX)) return findVersioned(pathname);
    const realRoot = realPathNow(absoluteRoot);
    const requested = resolveInside(absoluteRoot, pathname);
    // Not found, rather than the SPA's page: `/.build-stamp` has no extension, so it would look like a route.
    if (realRoot === null || requested === null || isPrivate(path.relative(absoluteRoot, requested)))
      return null;
    const candidates = [requested];
    // A page prerendered at build time answers its paths ahead of any index.html (see prerenderedFile).
    if (spa && !path.extname(pathname))
      candidates.push(...prerenderedFile(fileSystem, absoluteRoot, realRoot, pathname));
    if (pathname.endsWith('/')) candidates.push(path.join(requested, 'index.html'));
    if (spa && !path.extname(pathname)) candidates.push(path.join(absoluteRoot, 'index.html'));
    for (const file of candidates) {
      const opened = openServable(fileSystem, file, realRoot);
      if (opened)
        return { ...opened, file, cacheControl: cacheControlFor(path.relative(absoluteRoot, file)) };
    }
    return null;
  }

  /**
   * `page`: for a page composed before sending (`composePage`), its file's bytes as read and the composed page, if any
   * (`{ body, tag }`: the tag names what was put in, for the ETag and the gzip cache).
   */
  function sendFile(req, res, { fd, stat, file, cacheControl }, page = undefined) {
    let streaming = false;
    try {
      const extension = path.extname(file);
      // Read at most once: a descriptor read to its end reads nothing more.
      let raw = page?.html ?? null;
      const readBody = () => (raw ??= fileSystem.readFileSync(fd));
      if (extension === '.html') {
        let html;
        try {
          html = readBody();
        } catch {
          sendText(res, 404, 'Not found');
          return;
        }
        const policy = res.getHeader('Content-Security-Policy');
        if (typeof policy === 'string')
          res.setHeader('Content-Security-Policy', allowingInlineScripts(policy, html));
      }
      // A page rewritten between its stat and its read is answered as read (the bytes its CSP was computed from),
      // with no validator and not from the gzip cache, both of which belong to the stat.
      const readAnother = raw !== null && raw.length !== stat.size;
      // A composed page: the CSP above is the file's own (its inline scripts only); what was put in is named in the
      // ETag and the gzip cache's key, so a new frame is a new version of the page.
      const composed = page?.composed && !readAnother ? page.composed : null;
      if (composed) raw = composed.body;
      const size = raw === null ? stat.size : raw.length;
      const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}${composed ? `-${composed.tag}` : ''}"`;
      res.setHeader('Content-Type', CONTENT_TYPES[extension] ?? 'application/octet-stream');
      res.setHeader('Cache-Control', cacheControl);
      if (!readAnother) res.setHeader('ETag', etag);
      if (!readAnother && req.headers['if-none-match'] === etag) {
        res.writeHead(304).end();
        return;
      }
      const acceptsGzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
      if (acceptsGzip && COMPRESSIBLE.has(extension) && size > 512) {
        let body;
        try {
          if (readAnother) body = zlib.gzipSync(raw, { level: 9 });
          else if (composed) body = gzipped(`${file}#${composed.tag}`, { ...stat, size }, readBody);
          else body = gzipped(file, stat, readBody);
        } catch {
          sendText(res, 404, 'Not found');
          return;
        }
        res.writeHead(200, { 'Content-Encoding': 'gzip', 'Content-Length': body.length });
        res.end(req.method === 'HEAD' ? undefined : body);
        return;
      }
      // Headers are set, not written: a read that fails before the first byte can still answer 404.
      res.statusCode = 200;
      res.setHeader('Content-Length', size);
      if (req.method === 'HEAD' || size === 0) {
        res.end();
        return;
      }
      if (raw !== null) {
        // Already read whole (a page, for its inline scripts).
        res.end(raw);
        return;
      }
      const body = fileSystem.createReadStream(file, { fd, start: 0, end: stat.size - 1 });
      streaming = true;
      body.on('error', () => {
        if (res.headersSent) res.destroy();
        else sendText(res, 404, 'Not found');
      });
      // A file cut short by a rebuild would leave the client waiting for bytes the Content-Length promised.
      let bytesRead = 0;
      body.on('data', (chunk) => (bytesRead += chunk.length));
      body.once('end', () => {
        if (bytesRead < stat.size) res.destroy();
      });
      // A client that hangs up mid-file must not keep the file open.
      res.once('close', () => body.destroy());
      body.pipe(res);
    } finally {
      if (!streaming) closeQuietly(fileSystem, fd);
    }
  }

  function serve(req, res) {
    const origin = req.headers.origin;
    for (const [name, value] of Object.entries(currentHeaders())) res.setHeader(name, value);
    if (origin && origins.has(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Vary', 'Origin, Accept-Encoding');
    } else {
      res.setHeader('Vary', 'Accept-Encoding');
    }
    let url;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      sendText(res, 400, 'Bad request');
      return;
    }
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD');
      res.writeHead(204).end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain' }).end('Method not allowed');
      return;
    }
    const servable = findServable(url.pathname);
    if (!servable) {
      sendText(res, 404, 'Not found');
      return;
    }
    if (composePage && path.extname(servable.file) === '.html') {
      composeAndSend(req, res, servable);
      return;
    }
    sendFile(req, res, servable);
  }

  /** A page passed through `composePage` first; one it cannot compose (or that fails to) goes out as it is. */
  function composeAndSend(req, res, servable) {
    let html;
    try {
      html = fileSystem.readFileSync(servable.fd);
    } catch {
      closeQuietly(fileSystem, servable.fd);
      sendText(res, 404, 'Not found');
      return;
    }
    Promise.resolve()
      .then(() => composePage(html))
      .catch((error) => {
        console.error(`static server ${absoluteRoot}: composing ${req.url}:`, error);
        return null;
      })
      .then((composed) => guarded(req, res, () => sendFile(req, res, servable, { html, composed })));
  }

  /** Nothing in `answer` should throw; if something does, this request fails and the server goes on serving. */
  function guarded(req, res, answer) {
    try {
      answer();
    } catch (error) {
      console.error(`static server ${absoluteRoot}: ${req.method} ${req.url}:`, error);
      try {
        if (res.headersSent) res.destroy();
        else sendText(res, 500, 'Internal error');
      } catch {
        res.destroy();
      }
    }
  }

  const server = http.createServer((req, res) => guarded(req, res, () => serve(req, res)));

  // A request Node cannot parse (bad request line, malformed or oversized headers): answered like Node's own default,
  // with the security headers too, and never as an exception.
  server.on('clientError', (error, socket) => {
    // Node's own default makes the same check: an answer already being written on this socket must not be corrupted.
    const inFlight = socket._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const status = clientErrorStatus(error);
    const body = http.STATUS_CODES[status] ?? 'Bad request';
    let extraHeaders = '';
    try {
      for (const [name, value] of Object.entries(currentHeaders())) extraHeaders += `${name}: ${value}\r\n`;
    } catch {
      extraHeaders = '';
    }
    socket.end(
      `HTTP/1.1 ${status} ${body}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n${extraHeaders}\r\n${body}`,
      () => socket.destroy(),
    );
  });
  return server;
}

function httpOriginOf(url) {
  const { protocol, origin } = new URL(url);
  if (protocol !== 'http:' && protocol !== 'https:') throw new Error(`${url} is not an http(s) URL`);
  return origin;
}

/** The CSP a runtime config asks for; throws on a config that does not name an API and remotes by http(s) URL. */
function headersForRuntimeConfig(config) {
  const remoteUrls = Object.values(config?.remotes ?? {});
  if (typeof config?.apiBaseUrl !== 'string' || !remoteUrls.every((url) => typeof url === 'string')) {
    throw new Error('apiBaseUrl and every remote must be URLs');
  }
  const remoteOrigins = [...new Set(remoteUrls.map(httpOriginOf))];
  const apiOrigin = httpOriginOf(config.apiBaseUrl);
  return securityHeaders({
    scriptOrigins: remoteOrigins,
    styleOrigins: remoteOrigins,
    connectOrigins: [...remoteOrigins, apiOrigin],
  });
}

/**
 * The security headers for pages of a shell whose runtime config lives in `configFile`: the CSP allows exactly the
 * remotes and API that config names, re-read whenever the file changes (a remote redeployed to a new origin).
 * A missing or malformed config keeps the last good policy; before any good one, scripts and connections are
 * allowed from the page's own origin only, so a broken config never loosens the policy. Each change is logged once.
 */
export function headersFollowingRuntimeConfig(configFile, { log = console.error } = {}) {
  const readConfig = runtimeConfigReader(configFile);
  let headers = securityHeaders();
  let hasGoodConfig = false;
  let versionRead = null;
  return () => {
    const { version, config, error: unreadable } = readConfig();
    if (version === versionRead) return headers;
    versionRead = version;
    try {
      if (unreadable) throw unreadable;
      headers = headersForRuntimeConfig(config);
      hasGoodConfig = true;
    } catch (error) {
      const keeping = hasGoodConfig ? 'keeping the last good policy' : "allowing scripts from 'self' only";
      log(`runtime config ${configFile} cannot be used (${error.message}); ${keeping}`);
    }
    return headers;
  };
}
export { firstFramesFollowingRuntimeConfig } from './first-frames.mjs';
