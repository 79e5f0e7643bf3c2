import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { findChromium } from '@time-wallet/devkit/prerequisites';

export function chromiumPath() {
  const found = findChromium();
  if (!found) {
    throw new Error(
      'No Chromium found for the browser tests. `npm test` installs it; alone, run ' +
        '`sudo apt-get update && sudo apt-get install -y chromium` (or set CHROMIUM_PATH to a Chromium or Chrome binary).',
    );
  }
  return found;
}

// Without the networking flags Chromium keeps calling home, which this closed network refuses.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * A fresh Chromium profile per call: no state leaks between tests. `serviceWorkers: 'block'` keeps the app's worker
 * out, for tests that read what the servers send.
 */
export async function launchBrowser({
  viewport = { width: 1280, height: 900 },
  colorScheme = 'light',
  hasTouch = false,
  serviceWorkers = 'allow',
} = {}) {
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'time-wallet-chromium-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumPath(),
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
    colorScheme,
    hasTouch,
    serviceWorkers,
  });
  context.setDefaultTimeout(10_000);
  const pageErrors = [];
  context.on('page', (page) => page.on('pageerror', (error) => pageErrors.push(error)));
  for (const page of context.pages()) page.on('pageerror', (error) => pageErrors.push(error));
  const page = context.pages()[0] ?? (await context.newPage());
  routeThroughContext(page, context);
  return {
    context,
    pageErrors,
    page,
    async close() {
      await context.close();
      fs.rmSync(profileDir, { recursive: true, force: true });
    },
  };
}

/**
 * The app's service worker fetches what a page it controls asks for (shell/src/sw), and in Chromium Playwright's page
 * routes never see a request a service worker makes: only its context routes do. A context here holds one page, so
 * that page's routes are made its context's: a test that fails or answers a request on the page does so wherever the
 * request is fetched.
 */
function routeThroughContext(page, context) {
  page.route = (...args) => context.route(...args);
  page.unroute = (...args) => context.unroute(...args);
  page.unrouteAll = (...args) => context.unrouteAll(...args);
}

/**
 * Waits until `predicate` (run in the page, and awaited there) answers truthy. Playwright's own waitForFunction does
 * not await a promise: an async predicate passes at once, whatever it would answer.
 */
export async function waitInPage(page, predicate, arg, { timeout = 20_000, interval = 250, message } = {}) {
  for (const deadline = Date.now() + timeout; ;) {
    if (await page.evaluate(predicate, arg)) return;
    if (Date.now() >= deadline) throw new Error(message ?? `waitInPage: still false after ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
