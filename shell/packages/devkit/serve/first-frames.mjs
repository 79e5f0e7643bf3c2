import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import { runtimeConfigReader } from './runtime-config.mjs';

const require = createRequire(import.meta.url);
const { firstFrames } = require('../apps.cjs');

/** A remote's first frame is a few KB of markup and styles (mfe-analytics's: 11 KB); anything larger is refused. */
export const FIRST_FRAME_MAX_BYTES = 64 * 1024;
/** How long a page waits for a first frame not yet known: past it, the page goes out with its placeholders. */
export const FIRST_FRAME_WAIT_MS = 300;
/** How long a frame (or its absence) is used before it is asked for again; a remote's deploy shows within this. */
export const FIRST_FRAME_FRESH_MS = 10_000;
/** Frames kept: one per remote page, with room for the addresses of deploys to come. */
const FIRST_FRAME_CACHE_LIMIT = 64;

// The slot the shell's prerender marks (PageSkeleton's firstFrameSlot), as its minifier writes it: the attribute's
// value `<remote>/<page>` quoted or not, the placeholders inside it (spans only, so the first </div> closes it).
const SLOT = new RegExp(
  `(<div\\b[^>]*\\s${firstFrames.slot}=(["']?)([A-Za-z0-9_-]+)/([A-Za-z0-9_-]+)\\2[^>]*>)([\\s\\S]*?)(</div>)`,
);

/**
 * Markup a frame must not hold. A sanity check, not the guard: the page's CSP already keeps any script, handler or
 * `javascript:` URL in a frame from running, and the remote's code runs in the page anyway; a frame with them is wrong.
 */
export const FORBIDDEN = /<\s*(script|iframe|object|embed|base|meta|link)\b|[\s/"']on[a-z]+\s*=|javascript:/i;

/** The frame's address beside the remote's manifest, from the runtime config read now; null when it names none. */
function frameUrlOf(config, remote, page) {
  const manifest = config?.remotes?.[remote];
  if (typeof manifest !== 'string') return null;
  try {
    const url = new URL(`${firstFrames.dir}/${page}.html`, manifest);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The body of a fetch, or null when it is longer than `limit` bytes (read no further than that). */
async function boundedText(response, limit) {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel();
    return null;
  }
  const chunks = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.length;
    if (size > limit) {
      await response.body.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Puts each remote page's first frame into the shell's prerendered HTML as it is served (registry.json's
 * firstFrames): the page's first paint then holds the remote's own words, not placeholders, with no script run and
 * with whatever version of the remote is deployed now, since the frame is read from the remote's origin, beside the
 * manifest the runtime config names.
 *
 * Frames are read in the background and kept for FIRST_FRAME_FRESH_MS; an older one is served while the next is read.
 * The first visit waits at most FIRST_FRAME_WAIT_MS for a frame never read, the visits during that read not at all.
 * A remote that cannot be reached or fails (5xx) keeps the last good frame; one that has none, answers other than
 * HTML, or sends one too large (FIRST_FRAME_MAX_BYTES) or holding markup it must not (FORBIDDEN) leaves the page's
 * placeholders: the page is never worse than without frames, and nothing a remote serves stops or slows the shell's
 * server for long.
 *
 * `compose(html)` resolves with `{ body, tag }` (the page with its frame, and a tag naming that frame for the page's
 * ETag) or null when the page has no slot or no frame for it.
 */
export function firstFramesFollowingRuntimeConfig(
  configFile,
  {
    fetch = globalThis.fetch,
    now = Date.now,
    waitMs = FIRST_FRAME_WAIT_MS,
    freshMs = FIRST_FRAME_FRESH_MS,
    log = console.error,
  } = {},
) {
  const readConfig = runtimeConfigReader(configFile);
  /** url -> { frame: string | null, tag, readAt, reading: Promise | null } */
  const cache = new Map();

  function remember(url, entry) {
    cache.delete(url);
    if (cache.size >= FIRST_FRAME_CACHE_LIMIT) cache.delete(cache.keys().next().value);
    cache.set(url, entry);
  }

  /**
   * What the remote answers now: `{ frame }` (a usable frame, or null when it has none: not found, not HTML, refused
   * here) or `{ failed: true }` when it could not be asked (unreachable, too slow, a server error), in which case the
   * last good frame is kept.
   */
  async function read(url) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), freshMs);
    timer.unref?.();
    try {
      const response = await fetch(url, { signal: controller.signal, redirect: 'error' });
      const type = response.headers.get('content-type') ?? '';
      if (response.status >= 500) {
        await response.body?.cancel();
        log(`first frame ${url} answered ${response.status}: keeping the last one`);
        return { failed: true };
      }
      if (!response.ok || !/^text\/html\b/i.test(type)) {
        await response.body?.cancel();
        return { frame: null };
      }
      const text = await boundedText(response, FIRST_FRAME_MAX_BYTES);
      if (text === null) log(`first frame ${url} is over ${FIRST_FRAME_MAX_BYTES} bytes: not used`);
      else if (FORBIDDEN.test(text)) log(`first frame ${url} holds scripts, frames or handlers: not used`);
      else return { frame: text };
      return { frame: null };
    } catch (error) {
      log(`first frame ${url} could not be read (${error.cause?.code ?? error.name}): keeping the last one`);
      return { failed: true };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Reads in flight, for `settled()`. */
  const inFlight = new Set();

  /** The entry for `url` now, starting a read when it has none or its one is stale (one read at a time). */
  function entryFor(url) {
    let entry = cache.get(url);
    const stale = !entry || now() - entry.readAt >= freshMs;
    if (stale && !entry?.reading) {
      const previous = entry;
      const reading = read(url)
        .then((answer) => {
          const frame = answer.failed ? (previous?.frame ?? null) : answer.frame;
          const tag =
            frame === null ? '' : crypto.createHash('sha256').update(frame).digest('base64url').slice(0, 12);
          remember(url, { frame, tag, readAt: now(), reading: null });
        })
        .catch((error) => {
          // Never expected; the entry must not stay "reading" for good.
          log(`first frame ${url}: ${error.message}`);
          remember(url, {
            frame: previous?.frame ?? null,
            tag: previous?.tag ?? '',
            readAt: now(),
            reading: null,
          });
        })
        .finally(() => inFlight.delete(reading));
      inFlight.add(reading);
      entry = entry
        ? { ...entry, reading }
        : { frame: null, tag: '', readAt: -Infinity, reading, first: true };
      remember(url, entry);
    }
    return entry;
  }

  return {
    async compose(html) {
      const text = html.toString('utf8');
      const slot = SLOT.exec(text);
      if (!slot) return null;
      const [whole, open, , remote, page, , close] = slot;
      const url = frameUrlOf(readConfig().config, remote, page);
      if (url === null) return null;
      let entry = entryFor(url);
      if (entry.first) {
        // Never read yet: wait a little for it, then go without. Only once: while a slow first read goes on, the
        // visits after this one do not wait for it.
        entry.first = false;
        let timer;
        await Promise.race([entry.reading, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
        clearTimeout(timer);
        entry = cache.get(url);
      }
      if (!entry?.frame) return null;
      const body =
        text.slice(0, slot.index) + open + entry.frame + close + text.slice(slot.index + whole.length);
      return { body: Buffer.from(body, 'utf8'), tag: entry.tag };
    },
    /** Resolves once the reads under way have ended (for tests). */
    async settled() {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
  };
}
