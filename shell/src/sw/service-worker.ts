/// <reference lib="webworker" />
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { ExpirationPlugin } from 'workbox-expiration';
import { matchPrecache, precache } from 'workbox-precaching';
import { CacheFirst, NetworkFirst, type Strategy } from 'workbox-strategies';
import { browserTimeZone } from '@time-wallet/shared-ui/lib';
import {
  accountOf,
  connectOriginsOf,
  deploymentOf,
  documentFor,
  isLogout,
  reachableDeployment,
  routeOf,
  RUNTIME_CONFIG_PATH,
  warmRequestOf,
  warmTargets,
  type Deployment,
  type Route,
  type WarmRequest,
  type WarmTarget,
} from './routes';
import { notificationOf, reminderMessage, targetUrlOf, type Reminder } from './reminders';

/**
 * The shell's service worker (built by Workbox's InjectManifest from this file, served as /sw.js). It precaches the
 * shell's build and caches each remote's files and the API's reads as they are used. The shell's own files answer from
 * the cache whenever the network fails; a remote's files and the API's reads only while the browser is offline, so
 * online every request that is not immutable goes to the network exactly as it would without a worker: a deploy, a
 * rollback, a fresh read or an outage of a remote or the API is never hidden behind a cached copy. What a page loaded
 * without asking the worker (before it took over, or from Chromium's memory cache) the page lists in a message once
 * controlled (public/register-service-worker.js), and the worker fetches what of it its caches lack. See routes.ts for
 * which request goes where, and reminders.ts for push.
 */
declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
};

// Versioned names: a worker whose rules change can start with empty caches by bumping one.
const CACHES = {
  immutable: 'time-wallet-immutable-v1',
  remotes: 'time-wallet-remotes-v1',
  runtime: 'time-wallet-runtime-v1',
  apiPrefix: 'time-wallet-api-v1-',
  worker: 'time-wallet-worker-v1',
} as const;
// Where the worker keeps the origins its own policy lets it reach (see connectOriginsOf).
const POLICY_KEY = '/__worker-policy';
// Bounds: every cache the worker fills itself is capped (the precache is the build's own list of files).
const LIMITS = { immutable: 300, remotes: 60, runtime: 4, api: 200 } as const;
const API_MAX_AGE_SECONDS = 14 * 24 * 60 * 60;

precache(self.__WB_MANIFEST);

const shellOrigin = self.location.origin;
const offline = () => !self.navigator.onLine;

/** Online, a failed request fails as it would without the worker; only offline does a cached copy answer. */
const onlyOffline = {
  cachedResponseWillBeUsed: async ({ cachedResponse }: { cachedResponse?: Response }) =>
    offline() ? (cachedResponse ?? null) : null,
};
const okOnly = () => new CacheableResponsePlugin({ statuses: [200] });

// ---- The deployment (the runtime config's API and remotes), as the last /config.json the worker saw says ----

let deployment: Deployment | null = null;
let deploymentRead: Promise<Deployment | null> | null = null;

async function adoptConfig(response: Response | undefined | null): Promise<void> {
  if (!response?.ok) return;
  try {
    deployment = deploymentOf(await response.clone().json()) ?? deployment;
  } catch {
    // A config the shell cannot parse either: it says so itself.
  }
}

/**
 * A worker that has not seen this page's config (it was started after the page read it, or the page read it before
 * the worker controlled it) reads it itself, as the page would: from the network, else (offline) its cached copy.
 */
function knownDeployment(event: ExtendableEvent): Promise<Deployment | null> {
  if (deployment) return Promise.resolve(deployment);
  const request = new Request(new URL(RUNTIME_CONFIG_PATH, shellOrigin).href, { cache: 'no-cache' });
  deploymentRead ??= runtimeConfig
    .handle({ request, event })
    .then(adoptConfig, () => undefined)
    .then(() => deployment)
    .finally(() => (deploymentRead = null));
  return deploymentRead;
}

// ---- Strategies ----

