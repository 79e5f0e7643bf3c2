// Screenshots of every screen at phone and desktop widths, in light and dark, for a human to look at.
//   npm run screenshots -w e2e                      (starts a throw-away stack from the production builds)
//   npm run screenshots -w e2e -- --base-url http://localhost:3000 --api http://localhost:4000/api
//   options: --out DIR (default .e2e-tmp/screenshots), --routes /app/wallet,/app/today
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startStack } from '../support/stack.mjs';
import { launchBrowser } from '../support/browser.mjs';
import { apiClient, storeSession } from '../support/api-client.mjs';

const { values: options } = parseArgs({
  options: {
    'base-url': { type: 'string' },
    api: { type: 'string' },
    out: { type: 'string', default: path.resolve(import.meta.dirname, '../../.e2e-tmp/screenshots') },
    routes: { type: 'string' },
  },
});

const GUEST_ROUTES = ['/', '/auth/login', '/auth/register', '/auth/forgot-password'];
const SIGNED_IN_ROUTES = [
  '/app/wallet',
  '/app/today',
  '/app/yesterday',
  '/app/edit-tags',
  '/app/analytics',
  '/app/calendar',
  '/app/account',
  '/app/about',
];
const VIEWPORTS = { desktop: { width: 1280, height: 900 }, phone: { width: 375, height: 812 } };

const stack = options['base-url'] ? null : await startStack();
const shellUrl = options['base-url'] ?? stack.shellUrl;
const apiBaseUrl = options.api ?? stack?.apiBaseUrl ?? 'http://localhost:4000/api';
const routes = options.routes?.split(',') ?? [...GUEST_ROUTES, ...SIGNED_IN_ROUTES];
fs.mkdirSync(options.out, { recursive: true });

try {
  const account = await apiClient(apiBaseUrl).signUp('shots');
  for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
    for (const colorScheme of ['light', 'dark']) {
      const browser = await launchBrowser({ viewport, colorScheme });
      try {
        for (const route of routes) {
          if (route.startsWith('/app/')) await storeSession(browser.page, shellUrl, account);
          await browser.page.goto(`${shellUrl}${route}`);
          await browser.page.getByRole('heading', { level: 1 }).first().waitFor();
          await browser.page.waitForLoadState('networkidle');
          const name = `${route.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'landing'}-${viewportName}-${colorScheme}.png`;
          await browser.page.screenshot({ path: path.join(options.out, name), fullPage: true });
          console.log(path.join(options.out, name));
        }
        if (browser.pageErrors.length > 0) console.error('page errors:', browser.pageErrors.map(String));
      } finally {
        await browser.close();
      }
    }
  }
} finally {
  await stack?.stop();
}
