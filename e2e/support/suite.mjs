import { after, before } from 'node:test';
import { apiClient, storeSession } from './api-client.mjs';
import { launchBrowser } from './browser.mjs';
import { startStack } from './stack.mjs';

/**
 * The set-up the browser suites share: production builds on their own origins with a real API (startStack), one
 * Chromium profile, an API client and, given `account`, a fresh account signed up through the API, signed in on the
 * page unless `signIn` is false. `seed(suite)` runs between sign-up and sign-in; `teardown(suite)` before closing.
 * Registers the calling describe's before/after hooks and returns the suite, whose fields are set once `before` ran.
 */
export function browserSuite({
  account,
  signIn = true,
  stack: stackOptions,
  browser: browserOptions,
  seed,
  teardown,
} = {}) {
  const suite = {};
  before(async () => {
    suite.stack = await startStack(stackOptions);
    suite.browser = await launchBrowser(browserOptions);
    suite.page = suite.browser.page;
    suite.api = apiClient(suite.stack.apiBaseUrl);
    if (!account) return;
    suite.account = await suite.api.signUp(account);
    await seed?.(suite);
    if (signIn) await storeSession(suite.page, suite.stack.shellUrl, suite.account);
  });
  after(async () => {
    await teardown?.(suite);
    await suite.browser?.close();
    await suite.stack?.stop();
  });
  return suite;
}
