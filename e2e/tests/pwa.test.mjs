import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { apiClient, storeSession } from '../support/api-client.mjs';
import { launchBrowser, waitInPage } from '../support/browser.mjs';
import { TIME_ZONE } from '../support/days.mjs';
import { buildRemoteVariant } from '../support/remote-variant.mjs';
import { browserSuite } from '../support/suite.mjs';
import { sparePort } from '../support/stack.mjs';

const require = createRequire(import.meta.url);
const { repoRoot, remotes, shell, api } = require('@time-wallet/devkit/apps');

// The page side's words (shell/src/features/offline/pwa-client.tsx).
const OFFLINE_BANNER = 'Offline: showing what was last loaded';
const NEEDS_CONNECTION = "You're offline: this needs a connection";

/** Waits until the shell's service worker is active and controls the page. */
async function workerControls(page) {
  await waitInPage(
    page,
    async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      return Boolean(registration?.active && navigator.serviceWorker.controller);
    },
    undefined,
    { message: 'the service worker never controlled the page' },
  );
}

/**
 * The installable, offline-capable app (issue 32): the worker installs and controls the page, Chromium's
 * installability check passes, a signed-in person reopens Today, the wallet and the calendar offline with what they
 * last read, a push reaches the open page as a toast.
 */
describe('installable app that opens offline', () => {
  const suite = browserSuite({
    account: 'pwa',
    seed: async ({ api: client, account }) => {
      const call = (method, url, body) =>
        client.call(method, url, { token: account.token, body, timeZone: TIME_ZONE });
      const category = await call('POST', '/categories', { name: 'Deep Work', color: '#2F80ED' });
      await call('POST', '/tasks', {
        title: 'Read before the flight',
        categoryId: category._id,
        startHHMM: '09:00',
        endHHMM: '10:00',
      });
      const start = new Date();
      start.setHours(11, 0, 0, 0);
      await call('POST', '/events', {
        title: 'Offline standup',
        start: start.toISOString(),
        end: new Date(+start + 30 * 60_000).toISOString(),
      });
    },
  });
  const page = () => suite.page;
  const heading = (name) => page().getByRole('heading', { level: 1, name, exact: true });
  const status = (text) => page().getByRole('status').filter({ hasText: text });
  const task = () => page().getByRole('checkbox', { name: 'Read before the flight done' });
  // A link of the side navigation, by where it leads.
  const nav = (path) => page().getByRole('navigation', { name: 'Main' }).locator(`a[href="${path}"]`).click();
  const budgetHours = () =>
    page()
      .locator('div', { has: page().getByRole('heading', { level: 3, name: 'Budget Hours', exact: true }) })
      .last()
      .getByText('15 hours', { exact: true });
  /**
   * Waits until everything the page loaded from a remote or the API (but the session checks), and the runtime config,
   * is in one of the worker's caches: the page tells the worker a second after it loads something, and the worker
   * fetches what it lacks.
   */
  const warmed = async () => {
    let missing = [];
    for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
      missing = await page().evaluate(async (shellOrigin) => {
        const loaded = performance
          .getEntriesByType('resource')
          .map((entry) => entry.name)
          .filter((name) => !name.startsWith(`${shellOrigin}/`) || name === `${shellOrigin}/config.json`)
          // Not reads: the session checks, and the analytics update the shell POSTs at start-up.
          .filter((name) => !name.includes('/auth/') && !name.endsWith('/weekly/update'));
        if (loaded.length === 0) return ['(nothing loaded)'];
        const absent = [];
        for (const name of new Set(loaded)) if (!(await caches.match(name))) absent.push(name);
        return absent;
      }, suite.stack.shellUrl);
      if (missing.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    assert.deepEqual(missing, [], "everything the page loaded is in the worker's caches");
  };

  // The one online visit: a first load of /app/today (the worker installs and takes over after the page has read the
  // API and loaded its chunks), then the calendar week and the wallet in the same document, as a person would, and
  // back to Today, which the next test reloads offline.
  it('installs its service worker, which controls the page, and passes the installability check', async () => {
    await page().goto(`${suite.stack.shellUrl}/app/today`);
    await heading('Today Activities').waitFor();
    await task().waitFor();
    await workerControls(page());
    const cdp = await page().context().newCDPSession(page());
    try {
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
      assert.deepEqual(installabilityErrors, []);
      const { url, errors } = await cdp.send('Page.getAppManifest');
      assert.equal(new URL(url).pathname, '/manifest.webmanifest');
      assert.deepEqual(errors, []);
    } finally {
      await cdp.detach();
    }
    const manifest = await (await fetch(`${suite.stack.shellUrl}/manifest.webmanifest`)).json();
    assert.equal(manifest.start_url, '/app/today');
    assert.equal(manifest.display, 'standalone');
    assert.ok(manifest.icons.some((icon) => icon.purpose === 'maskable'));
    // The dark theme's colour too, for the title bar.
    assert.equal(
      await page().locator('meta[name="theme-color"][media="(prefers-color-scheme: dark)"]').count(),
      1,
    );

    // Still the first document: the wallet and the calendar week, opened from the navigation.
    await nav('/app/calendar');
    await heading('Calendar').waitFor();
    await page().getByText('Offline standup').first().waitFor();
    // The calendar has no side navigation: its own way back.
    await page().getByRole('link', { name: 'Back to Wallet', exact: true }).click();
    await heading('Manage Time Wallet').waitFor();
    await budgetHours().waitFor();
    await page()
      .getByRole('navigation', { name: 'Tabs' })
      .getByRole('link', { name: 'Today', exact: true })
      .click();
    await heading('Today Activities').waitFor();
    await task().waitFor();
    assert.equal(await status(OFFLINE_BANNER).count(), 0, 'no banner online');
    // What the page told the worker it loaded is in the worker's caches before the network goes.
    await warmed();
  });

  it('reopens Today offline with the tasks last read, says so, and refuses an action with a reason', async () => {
    await page().context().setOffline(true);
    try {
      await page().reload();
      await heading('Today Activities').waitFor();
      await task().waitFor();
      await status(OFFLINE_BANNER).waitFor();
      assert.equal(new URL(page().url()).pathname, '/app/today', 'still signed in');

      // An action that needs the server says so.
      await task().click();
      await status(NEEDS_CONNECTION).waitFor();
    } finally {
      await page().context().setOffline(false);
    }
    await status(OFFLINE_BANNER).waitFor({ state: 'detached' });
    // Online again, reads come from the API: the check that failed offline was never saved.
    await page().goto(`${suite.stack.shellUrl}/app/today`);
    await task().waitFor();
    assert.equal(await task().isChecked(), false);
  });

  it('reopens the wallet and the calendar week offline with what was last read', async () => {
    await page().context().setOffline(true);
    try {
      await page().goto(`${suite.stack.shellUrl}/app/wallet`);
      await heading('Manage Time Wallet').waitFor();
      await status(OFFLINE_BANNER).waitFor();
      await budgetHours().waitFor();
      assert.deepEqual(await page().getByRole('alert').filter({ hasText: 'Failed' }).allTextContents(), []);

      await page().goto(`${suite.stack.shellUrl}/app/calendar`);
      await heading('Calendar').waitFor();
      await page().getByText('Offline standup').first().waitFor();
      await status(OFFLINE_BANNER).waitFor();
    } finally {
      await page().context().setOffline(false);
    }
  });

  it('shows a push in the open page as a toast, not as a notification', async () => {
    await page().goto(`${suite.stack.shellUrl}/app/today`);
    await heading('Today Activities').waitFor();
    await workerControls(page());
    await page().bringToFront();
    const cdp = await page().context().newCDPSession(page());
    try {
      const registered = new Promise((resolve) =>
        cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
          const ours = registrations.find(
            (registration) => registration.scopeURL === `${suite.stack.shellUrl}/`,
          );
          if (ours) resolve(ours);
        }),
      );
      await cdp.send('ServiceWorker.enable');
      const { registrationId } = await registered;
      const notifications = () =>
        page().evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).length);
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin: suite.stack.shellUrl,
        registrationId,
        data: JSON.stringify({
          kind: 'event',
          title: 'Standup in 10 minutes',
          body: 'Offline standup at 11:00',
          url: '/app/calendar',
          tag: 'event:standup',
        }),
      });
      await status('Standup in 10 minutes').waitFor();
      await status('Offline standup at 11:00').waitFor();
      assert.equal(await notifications(), 0, 'no system notification beside the toast');
    } finally {
      await cdp.detach();
    }
    assert.deepEqual(suite.browser.pageErrors, []);
  });
});

