import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createStaticServer } from '@time-wallet/devkit/serve';
import { storeSession } from '../support/api-client.mjs';
import { browserSuite } from '../support/suite.mjs';

const { firstFrames } = createRequire(import.meta.url)('@time-wallet/devkit/apps');

function listen(server) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server.address().port));
  });
}

/** The build's prerendered.json decides which paths get a prerendered document; every other path gets the app. */
describe('static server: prerendered pages', () => {
  let workDir;
  let root;
  let server;
  let port;
  const body = async (urlPath) => (await fetch(`http://127.0.0.1:${port}${urlPath}`)).text();
  const write = (file, text) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };

  before(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'time-wallet-prerendered-'));
    root = path.join(workDir, 'dist');
    write('index.html', 'the app');
    write('landing.html', 'the landing page');
    write('auth/login.html', 'the login frame');
    fs.writeFileSync(path.join(workDir, 'secret.html'), 'outside the build');
    server = createStaticServer({ root, spa: true });
    port = await listen(server);
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve).closeAllConnections());
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('answers the listed paths with their documents and every other one with the app', async () => {
    write(
      'prerendered.json',
      JSON.stringify({ '/': 'landing.html', '/landing': 'landing.html', '/auth/login': 'auth/login.html' }),
    );
    for (const urlPath of ['/', '/landing', '/landing/'])
      assert.equal(await body(urlPath), 'the landing page');
    assert.equal(await body('/auth/login'), 'the login frame');
    for (const urlPath of ['/auth/register', '/app/wallet', '/nowhere', '/constructor', '/toString']) {
      assert.equal(await body(urlPath), 'the app', urlPath);
    }
    assert.equal(await body('/index.html'), 'the app', 'a file asked for by name is that file');
  });

  it('falls back to the app when the list is missing, malformed or names a file it cannot serve', async () => {
    for (const list of [
      null,
      '{ not json',
      '[]',
      JSON.stringify({ '/': 42 }),
      JSON.stringify({ '/': 'missing.html' }),
      JSON.stringify({ '/': '../secret.html' }),
    ]) {
      if (list === null) fs.rmSync(path.join(root, 'prerendered.json'), { force: true });
      else write('prerendered.json', list);
      assert.equal(await body('/'), 'the app', String(list));
    }
  });
});

