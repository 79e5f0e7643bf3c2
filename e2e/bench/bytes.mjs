import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { startStack } from '../support/stack.mjs';
import { launchBrowser } from '../support/browser.mjs';
import { apiClient, storeSession } from '../support/api-client.mjs';
import {
  describeScript,
  gzipSize,
  kb,
  landingApplicationJs,
  recordResponses,
  recordScripts,
  totals,
} from '../support/bytes.mjs';

const require = createRequire(import.meta.url);
const { repoRoot, remotes, shell } = require('@time-wallet/devkit/apps');

const fileKb = (file) => kb(gzipSize(fs.readFileSync(file)));

/**
 * From the production builds on disk: the shell's entry, each remote's entry and each exposed page's own chunks, each
 * row with the kind its budget goes by.
 */
export function buildBytes() {
  const rows = [
    {
      what: 'shell main.js (entry)',
      kind: 'shellEntry',
      kb: fileKb(path.join(repoRoot, shell.dir, 'dist', 'main.js')),
    },
  ];
  for (const remote of remotes) {
    const dist = path.join(repoRoot, remote.dir, 'dist');
    rows.push({
      what: `${remote.dir} remoteEntry.js`,
      kind: 'remoteEntry',
      kb: fileKb(path.join(dist, 'remoteEntry.js')),
    });
    const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'mf-manifest.json'), 'utf8'));
    for (const expose of manifest.exposes) {
      const sizes = [...expose.assets.js.sync, ...expose.assets.js.async].map((file) => ({
        kb: fileKb(path.join(dist, file)),
        fullCalendar: describeScript(dist, file).kind === 'fullcalendar',
      }));
      const total = (list) => list.reduce((sum, size) => sum + size.kb, 0);
      const fullCalendar = sizes.filter((size) => size.fullCalendar);
      rows.push({
        what: `${remote.dir} ${expose.name} chunks${fullCalendar.length ? ' (without FullCalendar)' : ''}`,
        kind: 'pageChunk',
        kb: total(sizes.filter((size) => !size.fullCalendar)),
      });
      if (fullCalendar.length)
        rows.push({ what: `${remote.dir} FullCalendar`, kind: 'fullcalendar', kb: total(fullCalendar) });
    }
  }
  return rows;
}

/** What Chromium downloads for each page on a first visit (a fresh profile each time). */
export async function pageBytes() {
  const stack = await startStack();
  const rows = [];
  try {
    const account = await apiClient(stack.apiBaseUrl).signUp('bytes');
    const pages = [
      { name: 'landing', url: '/', signedIn: false },
      { name: 'login', url: '/auth/login', signedIn: false },
      { name: 'wallet', url: '/app/wallet', signedIn: true },
      { name: 'calendar', url: '/app/calendar', signedIn: true },
    ];
    for (const page of pages) {
      const browser = await launchBrowser();
      try {
        if (page.signedIn) await storeSession(browser.page, stack.shellUrl, account);
        const scripts = recordScripts(browser.page, stack);
        const responses = recordResponses(browser.page);
        await browser.page.goto(`${stack.shellUrl}${page.url}`);
        await browser.page.getByRole('heading', { level: 1 }).first().waitFor();
        await browser.page.waitForLoadState('networkidle');
        const downloads = scripts.since(0);
        const shellOrigin = new URL(stack.shellUrl).origin;
        const received = responses.since(0);
        rows.push({
          page: page.name,
          ...totals(downloads),
          // The shell's own scripts (the login page's are the shell's initial JS) and the application JS of the page.
          shell: totals(downloads.filter((download) => download.origin === shellOrigin)),
          applicationJsKb: totals(landingApplicationJs(downloads, stack.shellUrl)).totalKb,
          allKb: kb(received.reduce((sum, response) => sum + response.gzip, 0)),
          allFiles: received.length,
        });
      } finally {
        await browser.close();
      }
    }
  } finally {
    await stack.stop();
  }
  return rows;
}
