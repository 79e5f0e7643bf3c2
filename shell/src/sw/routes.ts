/**
 * Which of the service worker's strategies answers a request: a pure function of the request and of what the runtime
 * config says (the API's base URL and each remote's manifest URL), so the rules are tested without a worker.
 *
 * - `page`: a navigation of the shell. It goes to the network (the HTML is no-cache: a rebuilt shell, and the CSP
 *   naming the remotes the config lists today, take effect at once); when that fails, the precached document
 *   prerendered for that path (else index.html).
 * - `shell-file`: the shell's files without a hash in their names (main.js, theme-init.js, the manifest and icons):
 *   network-first like the page they belong to, else the precache. A page and its entry are always one build.
 * - `runtime-config`: /config.json, network-first, else the last copy. A deploy or rollback rewrites it, so the
 *   next load that reaches the server follows it.
 * - `immutable`: a file whose name carries its content hash, or anything in a remote's deployed version folder
 *   (/v/<version>/): its bytes never change, so cache-first.
 * - `remote-file`: a remote's other files (its mf-manifest.json and, served from its dist, remoteEntry.js): these
 *   change in place on a redeploy, so network-first, the last copy offline. An entry is only ever cached from the
 *   manifest that named it, and the manifest is never older than the config: no mix of versions.
 * - `api-read`: a GET of the API (but its /auth/ paths: whether a session is valid is never answered from a cache).
 *   Network-first; offline, the copy last read for the same account.
 * - `api-write`: anything else sent to the API. Never answered from a cache; offline, the worker sends it itself and,
 *   when it fails, tells the page the action needs a connection. `/auth/logout` also empties the API cache.
 * - null: not the worker's business; the browser fetches it as if there were no worker.
 */
export type Route =
  'page' | 'shell-file' | 'runtime-config' | 'immutable' | 'remote-file' | 'api-read' | 'api-write' | null;

/** What the worker knows of the deployment: the runtime config's API base URL and remotes' origins. */
export interface Deployment {
  apiBaseUrl: string;
  remoteOrigins: readonly string[];
}

export interface RequestFacts {
  url: string;
  method: string;
  /** Request.mode: 'navigate' for a document. */
  mode: string;
}

export const RUNTIME_CONFIG_PATH = '/config.json';
export const SERVICE_WORKER_PATH = '/sw.js';
export const LOGOUT_PATH = '/auth/logout';
const AUTH_PREFIX = '/auth/';
// The shared webpack config names chunks `[name].[contenthash:8].js` (devkit/webpack/create-config.cjs); the static
// server sends exactly these as immutable (devkit/serve/static-server.mjs, cacheControlFor).
export const HASHED_FILE = /\.[0-9a-f]{8}\.(js|css|png|svg|webp|jpg)$/;
// Where a remote's static server serves its deployed versions (devkit/serve/static-server.mjs, VERSIONS_PREFIX).
export const VERSION_FOLDER = /^\/v\/[^/]+\//;

/** The deployment a runtime config names; null for a config the shell itself would refuse. */
export function deploymentOf(config: unknown): Deployment | null {
  const { apiBaseUrl, remotes } = (config ?? {}) as { apiBaseUrl?: unknown; remotes?: unknown };
  if (typeof apiBaseUrl !== 'string' || apiBaseUrl === '') return null;
  if (typeof remotes !== 'object' || remotes === null) return null;
  try {
    const origins = Object.values(remotes).map((url) => new URL(String(url)).origin);
    return { apiBaseUrl: apiBaseUrl.replace(/\/+$/, ''), remoteOrigins: [...new Set(origins)] };
  } catch {
    return null;
  }
}

/**
 * The origins a Content-Security-Policy lets a script connect to (its connect-src, else default-src; 'self' is
 * `selfOrigin`), or null when it sets no such limit. A worker runs under the policy its script was served with, fixed
 * until a new build replaces the script: a remote moved to an origin since then is out of its reach.
 */
export function connectOriginsOf(policy: string | null, selfOrigin: string): string[] | null {
  if (!policy) return null;
  const directives = new Map(
    policy
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name.toLowerCase(), sources] as const),
  );
  const sources = directives.get('connect-src') ?? directives.get('default-src');
  if (!sources) return null;
  const origins: string[] = [];
  for (const source of sources) {
    if (source === "'self'") origins.push(selfOrigin);
    else if (source === '*') return null;
    else {
      try {
        origins.push(new URL(source).origin);
      } catch {
        // A scheme or keyword source names no one origin the worker routes.
      }
    }
  }
  return origins;
}

/**
 * The part of a deployment the worker may fetch itself: remotes and an API on origins its policy allows (null: no
 * limit). Anything else it leaves to the page, whose policy follows the config of the day.
 */
export function reachableDeployment(
  deployment: Deployment,
  allowedOrigins: readonly string[] | null,
  shellOrigin: string,
): Deployment {
  if (allowedOrigins === null) return deployment;
  const allowed = (origin: string) => allowedOrigins.includes(origin);
  const apiOrigin = new URL(deployment.apiBaseUrl, shellOrigin).origin;
  return {
    // An API out of reach: a base URL no request matches.
    apiBaseUrl: allowed(apiOrigin) ? deployment.apiBaseUrl : 'about:blank',
    remoteOrigins: deployment.remoteOrigins.filter(allowed),
  };
}

