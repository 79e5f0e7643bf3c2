import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { browserSuite } from '../support/suite.mjs';
import { apiClient, storeSession } from '../support/api-client.mjs';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import {
  BUDGET_KB,
  describeScript,
  kb,
  LANDING_SCRIPTS,
  landingApplicationJs,
  recordResponses,
  recordScripts,
  totals,
} from '../support/bytes.mjs';

const require = createRequire(import.meta.url);
const { remotes, repoRoot } = require('@time-wallet/devkit/apps');

// Deterministic size budgets on the bytes Chromium really downloads from the production builds (gzip -9, as the
// static servers send them). The landing page is static HTML with no application JS. The shell's initial JS is
// everything the shell's origin sends a guest opening the login page, except React and react-dom, the framework every
// page needs whatever the shell does (about 70 KB, budgeted by "downloaded once" below).
describe('size budgets', () => {
  const suite = browserSuite({ account: 'budgets', signIn: false });
  let scripts;
  let responses;
  before(() => {
    scripts = recordScripts(suite.page, suite.stack);
    responses = recordResponses(suite.page);
  });

  const heading = () => suite.page.getByRole('heading', { level: 1 }).first();
  // Each budget is a first visit: a script revalidated from the cache (a 304) would not be counted.
  const clearHttpCache = async () => {
    const cdp = await suite.page.context().newCDPSession(suite.page);
    await cdp.send('Network.clearBrowserCache');
    await cdp.detach();
  };
  const sumKb = (list) => kb(list.reduce((total, download) => total + download.gzip, 0));

  it('serves the landing page as static HTML that downloads no application JS', async () => {
    const mark = scripts.mark();
    const responsesMark = responses.mark();
    await suite.page.goto(`${suite.stack.shellUrl}/`);
    await suite.page.getByRole('heading', { level: 1, name: 'Organize everything in your life' }).waitFor();
    await suite.page.waitForLoadState('networkidle');
    const landing = scripts.since(mark);
    const received = responses.since(responsesMark);
    const documentKb = sumKb(received.filter((response) => response.type === 'document'));
    console.log(
      `landing page: ${sumKb(received).toFixed(1)} KB in ${received.length} files: the HTML with its CSS ` +
        `inlined ${documentKb.toFixed(1)} KB, scripts ${sumKb(landing).toFixed(1)} KB ` +
        `(${landing.map((download) => new URL(download.url).pathname).join(', ') || 'none'})`,
    );
    assert.deepEqual(
      landingApplicationJs(landing, suite.stack.shellUrl).map((download) => download.url),
      [],
      `no script but ${LANDING_SCRIPTS.allowed.join(', ')}`,
    );
    assert.ok(
      sumKb(landing) <= LANDING_SCRIPTS.maxKb,
      `${sumKb(landing).toFixed(1)} KB of script > ${LANDING_SCRIPTS.maxKb} KB`,
    );
    // "Get Started" is a plain link: the app starts on the page it opens.
    await suite.page.getByRole('link', { name: 'Get Started' }).click();
    await suite.page.getByRole('heading', { level: 1, name: 'Welcome Back' }).waitFor();
    assert.equal(new URL(suite.page.url()).pathname, '/auth/login');
  });

  it(`keeps the shell's initial JS within ${BUDGET_KB.shellInitialJs} KB`, async () => {
    // The last test's page may still be loading what it started: its late answers are not this page's downloads.
    await suite.page.waitForLoadState('networkidle');
    await clearHttpCache();
    const mark = scripts.mark();
    await suite.page.goto(`${suite.stack.shellUrl}/auth/login`);
    await suite.page.getByRole('heading', { level: 1, name: 'Welcome Back' }).waitFor();
    await suite.page.waitForLoadState('networkidle');
    const shellOrigin = new URL(suite.stack.shellUrl).origin;
    // Each file once: an answer of the last page that arrives after the mark would count a file twice.
    const login = [...new Map(scripts.since(mark).map((download) => [download.url, download])).values()];
    const figures = totals(login.filter((download) => download.origin === shellOrigin));
    console.log(
      `login page: ${totals(login).totalKb.toFixed(1)} KB of JS in ${login.length} files; ` +
        `shell initial JS ${figures.withoutFrameworkKb.toFixed(1)} KB + React/react-dom ${figures.frameworkKb.toFixed(1)} KB`,
    );
    assert.ok(figures.frameworkKb > 50, 'React and react-dom are recognised as the framework');
    assert.ok(
      figures.withoutFrameworkKb <= BUDGET_KB.shellInitialJs,
      `${figures.withoutFrameworkKb.toFixed(1)} KB > ${BUDGET_KB.shellInitialJs} KB`,
    );
  });

  // Without the preloads the shell's chunks are requested only once main.js has downloaded and run: a second round
  // trip, and the entry's evaluation, before the bytes that draw the page start to move. The stylesheet of those
  // chunks (create-config.cjs extracts the shell's CSS too) is preloaded with them.
  it("preloads from the HTML every script and stylesheet the shell's first render loads, and nothing else", async () => {
    await clearHttpCache();
    const mark = scripts.mark();
    const sheets = responses.mark();
    // The app's own document (a prerendered page leaves the preloads out: prerender.cjs).
    const html = await (await fetch(`${suite.stack.shellUrl}/index.html`)).text();
    const preloaded = [...html.matchAll(/<link\b[^>]*\brel="?preload"?[^>]*>/g)]
      .map((match) => match[0].match(/\bhref="?([^"\s>]+)/)?.[1])
      .sort();
    await suite.page.goto(`${suite.stack.shellUrl}/auth/login`);
    await suite.page.getByRole('heading', { level: 1, name: 'Welcome Back' }).waitFor();
    await suite.page.waitForLoadState('networkidle');
    const shellOrigin = new URL(suite.stack.shellUrl).origin;
    const started = scripts
      .since(mark)
      .filter((download) => download.origin === shellOrigin)
      .map((download) => new URL(download.url).pathname)
      .filter((pathname) => !['/main.js', ...LANDING_SCRIPTS.allowed].includes(pathname));
    const styled = responses
      .since(sheets)
      .filter((response) => response.type === 'stylesheet' && new URL(response.url).origin === shellOrigin)
      .map((response) => new URL(response.url).pathname);
    // The framework, the other packages and our own code (devkit/webpack/startup-chunks.cjs), and their styles.
    assert.ok(started.length >= 3, `the shell's chunks were recorded: ${started.join(', ')}`);
    assert.ok(styled.length >= 1, `the shell's stylesheet was recorded: ${styled.join(', ')}`);
    assert.deepEqual(preloaded, [...started, ...styled].sort());
  });

  // The shell preloads a page's sync chunks with its entry (features/remotes/federation.ts); FullCalendar (75 KB) is a
  // lazy chunk the calendar loads once its grid's frame is painted, so no page's sync chunks may carry it.
  it("keeps FullCalendar out of every page's sync chunks, which the shell preloads", () => {
    for (const remote of remotes) {
      const dist = path.join(repoRoot, remote.dir, 'dist');
      const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'mf-manifest.json'), 'utf8'));
      for (const expose of manifest.exposes) {
        const sync = expose.assets.js.sync;
        assert.ok(sync.length > 0, `${remote.dir} ${expose.name} lists its sync chunks`);
        for (const file of sync) {
          assert.notEqual(
            describeScript(dist, file).kind,
            'fullcalendar',
            `${remote.dir} ${expose.name}: ${file}`,
          );
        }
      }
    }
    const calendar = JSON.parse(
      fs.readFileSync(path.join(repoRoot, 'mfe-calendar', 'dist', 'mf-manifest.json'), 'utf8'),
    );
    const lazy = calendar.exposes.flatMap((expose) => expose.assets.js.async);
    assert.ok(
      lazy.some(
        (file) => describeScript(path.join(repoRoot, 'mfe-calendar', 'dist'), file).kind === 'fullcalendar',
      ),
      "FullCalendar is one of the calendar page's lazy chunks",
    );
  });

  it('keeps remote entries and page chunks within budget, and loads the framework and the store once', async () => {
    await clearHttpCache();
    await storeSession(suite.page, suite.stack.shellUrl, suite.account);
    const mark = scripts.mark();
    // One document through every layout page and out by the auth remote's logout page ...
    await suite.page.goto(`${suite.stack.shellUrl}/app/wallet`);
    await heading().waitFor();
    const visit = async (nav, link) => {
      await suite.page
        .getByRole('navigation', { name: nav })
        .getByRole('link', { name: link, exact: true })
        .click();
      await heading().waitFor();
      await suite.page.waitForLoadState('networkidle');
    };
    for (const tab of ['Today', 'Yesterday', 'Edit Tags']) await visit('Tabs', tab);
    await visit('Main', 'Analytics');
    await suite.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Logout' }).click();
    await suite.page.getByRole('heading', { name: 'Logged Out Successfully' }).waitFor();
    await suite.page.waitForLoadState('networkidle');
    // ... and a second one that opens the calendar directly.
    await storeSession(
      suite.page,
      suite.stack.shellUrl,
      await apiClient(suite.stack.apiBaseUrl).signUp('budgets'),
    );
    await suite.page.goto(`${suite.stack.shellUrl}/app/calendar`);
    await heading().waitFor();
    await suite.page.waitForLoadState('networkidle');

    const session = scripts.since(mark);
    const shellOrigin = new URL(suite.stack.shellUrl).origin;
    const fromRemotes = session.filter((download) => download.origin !== shellOrigin);
    console.table(
      fromRemotes.map(({ origin, file, kind, gzip }) => ({ origin, file, kind, kb: kb(gzip).toFixed(1) })),
    );
    assert.equal(
      new Set(fromRemotes.filter((download) => download.kind === 'remoteEntry').map((d) => d.origin)).size,
      5,
      'every remote was visited',
    );
    for (const download of fromRemotes) {
      if (download.kind === 'fullcalendar') continue;
      const budget = download.kind === 'remoteEntry' ? BUDGET_KB.remoteEntry : BUDGET_KB.pageChunk;
      assert.ok(
        kb(download.gzip) <= budget,
        `${download.origin}/${download.file}: ${kb(download.gzip).toFixed(1)} KB > ${budget} KB`,
      );
    }

    // Per document: robots.txt (where the session is stored), the wallet's session and the calendar's.
    const documents = new Set(session.map((download) => download.document));
    assert.equal(documents.size, 2, 'two documents loaded scripts');
    for (const document of documents) {
      const loaded = session.filter((download) => download.document === document);
      const urls = loaded.map((download) => download.url);
      assert.deepEqual(
        urls.filter((url, index) => urls.indexOf(url) !== index),
        [],
        'no script is downloaded twice in one document',
      );
      for (const part of ['hasReact', 'hasReactDom', 'hasStore']) {
        const carriers = loaded.filter((download) => download[part]).map((download) => download.url);
        assert.equal(
          carriers.length,
          1,
          `${part.slice(3)} comes in exactly one file: ${carriers.join(', ')}`,
        );
        assert.ok(carriers[0].startsWith(shellOrigin), `${part.slice(3)} comes from the shell`);
      }
    }
  });

  // Everything a signed-in first visit to the wallet downloads: the shell's scripts, the framework and the remote's.
  it(`keeps a first visit to /app/wallet within ${BUDGET_KB.walletFirstVisit} KB of JS`, async () => {
    await clearHttpCache();
    const account = await apiClient(suite.stack.apiBaseUrl).signUp('budgets');
    await storeSession(suite.page, suite.stack.shellUrl, account);
    const mark = scripts.mark();
    const sheets = responses.mark();
    await suite.page.goto(`${suite.stack.shellUrl}/app/wallet`);
    // The page's own heading, not the prerendered frame's.
    await suite.page.locator('h1#wallet-page-title').waitFor();
    await suite.page.waitForLoadState('networkidle');
    const figures = totals(scripts.since(mark));
    const stylesheets = responses.since(sheets).filter((response) => response.type === 'stylesheet');
    console.log(
      `wallet page: ${figures.totalKb.toFixed(1)} KB of JS in ${figures.files} files ` +
        `(React/react-dom ${figures.frameworkKb.toFixed(1)} KB), ` +
        `${kb(stylesheets.reduce((sum, sheet) => sum + sheet.gzip, 0)).toFixed(1)} KB of CSS in ` +
        `${stylesheets.length} files`,
    );
    // The wallet remote's styles came as its own stylesheet file, not inside its JS (devkit's create-config.cjs).
    const walletOrigin = suite.stack.originOf('mfe_wallet');
    assert.ok(
      stylesheets.some((sheet) => new URL(sheet.url).origin === walletOrigin),
      `a stylesheet from ${walletOrigin}: ${stylesheets.map((sheet) => sheet.url).join(', ')}`,
    );
    assert.ok(
      figures.totalKb <= BUDGET_KB.walletFirstVisit,
      `${figures.totalKb.toFixed(1)} KB > ${BUDGET_KB.walletFirstVisit} KB`,
    );
  });
});