/** `npm start` with the existing builds, on spare ports and its own data folder (as deploy.test.mjs runs it). */
async function startProduct(dataDir) {
  const apps = [shell, ...remotes, api];
  const ports = Object.fromEntries(apps.map((app, index) => [app.portEnv, String(sparePort(20 + index))]));
  const env = { ...process.env, ...ports, SKIP_BUILD: '1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  const child = spawn(process.execPath, ['shell/packages/devkit/bin/start.mjs'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (let waited = 0; !output.includes('Time Wallet is up') && child.exitCode === null; waited += 100) {
    if (waited > 60_000) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.match(output, /Time Wallet is up/, output);
  const originOf = (app) => `http://localhost:${ports[app.portEnv]}`;
  return {
    env,
    shellUrl: originOf(shell),
    apiBaseUrl: `${originOf(api)}/api`,
    originOf,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

function npmRun(script, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], { cwd: repoRoot, env });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe('a deploy with the worker in control', () => {
  const tags = remotes.find((remote) => remote.dir === 'mfe-tags');
  const [major, minor] = JSON.parse(fs.readFileSync(path.join(repoRoot, 'mfe-tags/package.json'), 'utf8'))
    .version.split('.')
    .map(Number);
  const NEXT = `${major}.${minor + 1}.0`;
  const workDir = path.join(repoRoot, '.e2e-tmp', `pwa-${process.pid}`);
  let product;
  let browser;
  let variant;

  before(async () => {
    fs.mkdirSync(workDir, { recursive: true });
    variant = await buildRemoteVariant('mfe-tags', {
      file: 'src/features/tags/components/tags-page.tsx',
      replace: ['title={TEXT.heading}', 'title={`${TEXT.heading} (v2)`}'],
      version: NEXT,
    });
    product = await startProduct(path.join(workDir, 'data'));
    browser = await launchBrowser();
    await storeSession(
      browser.page,
      product.shellUrl,
      await apiClient(product.apiBaseUrl).signUp('pwadeploy'),
    );
  });

  after(async () => {
    await browser?.close();
    await product?.stop();
    variant?.remove();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('runs the new version on the next online load, every chunk from its version folder', async () => {
    const { page } = browser;
    const heading = (name) => page.getByRole('heading', { level: 1, name, exact: true });
    await page.goto(`${product.shellUrl}/app/edit-tags`);
    await heading('Your Tags').waitFor();
    await workerControls(page);
    // A visit with the worker in control caches the live version's manifest, entry and chunks.
    await page.reload();
    await heading('Your Tags').waitFor();
    await page.waitForLoadState('networkidle');
    // Some of them reach the worker only in the page's message a second after load (what Chromium's memory cache
    // answered): wait until it has kept them, or its fetches of the old files would land after the deploy below.
    await waitInPage(
      page,
      async (origin) => {
        const files = performance
          .getEntriesByType('resource')
          .map((entry) => entry.name)
          .filter((name) => name.startsWith(`${origin}/`));
        const kept = await Promise.all(files.map((url) => caches.match(url, { ignoreVary: true })));
        return files.length > 0 && kept.every(Boolean);
      },
      product.originOf(tags),
      { message: "the live version's files never reached the worker's caches" },
    );

    const deployed = await npmRun('deploy', ['mfe-tags', '--from', variant.distDir], product.env);
    assert.equal(deployed.code, 0, deployed.stderr);

    const tagsOrigin = product.originOf(tags);
    const requested = [];
    const record = (request) => {
      if (request.url().startsWith(`${tagsOrigin}/`)) requested.push(new URL(request.url()).pathname);
    };
    page.on('request', record);
    browser.context.on('request', record);
    await page.reload();
    await heading('Your Tags (v2)').waitFor();
    await page.waitForLoadState('networkidle');
    page.off('request', record);
    browser.context.off('request', record);

    const scripts = requested.filter((file) => file.endsWith('.js'));
    assert.ok(scripts.includes(`/v/${NEXT}/remoteEntry.js`), requested.join(', '));
    assert.ok(
      requested.every((file) => file.startsWith(`/v/${NEXT}/`)),
      `every mfe-tags file from /v/${NEXT}/: ${requested.join(', ')}`,
    );
    const loaded = await page.evaluate(
      (origin) =>
        performance
          .getEntriesByType('resource')
          .map((entry) => entry.name)
          .filter((name) => name.startsWith(`${origin}/`) && name.endsWith('.js'))
          .map((name) => new URL(name).pathname),
      tagsOrigin,
    );
    assert.ok(loaded.length > 0, 'the page loaded mfe-tags scripts');
    assert.ok(
      loaded.every((file) => file.startsWith(`/v/${NEXT}/`)),
      `no mix: ${loaded.join(', ')}`,
    );
    assert.deepEqual(browser.pageErrors, []);
  });
});