/** The path of a URL under the API's base URL ('/tasks/today'), or null when the URL is not the API's. */
export function apiPathOf(url: URL, apiBaseUrl: string, shellOrigin: string): string | null {
  const base = new URL(apiBaseUrl, shellOrigin);
  const basePath = base.pathname.replace(/\/+$/, '');
  if (url.origin !== base.origin) return null;
  if (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) return null;
  return url.pathname.slice(basePath.length) || '/';
}

/**
 * The route for a request made by a page of the shell at `shellOrigin`. `deployment` is null until the worker has
 * read a runtime config: then only the shell's own requests are routed.
 */
export function routeOf(request: RequestFacts, shellOrigin: string, deployment: Deployment | null): Route {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return null;
  }
  const apiPath = deployment ? apiPathOf(url, deployment.apiBaseUrl, shellOrigin) : null;
  if (request.method !== 'GET') return apiPath === null ? null : 'api-write';
  if (apiPath !== null) return apiPath.startsWith(AUTH_PREFIX) ? null : 'api-read';
  if (url.origin === shellOrigin) {
    if (request.mode === 'navigate') return 'page';
    if (url.pathname === RUNTIME_CONFIG_PATH) return 'runtime-config';
    if (url.pathname === SERVICE_WORKER_PATH) return null;
    return HASHED_FILE.test(url.pathname) ? 'immutable' : 'shell-file';
  }
  if (deployment?.remoteOrigins.includes(url.origin)) {
    return VERSION_FOLDER.test(url.pathname) || HASHED_FILE.test(url.pathname) ? 'immutable' : 'remote-file';
  }
  return null;
}

/** Whether a request to the API ends the session, so what was cached for it must go. */
export function isLogout(request: RequestFacts, shellOrigin: string, deployment: Deployment | null): boolean {
  if (!deployment || request.method === 'GET') return false;
  try {
    return apiPathOf(new URL(request.url), deployment.apiBaseUrl, shellOrigin) === LOGOUT_PATH;
  } catch {
    return false;
  }
}

/**
 * Who a request acts for, from its bearer token: the session token's subject (the user id), so a second sign-in of
 * the same person keeps what they read; null for a request without one. Never verified here (the API does that): it
 * only keeps one person's cached reads from being shown to the next.
 */
export function accountOf(authorization: string | null): string | null {
  const token = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (!token) return null;
  const payload = token.split('.')[1];
  if (payload) {
    try {
      const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
      const subject = (JSON.parse(json) as { sub?: unknown }).sub;
      if (typeof subject === 'string' && subject !== '') return `user:${subject}`;
    } catch {
      // Not a JWT: the token itself stands for the account.
    }
  }
  return `token:${token}`;
}

/** The precached document that answers a navigation offline: the page prerendered for its path, else the app's. */
export function documentFor(pathname: string, prerendered: Record<string, string>): string {
  const key = pathname.replace(/(.)\/+$/, '$1');
  const file = Object.hasOwn(prerendered, key) ? prerendered[key] : undefined;
  return `/${typeof file === 'string' ? file.replace(/^\/+/, '') : 'index.html'}`;
}

// ---- Warming: what a page loaded before the worker saw it ----

/** The routes whose answers the worker keeps itself (a page and the shell's files are the build's precache). */
export const WARMED_ROUTES: ReadonlySet<Route> = new Set<Route>([
  'immutable',
  'remote-file',
  'runtime-config',
  'api-read',
]);
/** At most this many URLs are taken from one message: a page's list is bounded whatever it sends. */
export const WARM_URL_LIMIT = 100;
/** The message a page posts its worker (public/register-service-worker.js) once the worker controls it. */
export const WARM_MESSAGE_TYPE = 'warm';

export interface WarmRequest {
  urls: string[];
  /** The Authorization header the page sends the API with, or null: without it no API read is warmed. */
  authorization: string | null;
}

/** A page's warm message, or null for anything else; its list bounded to WARM_URL_LIMIT strings. */
export function warmRequestOf(data: unknown): WarmRequest | null {
  const { type, urls, authorization } = (data ?? {}) as Record<string, unknown>;
  if (type !== WARM_MESSAGE_TYPE || !Array.isArray(urls)) return null;
  return {
    urls: urls.filter((url): url is string => typeof url === 'string').slice(0, WARM_URL_LIMIT),
    authorization: typeof authorization === 'string' && authorization !== '' ? authorization : null,
  };
}

export interface WarmTarget {
  url: string;
  route: Route;
}

/**
 * Which of the URLs a page loaded the worker fetches again to keep: each GET its rules send to a cache it fills
 * itself (WARMED_ROUTES), once (a fragment does not make another request), at most `limit`. A page loads what it
 * loaded before the worker controlled it, and a file Chromium's memory cache answers, without asking the worker:
 * this is how those reach its caches too.
 */
export function warmTargets(
  urls: readonly string[],
  shellOrigin: string,
  deployment: Deployment | null,
  limit = WARM_URL_LIMIT,
): WarmTarget[] {
  const seen = new Set<string>();
  const targets: WarmTarget[] = [];
  for (const raw of urls.slice(0, limit)) {
    let url: string;
    try {
      const parsed = new URL(raw);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') continue;
      parsed.hash = '';
      url = parsed.href;
    } catch {
      continue;
    }
    if (seen.has(url)) continue;
    seen.add(url);
    const route = routeOf({ url, method: 'GET', mode: 'cors' }, shellOrigin, deployment);
    if (WARMED_ROUTES.has(route)) targets.push({ url, route });
  }
  return targets;
}
