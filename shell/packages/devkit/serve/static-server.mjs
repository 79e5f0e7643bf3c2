import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};
const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.map',
  '.svg',
  '.txt',
  '.webmanifest',
]);
// Chunks are named `[name].[contenthash:8].js` by the shared webpack config: their bytes never change.
const HASHED_FILE = /\.[0-9a-f]{8}\.(js|css|png|svg|webp|jpg)$/;
const gzipCache = new Map();
const GZIP_CACHE_LIMIT = 200;

export function cacheControlFor(relativePath) {
  return HASHED_FILE.test(relativePath) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

export function securityHeaders({ scriptOrigins = [], connectOrigins = [] } = {}) {
  const scripts = ["'self'", ...scriptOrigins].join(' ');
  const connects = ["'self'", ...connectOrigins].join(' ');
  return {
    'Content-Security-Policy': [
      "default-src 'self'",
      `script-src ${scripts}`,
      `connect-src ${connects}`,
      // Components inject their scoped styles at run time; no inline scripts are allowed.
      "style-src 'self' 'unsafe-inline'",
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

function resolveInside(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const file = path.resolve(root, `.${path.posix.normalize(`/${decoded}`)}`);
  return file === root || file.startsWith(root + path.sep) ? file : null;
}

function statFile(file) {
  try {
    const stat = fs.statSync(file);
    return stat.isFile() ? stat : null;
  } catch {
    return null;
  }
}

function gzipped(file, stat) {
  const key = `${file}:${stat.mtimeMs}:${stat.size}`;
  let body = gzipCache.get(key);
  if (!body) {
    body = zlib.gzipSync(fs.readFileSync(file), { level: 9 });
    if (gzipCache.size >= GZIP_CACHE_LIMIT) gzipCache.delete(gzipCache.keys().next().value);
    gzipCache.set(key, body);
  }
  return body;
}

/**
 * Serves one app's build from its own origin. Every request stats the file again, so a rebuild is served at once.
 * `spa` answers unknown paths with index.html; `files` maps URL paths to files outside root (the runtime config).
 * `headers` may be a function, read per request, so a policy that follows the runtime config stays current.
 */
export function createStaticServer({ root, spa = false, allowedOrigins = [], headers = {}, files = {} }) {
  const absoluteRoot = path.resolve(root);
  const origins = new Set(allowedOrigins);

  return http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const origin = req.headers.origin;
    const currentHeaders = typeof headers === 'function' ? headers() : headers;
    for (const [name, value] of Object.entries(currentHeaders)) res.setHeader(name, value);
    if (origin && origins.has(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Vary', 'Origin, Accept-Encoding');
    } else {
      res.setHeader('Vary', 'Accept-Encoding');
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

    let file = files[url.pathname] ?? resolveInside(absoluteRoot, url.pathname);
    let stat = file ? statFile(file) : null;
    if (!stat && file && url.pathname.endsWith('/')) {
      file = path.join(file, 'index.html');
      stat = statFile(file);
    }
    if (!stat && spa && !path.extname(url.pathname)) {
      file = path.join(absoluteRoot, 'index.html');
      stat = statFile(file);
    }
    if (!file || !stat) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' });
      res.end('Not found');
      return;
    }

    const extension = path.extname(file);
    const relativePath = path.relative(absoluteRoot, file);
    const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
    res.setHeader('Content-Type', CONTENT_TYPES[extension] ?? 'application/octet-stream');
    res.setHeader('Cache-Control', files[url.pathname] ? 'no-cache' : cacheControlFor(relativePath));
    res.setHeader('ETag', etag);
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304).end();
      return;
    }
    const acceptsGzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
    if (acceptsGzip && COMPRESSIBLE.has(extension) && stat.size > 512) {
      const body = gzipped(file, stat);
      res.writeHead(200, { 'Content-Encoding': 'gzip', 'Content-Length': body.length });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    res.writeHead(200, { 'Content-Length': stat.size });
    if (req.method === 'HEAD') res.end();
    else fs.createReadStream(file).pipe(res);
  });
}

/**
 * The security headers for pages of a shell whose runtime config lives in `configFile`: the CSP allows exactly the
 * remotes and API that config names, re-read whenever the file changes (a remote redeployed to a new origin).
 */
export function headersFollowingRuntimeConfig(configFile) {
  let cached = { mtimeMs: -1, headers: {} };
  return () => {
    const { mtimeMs } = fs.statSync(configFile);
    if (mtimeMs !== cached.mtimeMs) {
      const config = JSON.parse(fs.readFileSync(configFile, 'utf8'));
      const remoteOrigins = [...new Set(Object.values(config.remotes).map((url) => new URL(url).origin))];
      const apiOrigin = new URL(config.apiBaseUrl).origin;
      cached = {
        mtimeMs,
        headers: securityHeaders({
          scriptOrigins: remoteOrigins,
          connectOrigins: [...remoteOrigins, apiOrigin],
        }),
      };
    }
    return cached.headers;
  };
}
