import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startStack } from '../support/stack.mjs';
import { launchBrowser } from '../support/browser.mjs';
import { apiClient, storeSession } from '../support/api-client.mjs';

// The product signs out after 30 minutes; the runtime config shortens that for this test only.
const TEST_TIMEOUT_MS = 2_500;

describe('inactivity logout', () => {
  let stack;
  let browser;
  let api;

  before(async () => {
    stack = await startStack({ runtimeConfig: { inactivityTimeoutMs: TEST_TIMEOUT_MS } });
    browser = await launchBrowser();
    api = apiClient(stack.apiBaseUrl);
  });
  after(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('keeps an active person signed in past the timeout', async () => {
    const account = await api.signUp('active');
    await storeSession(browser.page, stack.shellUrl, account);
    await browser.page.goto(`${stack.shellUrl}/app/wallet`);
    await browser.page.getByRole('heading', { level: 1, name: 'Manage Time Wallet' }).waitFor();
    const until = Date.now() + TEST_TIMEOUT_MS * 2;
    let step = 0;
    while (Date.now() < until) {
      step += 1;
      await browser.page.mouse.move(100 + (step % 50), 200);
      await browser.page.keyboard.press('Shift');
      await browser.page.waitForTimeout(400);
    }
    assert.equal(new URL(browser.page.url()).pathname, '/app/wallet');
    assert.notEqual(await browser.page.evaluate(() => localStorage.getItem('token')), null);
  });

  it('signs an idle person out, revokes the token and shows /', async () => {
    const account = await api.signUp('idle');
    await storeSession(browser.page, stack.shellUrl, account);
    const idleFrom = Date.now();
    await browser.page.goto(`${stack.shellUrl}/app/today`);
    await browser.page.getByRole('heading', { level: 1, name: 'Today Activities' }).waitFor();
    // The warning comes first (a minute before; half the time-out when that is shorter, as here).
    const warning = browser.page.getByRole('alertdialog', { name: 'Still there?' });
    await warning.waitFor({ timeout: TEST_TIMEOUT_MS * 2 });
    assert.match(await warning.textContent(), /You will be signed out in \d+ s/);
    assert.equal(new URL(browser.page.url()).pathname, '/app/today', 'still signed in while warned');
    await browser.page
      .getByRole('heading', { level: 1, name: 'Organize everything in your life' })
      .waitFor({ timeout: TEST_TIMEOUT_MS * 4 });
    assert.match(
      await browser.page.getByRole('status').filter({ hasText: 'You were signed out after' }).textContent(),
      /without activity/,
    );
    assert.ok(Date.now() - idleFrom >= TEST_TIMEOUT_MS, 'not before the timeout');
    assert.equal(new URL(browser.page.url()).pathname, '/');
    assert.equal(await browser.page.evaluate(() => localStorage.getItem('token')), null);
    const validation = await fetch(`${stack.apiBaseUrl}/auth/validate`, {
      headers: { Authorization: `Bearer ${account.token}` },
    });
    assert.equal(validation.status, 401, 'the server revoked the token');
  });

  it('keeps the session when the person answers the warning', async () => {
    const account = await api.signUp('warned');
    await storeSession(browser.page, stack.shellUrl, account);
    await browser.page.goto(`${stack.shellUrl}/app/wallet`);
    await browser.page.getByRole('heading', { level: 1, name: 'Manage Time Wallet' }).waitFor();
    const stay = browser.page.getByRole('button', { name: 'Stay signed in' });
    await stay.waitFor({ timeout: TEST_TIMEOUT_MS * 2 });
    assert.equal(await stay.evaluate((button) => button === document.activeElement), true, 'focused');
    await browser.page.keyboard.press('Enter');
    await browser.page.getByRole('alertdialog').waitFor({ state: 'detached' });
    await browser.page.waitForTimeout(TEST_TIMEOUT_MS / 2 - 300);
    assert.equal(new URL(browser.page.url()).pathname, '/app/wallet');
    assert.notEqual(await browser.page.evaluate(() => localStorage.getItem('token')), null);
  });
});