const runtimeConfig = new NetworkFirst({
  cacheName: CACHES.runtime,
  plugins: [
    okOnly(),
    // Like the shell's files, any failure falls back to the last config: it is what the cached shell starts with.
    new ExpirationPlugin({ maxEntries: LIMITS.runtime }),
    {
      fetchDidSucceed: async ({ response }) => {
        await adoptConfig(response);
        return response;
      },
    },
  ],
});
// A remote's hashed chunks, its version folders and the shell's chunks of builds older than the precache.
const immutable = new CacheFirst({
  cacheName: CACHES.immutable,
  plugins: [okOnly(), new ExpirationPlugin({ maxEntries: LIMITS.immutable, purgeOnQuotaError: true })],
});
const remoteFiles = new NetworkFirst({
  cacheName: CACHES.remotes,
  plugins: [
    okOnly(),
    new ExpirationPlugin({ maxEntries: LIMITS.remotes, purgeOnQuotaError: true }),
    onlyOffline,
  ],
});

// ---- The API's reads: one cache per account, only ever the current one ----

const apiCacheName = (account: string) => `${CACHES.apiPrefix}${hashOf(account)}`;
let apiReads: { account: string; strategy: Strategy; expiration: ExpirationPlugin } | null = null;

/** A short, stable name for an account (the cache's name must not hold the token itself): FNV-1a, 32 bits. */
function hashOf(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/** Deletes every account's cached reads but `keep`'s: a signed-in account change never shows the last one's data. */
async function forgetApiReads(keep: string | null = null): Promise<void> {
  const kept = keep === null ? null : apiCacheName(keep);
  if (apiReads && apiReads.account !== keep) {
    await apiReads.expiration.deleteCacheAndMetadata().catch(() => undefined);
    apiReads = null;
  }
  const names = await caches.keys();
  await Promise.all(
    names
      .filter((name) => name.startsWith(CACHES.apiPrefix) && name !== kept)
      .map((name) => caches.delete(name)),
  );
}

async function apiReadsFor(account: string) {
  if (apiReads?.account === account) return apiReads.strategy;
  await forgetApiReads(account);
  const expiration = new ExpirationPlugin({
    maxEntries: LIMITS.api,
    maxAgeSeconds: API_MAX_AGE_SECONDS,
    purgeOnQuotaError: true,
  });
  const strategy = new NetworkFirst({
    cacheName: apiCacheName(account),
    plugins: [
      okOnly(),
      expiration,
      onlyOffline,
      {
        // The server no longer knows this session: what was read with it goes.
        fetchDidSucceed: async ({ response }) => {
          if (response.status === 401) await forgetApiReads();
          return response;
        },
      },
    ],
  });
  apiReads = { account, strategy, expiration };
  return strategy;
}

// ---- Requests ----

/**
 * Another origin's file, asked for by the worker with CORS so the cache holds a readable copy, not an opaque one.
 * Not from the HTTP cache as it is: a copy the page fetched before the worker controlled it (a script, so no Origin)
 * lacks the CORS header, and the static servers vary on Origin only when one is sent, so that copy would fail the
 * check. `cache` says how to skip it: 'reload' for a file fetched once (immutable), 'no-cache' for one checked on
 * every load (a 304 brings the header).
 */
const corsRequest = (request: Request | string, cache: RequestCache) =>
  new Request(typeof request === 'string' ? request : request.url, {
    mode: 'cors',
    credentials: 'omit',
    cache,
  });

/**
 * The shell's own documents and files: the network's answer, else (offline, or the shell's server unreachable) the
 * precached copy of this build. Unlike a remote's files and the API's reads, any failure falls back: the cached shell
 * beats a browser error page, and it still names the remotes and the API as the live config does.
 */
async function networkThenPrecache(request: Request, precached: () => Promise<Response | undefined>) {
  try {
    return await fetch(request);
  } catch (error) {
    const response = await precached();
    if (!response) throw error;
    return response;
  }
}

async function prerenderedPages(): Promise<Record<string, string>> {
  try {
    return ((await (await matchPrecache('/prerendered.json'))?.json()) ?? {}) as Record<string, string>;
  } catch {
    return {};
  }
}

async function tellClient(clientId: string, message: unknown): Promise<void> {
  const client = clientId ? await self.clients.get(clientId) : undefined;
  client?.postMessage(message);
}

/** A write sent while offline: the network's answer, else a network error (as the page would get) and the page told. */
async function sendOrTell(event: FetchEvent): Promise<Response> {
  try {
    return await fetch(event.request);
  } catch {
    await tellClient(event.clientId, { type: 'needs-connection' });
    return Response.error();
  }
}

function handle(event: FetchEvent, route: Route): Promise<Response> | null {
  const { request } = event;
  const url = new URL(request.url);
  switch (route) {
    case 'page':
      return networkThenPrecache(request, async () =>
        matchPrecache(documentFor(url.pathname, await prerenderedPages())),
      );
    case 'shell-file':
      return networkThenPrecache(request, () => matchPrecache(url.href));
    case 'runtime-config':
      return runtimeConfig.handle({ event, request });
    case 'immutable':
      return (async () =>
        (url.origin === shellOrigin ? await matchPrecache(url.href) : undefined) ??
        immutable.handle({ event, request: corsRequest(request, 'reload') }))();
    case 'remote-file':
      return remoteFiles.handle({ event, request: corsRequest(request, 'no-cache') });
    case 'api-read': {
      const account = accountOf(request.headers.get('Authorization'));
      // A guest's reads are nobody's to keep.
      if (account === null) return null;
      return apiReadsFor(account).then((strategy) => strategy.handle({ event, request }));
    }
    case 'api-write':
      if (isLogout(request, shellOrigin, usableDeployment())) event.waitUntil(forgetApiReads());
      // Online, sent as it would be without the worker. Offline, the worker sends it itself and tells the page only
      // once it has failed, so "needs a connection" never shows for a write that a returning network still carried.
      return offline() ? sendOrTell(event) : null;
    default:
      return null;
  }
}

// ---- The origins this worker may fetch from itself: those its script's policy allowed when it was installed ----

let allowedOrigins: string[] | null | undefined;
const policyRead = caches
  .open(CACHES.worker)
  .then((cache) => cache.match(POLICY_KEY))
  .then(async (response) => {
    allowedOrigins = response ? ((await response.json()) as { connect: string[] | null }).connect : null;
  })
  .catch(() => (allowedOrigins = null));

/**
 * The static servers send every file, this worker's script too, with a policy naming the origins of the config of the
 * moment; the script's is fixed until a new build replaces it. Read at install from the config's answer, which
 * carries the same policy.
 */
async function learnPolicy(): Promise<void> {
  const response = await fetch(RUNTIME_CONFIG_PATH, { cache: 'no-store' });
  const connect = connectOriginsOf(response.headers.get('Content-Security-Policy'), shellOrigin);
  const cache = await caches.open(CACHES.worker);
  await cache.put(POLICY_KEY, new Response(JSON.stringify({ connect })));
  allowedOrigins = connect;
}

/** The deployment as far as this worker may reach it, or null while it does not know yet. */
function usableDeployment(): Deployment | null {
  if (!deployment || allowedOrigins === undefined) return null;
  return reachableDeployment(deployment, allowedOrigins, shellOrigin);
}

self.addEventListener('fetch', (event) => {
  const facts = { url: event.request.url, method: event.request.method, mode: event.request.mode };
  const known = usableDeployment();
  const route = routeOf(facts, shellOrigin, known);
  if (known || new URL(facts.url).origin === shellOrigin) {
    const answer = handle(event, route);
    if (answer) event.respondWith(answer);
    return;
  }
  // Another origin's request before this worker (just started) has seen a config: the cached config decides. The
  // request is answered either way, by a strategy or by the network as the page asked.
  event.respondWith(
    Promise.all([knownDeployment(event), policyRead]).then(
      () => handle(event, routeOf(facts, shellOrigin, usableDeployment())) ?? fetch(event.request),
    ),
  );
});

// ---- Warming: what a page loaded without asking this worker (before it took over, or from the memory cache) ----

// URLs being warmed now: each is asked for once however many pages tell of it (at most a message's worth each).
const warming = new Set<string>();
const WARM_CONCURRENCY = 4;

/** Whether a strategy's cache already holds an answer for the request (so warming it again would read for nothing). */
const cached = async (request: Request, cacheName: string) =>
  Boolean(await caches.match(request, { cacheName }));

/** Fetches one URL as the strategy of its route would for the page, and keeps it as that strategy does. */
async function warmOne(event: ExtendableEvent, { url, route }: WarmTarget, page: WarmRequest): Promise<void> {
  let strategy: Strategy;
  let request: Request;
  switch (route) {
    case 'immutable':
      if (new URL(url).origin === shellOrigin && (await matchPrecache(url))) return;
      request = corsRequest(url, 'reload');
      if (await cached(request, CACHES.immutable)) return;
      strategy = immutable;
      break;
    case 'remote-file':
      request = corsRequest(url, 'no-cache');
      if (await cached(request, CACHES.remotes)) return;
      strategy = remoteFiles;
      break;
    case 'runtime-config':
      request = new Request(url, { cache: 'no-cache' });
      if (await cached(request, CACHES.runtime)) return;
      strategy = runtimeConfig;
      break;
    case 'api-read': {
      const account = accountOf(page.authorization);
      if (account === null || page.authorization === null) return;
      strategy = await apiReadsFor(account);
      request = new Request(url, {
        mode: 'cors',
        credentials: 'include',
        // The header the page's reads carry besides the session (shell/packages/api/src/api-slice.ts, prepareHeaders):
        // the same read for another zone is another answer. The worker runs in the page's browser, so in its zone.
        headers: { Authorization: page.authorization, 'X-Time-Zone': browserTimeZone() },
      });
      if (await cached(request, apiCacheName(account))) return;
      break;
    }
    default:
      return;
  }
  const [response, done] = strategy.handleAll({ event, request });
  response.catch(() => undefined);
  await done;
}

async function warm(event: ExtendableEvent, page: WarmRequest): Promise<void> {
  await Promise.all([knownDeployment(event), policyRead]);
  const queue = warmTargets(page.urls, shellOrigin, usableDeployment()).filter(
    ({ url }) => !warming.has(url),
  );
  for (const { url } of queue) warming.add(url);
  const next = async (): Promise<void> => {
    const target = queue.shift();
    if (!target) return;
    // A failure (offline, a 404, a refused CORS check) leaves the cache as it was; the page already has its copy.
    await warmOne(event, target, page).catch(() => undefined);
    warming.delete(target.url);
    return next();
  };
  await Promise.all(Array.from({ length: WARM_CONCURRENCY }, next));
}

self.addEventListener('message', (event) => {
  const page = warmRequestOf(event.data);
  if (!page || event.origin !== shellOrigin) return;
  event.waitUntil(warm(event, page).catch(() => undefined));
});

// ---- Life cycle: a new build's worker takes over at once (pages and entries always come from one build) ----

self.addEventListener('install', (event) => {
  // Without it the worker routes every origin the config names, as before.
  event.waitUntil(learnPolicy().catch(() => undefined));
  void self.skipWaiting();
});
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

// ---- Push: one place for each reminder, the open page or a notification, never both ----

self.addEventListener('push', (event) => {
  const reminder = notificationOf(event.data ? safeJson(event.data) : null);
  if (!reminder) return;
  event.waitUntil(deliver(reminder));
});

function safeJson(data: PushMessageData): unknown {
  try {
    return data.json();
  } catch {
    return null;
  }
}

async function deliver(reminder: Reminder): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const watching = windows.find((client) => client.visibilityState === 'visible' && client.focused);
  if (watching) {
    watching.postMessage(reminderMessage(reminder));
    return;
  }
  await self.registration.showNotification(reminder.title, {
    body: reminder.body,
    tag: reminder.tag,
    data: { url: reminder.url },
    icon: '/icons/icon-192.png',
  });
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = targetUrlOf((event.notification.data as { url?: unknown } | null)?.url, shellOrigin);
  event.waitUntil(openPage(url));
});

async function openPage(url: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const client of windows) {
    try {
      const focused = await client.focus();
      const navigated = await focused.navigate(url);
      if (navigated) return;
    } catch {
      // A page this worker does not control cannot be navigated by it: a new window opens instead.
    }
  }
  await self.clients.openWindow(url);
}
