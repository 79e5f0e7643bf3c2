import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { repoRoot, remotes, shell } = require('@time-wallet/devkit/apps');

/**
 * Size budgets in KB of gzip -9. Raise one only in a commit that says why.
 *
 * `walletFirstVisit` is every script a signed-in first visit to /app/wallet downloads. Issue 18 aims at 140; issue 33
 * caps it at 185. React and react-dom are 66.9, RTK Query with immer, redux and react-redux 25, react-router 12.6, the
 * federation runtime about 25 (the shell's entry and the remote's). Every app's CSS comes as stylesheet files, not
 * inside the JS: the remotes' first (docs/decisions/0005, 186.2 before, 183.2 after), then the shell's (0009, 174.5).
 * The shell's Landing and About pages (2.5) stay in the start-up code: loaded lazily, a sign-out while offline would
 * have nothing to show. A phone's tab bar and its More menu (issue 32) are drawn in the shell's first frame.
 */
export const BUDGET_KB = { shellInitialJs: 110, remoteEntry: 12, pageChunk: 35, walletFirstVisit: 185 };

/**
 * The static landing page downloads no application JS. Its one script is theme-init.js, which applies the chosen
 * theme before the first paint (a file: the CSP allows no inline script), capped here; any other is a failure.
 */
export const LANDING_SCRIPTS = { allowed: ['/theme-init.js'], maxKb: 1 };

/** The scripts of a landing page visit that are application JS: all but the allowed ones from the shell's origin. */
export function landingApplicationJs(downloads, shellUrl) {
  const shellOrigin = new URL(shellUrl).origin;
  return downloads.filter(
    (download) =>
      download.origin !== shellOrigin || !LANDING_SCRIPTS.allowed.includes(new URL(download.url).pathname),
  );
}

export const kb = (bytes) => bytes / 1024;
export const gzipSize = (body) => zlib.gzipSync(body, { level: 9 }).length;

const FRAMEWORK = /node_modules\/(react|react-dom|scheduler)\//;
const FULLCALENDAR = /node_modules\/@fullcalendar\//;
const OUR_STORE = /packages\/api\/src\/store\.ts$/;

/** The build folder each origin of a stack serves, so a download can be traced to its source map. */
export function distDirsOf(stack) {
  const dirs = new Map([[new URL(stack.shellUrl).origin, path.join(repoRoot, shell.dir, 'dist')]]);
  for (const remote of remotes) {
    dirs.set(
      new URL(stack.config.remotes[remote.federationName]).origin,
      path.join(repoRoot, remote.dir, 'dist'),
    );
  }
  return dirs;
}

function readOrNull(file) {
  try {
    return fs.readFileSync(file);
  } catch {
    return null;
  }
}

function sourcesOf(distDir, file) {
  try {
    return JSON.parse(fs.readFileSync(path.join(distDir, `${file}.map`), 'utf8')).sources;
  } catch {
    return [];
  }
}

/**
 * What a script is, read from its source map: the framework (React and react-dom only), FullCalendar, a remote's
 * entry, or an ordinary chunk. Whether it holds our store is noted apart.
 */
export function describeScript(distDir, file) {
  const sources = sourcesOf(distDir, file);
  const kind =
    file === 'remoteEntry.js'
      ? 'remoteEntry'
      : sources.length > 0 && sources.every((source) => FRAMEWORK.test(source))
        ? 'framework'
        : sources.some((source) => FULLCALENDAR.test(source))
          ? 'fullcalendar'
          : 'chunk';
  return {
    kind,
    sources,
    hasStore: sources.some((source) => OUR_STORE.test(source)),
    hasReactDom: sources.some((source) => /node_modules\/react-dom\/cjs\/react-dom-client\./.test(source)),
    hasReact: sources.some((source) => /node_modules\/react\/cjs\/react\.production/.test(source)),
  };
}

/**
 * Records every script Chromium downloads in a page, with its gzip -9 size (what the static servers send) and what
 * it is. `document` counts full page loads, so "downloaded once" can be checked per document: a new document may
 * read cached chunks again.
 */
export function recordScripts(page, stack) {
  const dirs = distDirsOf(stack);
  const downloads = [];
  let document = 0;
  // A document request starts a new document; history navigations inside the single-page app do not.
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) document += 1;
  });
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script' || response.status() !== 200) return;
    const url = new URL(response.url());
    const distDir = dirs.get(url.origin);
    const file = url.pathname.slice(1);
    // Our own scripts are sized from the file the static server sent, at once: Chromium may have let go of a body by
    // the time it is asked for (a script it preloaded, say), and a download recorded late would miss a reader's mark.
    const body = distDir ? readOrNull(path.join(distDir, file)) : await response.body().catch(() => null);
    if (!body) return;
    downloads.push({
      url: url.href,
      origin: url.origin,
      file,
      document,
      gzip: gzipSize(body),
      ...(distDir ? describeScript(distDir, file) : { kind: 'foreign', sources: [] }),
    });
  });
  return {
    downloads,
    since(mark) {
      return downloads.slice(mark);
    },
    mark() {
      return downloads.length;
    },
  };
}

/** Every answer a page receives (200s, of any type), sized like the scripts: what a visit weighs in all. */
export function recordResponses(page) {
  const responses = [];
  page.on('response', async (response) => {
    if (response.status() !== 200) return;
    const body = await response.body().catch(() => null);
    if (!body) return;
    responses.push({ url: response.url(), type: response.request().resourceType(), gzip: gzipSize(body) });
  });
  return {
    since(mark) {
      return responses.slice(mark);
    },
    mark() {
      return responses.length;
    },
  };
}

/** Totals of a list of downloads: all JS, and the shell's initial JS (all but the framework's React and react-dom). */
export function totals(downloads) {
  const sum = (list) => list.reduce((total, download) => total + download.gzip, 0);
  return {
    files: downloads.length,
    totalKb: kb(sum(downloads)),
    frameworkKb: kb(sum(downloads.filter((download) => download.kind === 'framework'))),
    withoutFrameworkKb: kb(sum(downloads.filter((download) => download.kind !== 'framework'))),
  };
}
