// The page's largest-contentful-paint entries as Chromium reports them (time, size, element), to see which paint
// a page's LCP is and why. Usage: E2E_PORT_OFFSET=800 node e2e/bench/lcp-entries.mjs /auth/login
// A path under /app is opened signed in, as an account with the Lighthouse bench's data (lib-seed.mjs).
import { startStack } from '../support/stack.mjs';
import { launchBrowser } from '../support/browser.mjs';
import { storeSession } from '../support/api-client.mjs';
import { seedUserWithData } from './lib-seed.mjs';

const pagePath = process.argv[2] ?? '/auth/login';
const stack = await startStack();
try {
  const browser = await launchBrowser();
  try {
    const { page } = browser;
    await page.addInitScript(() => {
      window.__lcp = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          const element = entry.element;
          window.__lcp.push({
            time: Math.round(entry.startTime),
            size: entry.size,
            element: element
              ? `${element.tagName} ${element.className} "${element.textContent.slice(0, 40)}"`
              : null,
            rect: element ? JSON.stringify(element.getBoundingClientRect()) : null,
          });
        }
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    });
    await page.setViewportSize({ width: 412, height: 823 });
    if (pagePath.startsWith('/app')) {
      await storeSession(page, stack.shellUrl, await seedUserWithData(stack.apiBaseUrl));
    }
    await page.goto(`${stack.shellUrl}${pagePath}`);
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    console.log(JSON.stringify(await page.evaluate(() => window.__lcp), null, 1));
  } finally {
    await browser.close();
  }
} finally {
  await stack.stop();
}
