import { startStack } from './support/stack.mjs';
import { launchBrowser } from './support/browser.mjs';
import { apiClient, storeSession } from './support/api-client.mjs';
const stack = await startStack();
const browser = await launchBrowser({ viewport: { width: Number(process.env.W ?? 1280), height: 900 } });
browser.page.on('console', (m) => console.log('console', m.type(), m.text().slice(0, 400)));
browser.page.on('requestfailed', (r) => console.log('failed', r.url(), r.failure()?.errorText));
try {
  if (process.env.SIGNIN) {
    const account = await apiClient(stack.apiBaseUrl).signUp('debug');
    await storeSession(browser.page, stack.shellUrl, account);
  }
  for (const route of (process.env.ROUTES ?? '/').split(',')) {
    await browser.page.goto(`${stack.shellUrl}${route}`);
    await browser.page.waitForTimeout(Number(process.env.WAIT ?? 2500));
    const file = `/tmp/dbg/${route.replace(/\W+/g, '_') || 'root'}${process.env.SUFFIX ?? ''}.png`;
    await browser.page.screenshot({ path: file, fullPage: true });
    console.log('shot', file, browser.page.url());
  }
  console.log('pageErrors', browser.pageErrors.map(String));
} finally {
  await browser.close();
  await stack.stop();
}