describe('prerendered pages of the production build', () => {
  const suite = browserSuite({ browser: { colorScheme: 'dark' } });
  const DARK_BACKGROUND = 'rgb(15, 21, 19)';
  const LIGHT_BACKGROUND = 'rgb(246, 248, 247)';

  const backgroundOnLoad = async (urlPath) => {
    await suite.page.goto(`${suite.stack.shellUrl}${urlPath}`, { waitUntil: 'domcontentloaded' });
    return suite.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  };

  it('draws the static landing page in the chosen theme from its first paint, without the app', async () => {
    assert.equal(await backgroundOnLoad('/'), DARK_BACKGROUND, 'system theme, dark');
    for (const [theme, background] of [
      ['light', LIGHT_BACKGROUND],
      ['dark', DARK_BACKGROUND],
    ]) {
      await suite.page.evaluate((chosen) => localStorage.setItem('theme', chosen), theme);
      assert.equal(await backgroundOnLoad('/landing'), background, theme);
    }
    await suite.page.evaluate(() => localStorage.removeItem('theme'));
    await suite.page.getByRole('heading', { level: 1, name: 'Organize everything in your life' }).waitFor();
    const scripts = await suite.page.evaluate(() =>
      [...document.querySelectorAll('script')].map((script) => script.src || script.textContent),
    );
    // theme-init.js, inlined at build time; nothing of the app.
    assert.equal(scripts.length, 1, 'one script');
    assert.match(scripts[0], /data-theme/, 'the theme script, inline');
  });

  it('paints the login frame before its script runs, then the app takes over', async () => {
    const html = await (await fetch(`${suite.stack.shellUrl}/auth/login`)).text();
    assert.match(html, /<h1\b[^>]*>Welcome Back<\/h1>/, "the registry's heading is in the first HTML");
    assert.match(html, /<script\b[^>]*src="?\/main\.js/, "the app's entry is loaded");
    assert.doesNotMatch(html, /<(form|input)\b/, 'no form before the app can handle it');
    await suite.page.goto(`${suite.stack.shellUrl}/auth/login`);
    await suite.page.getByRole('heading', { level: 1, name: 'Welcome Back' }).waitFor();
    assert.equal(await suite.page.getByRole('heading', { level: 1 }).count(), 1, 'the frame gave way');
  });
});

describe('prerendered signed-in pages of the production build', () => {
  // The first HTML alone is what these tests read: a service worker would answer the scripts they block from its
  // cache (no route sees that), and the app would replace the frame before it is read.
  const suite = browserSuite({ account: 'frame', signIn: false, browser: { serviceWorkers: 'block' } });

  /** From the next page on, records each largest paint: its time and its words. */
  const recordLargestPaints = () =>
    suite.page.addInitScript(() => {
      window.__largestPaints = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          window.__largestPaints.push({ time: entry.startTime, text: entry.element?.textContent ?? '' });
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    });
  const largestPaints = () => suite.page.evaluate(() => window.__largestPaints);
  /**
   * Visits a signed-in page with the chunk of its remote's page (its expose) held until the first HTML has painted:
   * what that HTML paints by itself is what is read, however late a loaded machine paints it (early-start asks for
   * the page's code as soon as the config answers, which can come before the first paint). Returns when the code
   * was let through, once the page has taken over.
   */
  const visitWithPageCodeHeld = async (pagePath, expose, pageHeadingId) => {
    let release;
    const held = new Promise((resolve) => {
      release = resolve;
    });
    let asked = false;
    await suite.page.route(`**/*__federation_expose_${expose}*`, async (route) => {
      asked = true;
      await held;
      await route.continue();
    });
    try {
      await suite.page.goto(`${suite.stack.shellUrl}${pagePath}`, { waitUntil: 'commit' });
      await suite.page.waitForFunction(() => window.__largestPaints.length > 0);
      assert.equal(
        await suite.page.locator(`h1#${pageHeadingId}`).count(),
        0,
        "no page's heading before its code",
      );
      const releasedAt = await suite.page.evaluate(() => performance.now());
      release();
      // The remote's own heading (its id, not the frame's) replaces the frame's.
      await suite.page.locator(`h1#${pageHeadingId}`).waitFor();
      assert.ok(asked, `the chunk of ${expose} was asked for`);
      return releasedAt;
    } finally {
      release();
      await suite.page.unrouteAll();
    }
  };

  it('paints the layout, heading and subtitle from the first HTML, without the page code', async () => {
    const html = await (await fetch(`${suite.stack.shellUrl}/app/wallet`)).text();
    assert.match(html, /<h1\b[^>]*>Manage Time Wallet<\/h1>/, "the registry's heading is in the first HTML");
    assert.match(html, /Balance habits, reminders, events, activites/, 'and its subtitle');
    assert.match(html, /<nav\b[^>]*aria-label="?Main\b/, 'the side navigation too');
    assert.match(html, /<div inert(="")?>/, 'inert until the app replaces it');

    await storeSession(suite.page, suite.stack.shellUrl, suite.account);
    await recordLargestPaints();
    await suite.page.addInitScript(() => {
      // Whether the heading ever left the screen once shown (the session check's spinner once replaced the frame).
      window.__headingGone = false;
      let shown = false;
      new MutationObserver(() => {
        const heading = document.querySelector('h1');
        if (heading) shown = true;
        else if (shown) window.__headingGone = true;
      }).observe(document, { childList: true, subtree: true });
    });
    const releasedAt = await visitWithPageCodeHeld('/app/wallet', 'WalletPage', 'wallet-page-title');
    const paints = await largestPaints();
    const largest = paints.at(-1);
    assert.ok(
      largest.time < releasedAt,
      `the largest paint (${largest.time} ms) came while the page's code was held (${releasedAt} ms): ${JSON.stringify(paints)}`,
    );
    assert.ok(
      ['Manage Time Wallet', 'Balance habits'].some((words) => largest.text.includes(words)),
      `the largest paint is the frame's heading or subtitle: ${JSON.stringify(largest)}`,
    );
    assert.equal(await suite.page.getByRole('heading', { level: 1 }).count(), 1, 'the frame gave way');
    assert.equal(await suite.page.locator('[inert]').count(), 0, 'nothing inert is left');
    assert.equal(
      await suite.page.evaluate(() => window.__headingGone),
      false,
      'the heading stayed on screen',
    );
    await suite.page.getByRole('link', { name: 'Calendar' }).click();
    await suite.page.getByRole('heading', { level: 1, name: 'Calendar' }).waitFor();
  });

  it("paints the analytics cards from the remote's first frame in the first HTML, its largest paint then", async () => {
    // A first visit waits up to 300 ms for the server's read of the frame; on a busy machine a later one has it.
    let html = '';
    for (let visit = 0; visit < 25 && !html.includes('Average Productive Hours'); visit += 1) {
      if (visit > 0) await new Promise((resolve) => setTimeout(resolve, 200));
      html = await (await fetch(`${suite.stack.shellUrl}/app/analytics`)).text();
    }
    for (const words of ['Average Productive Hours', 'Productive: tracked time, done tasks’ blocks'])
      assert.ok(html.includes(words), `"${words}" is in the first HTML, from mfe-analytics's build`);
    assert.doesNotMatch(html, /__federation_expose_AnalyticsPage/, 'no page code is named by it');

    await storeSession(suite.page, suite.stack.shellUrl, suite.account);
    await recordLargestPaints();
    const releasedAt = await visitWithPageCodeHeld('/app/analytics', 'AnalyticsPage', 'analytics-page-title');
    await suite.page
      .getByRole('region', { name: 'Average Productive Hours' })
      .getByText('hours')
      .first()
      .waitFor();
    const paints = await largestPaints();
    const largest = paints.at(-1);
    assert.ok(
      largest.text.length > 40 && html.includes(largest.text),
      `the largest paint is words of the first HTML's frame: ${JSON.stringify(paints)}`,
    );
    assert.ok(
      largest.time < releasedAt,
      `painted (${largest.time} ms) while the page's code was held (${releasedAt} ms)`,
    );
    assert.equal(await suite.page.locator(`[inert], [${firstFrames.slot}]`).count(), 0, 'the frame gave way');
    assert.equal(await suite.page.getByRole('heading', { level: 1 }).count(), 1);
  });

  it("puts the frame's heading and subtitle where the page draws them, so nothing moves when it takes over", async () => {
    const headerBoxes = () =>
      suite.page.evaluate(() =>
        [...document.querySelectorAll('h1, h1 + p')].map((element) => {
          const { x, y, height } = element.getBoundingClientRect();
          return `${element.tagName} at ${Math.round(x)},${Math.round(y)}, ${Math.round(height)} px high`;
        }),
      );
    await storeSession(suite.page, suite.stack.shellUrl, suite.account);
    for (const [width, height] of [
      [375, 812],
      [1280, 900],
    ]) {
      await suite.page.setViewportSize({ width, height });
      for (const [pagePath, headingId] of [
        ['/app/today', 'today-page-title'],
        ['/app/calendar', 'calendar-page-title'],
      ]) {
        // The first HTML alone, with its inline theme script: no script file.
        await suite.page.route('**/*.js', (route) => route.abort());
        await suite.page.goto(`${suite.stack.shellUrl}${pagePath}`);
        const frame = await headerBoxes();
        await suite.page.unrouteAll();
        await suite.page.goto(`${suite.stack.shellUrl}${pagePath}`);
        await suite.page.locator(`h1#${headingId}`).waitFor();
        assert.deepEqual(await headerBoxes(), frame, `${pagePath} at ${width} px`);
      }
    }
  });

  it("shows the frame's theme switch as stored, and no frame at all to a visit without a session", async () => {
    const frameBefore = async () => {
      // The first HTML alone, with its inline theme script: no script file.
      await suite.page.route('**/*.js', (route) => route.abort());
      await suite.page.goto(`${suite.stack.shellUrl}/app/wallet`);
      const seen = await suite.page.evaluate(() => ({
        visibility: getComputedStyle(document.querySelector('#root > [inert]')).visibility,
        looksChecked: [...document.querySelectorAll('[inert] label[data-option]')]
          .filter((label) => getComputedStyle(label).boxShadow !== 'none')
          .map((label) => label.dataset.option),
      }));
      await suite.page.unrouteAll();
      return seen;
    };
    await storeSession(suite.page, suite.stack.shellUrl, suite.account);
    await suite.page.evaluate(() => localStorage.setItem('theme', 'dark'));
    assert.deepEqual(await frameBefore(), { visibility: 'visible', looksChecked: ['dark'] });
    await suite.page.evaluate(() => localStorage.removeItem('theme'));
    assert.deepEqual(await frameBefore(), { visibility: 'visible', looksChecked: ['system'] });
    await suite.page.evaluate(() => localStorage.clear());
    assert.equal(
      (await frameBefore()).visibility,
      'hidden',
      'no signed-in navigation for a visit without a session',
    );
  });

  it('sends a visitor without a session from the frame to sign in', async () => {
    await suite.page.goto(`${suite.stack.shellUrl}/robots.txt`);
    await suite.page.evaluate(() => localStorage.clear());
    await suite.page.goto(`${suite.stack.shellUrl}/app/today`);
    await suite.page.getByRole('heading', { level: 1, name: 'Welcome Back' }).waitFor();
    assert.equal(new URL(suite.page.url()).pathname, '/auth/login');
  });
});
