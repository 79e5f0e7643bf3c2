import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserSuite } from '../support/suite.mjs';
import { storeSession } from '../support/api-client.mjs';

// The product signs out after 30 minutes; the runtime config shortens that for this test only.
const TEST_TIMEOUT_MS = 2_500;

describe('inactivity logout', () => {
  const suite = browserSuite({ stack: { runtimeConfig: { inactivityTimeoutMs: TEST_TIMEOUT_MS } } });

  it('keeps an active person signed in past the timeout', async () => {
    const account = await suite.api.signUp('active');
    await storeSession(suite.page, suite.stack.shellUrl, account);
    await suite.page.goto(`${suite.stack.shellUrl}/app/wallet`);
    await suite.page.getByRole('heading', { level: 1, name: 'Manage Time Wallet' }).waitFor();
    const until = Date.now() + TEST_TIMEOUT_MS * 2;
    let step = 0;
    while (Date.now() < until) {
      step += 1;
      await suite.page.mouse.move(100 + (step % 50), 200);
      await suite.page.keyboard.press('Shift');
      await suite.page.waitForTimeout(400);
    }
    assert.equal(new URL(suite.page.url()).pathname, '/app/wallet');
    assert.notEqual(await suite.page.evaluate(() => localStorage.getItem('token')), null);
  });

  it('signs an idle person out, revokes the token and shows /', async () => {
    const account = await suite.api.signUp('idle');
    await storeSession(suite.page, suite.stack.shellUrl, account);
    const idleFrom = Date.now();
    await suite.page.goto(`${suite.stack.shellUrl}/app/today`);
    await suite.page.getByRole('heading', { level: 1, name: 'Today Activities' }).waitFor();
    // The warning comes first (a minute before; half the time-out when that is shorter, as here).
    const warning = suite.page.getByRole('alertdialog', { name: 'Still there?' });
    // Read as it appears: the warning lasts only until the sign-out, half the time-out later.
    await warning
      .filter({ hasText: /You will be signed out in \d+ s/ })
      .waitFor({ timeout: TEST_TIMEOUT_MS * 2 });
    assert.equal(new URL(suite.page.url()).pathname, '/app/today', 'still signed in while warned');
    await suite.page
      .getByRole('heading', { level: 1, name: 'Organize everything in your life' })
      .waitFor({ timeout: TEST_TIMEOUT_MS * 4 });
    assert.match(
      await suite.page.getByRole('status').filter({ hasText: 'You were signed out after' }).textContent(),
      /without activity/,
    );
    assert.ok(Date.now() - idleFrom >= TEST_TIMEOUT_MS, 'not before the timeout');
    assert.equal(new URL(suite.page.url()).pathname, '/');
    assert.equal(await suite.page.evaluate(() => localStorage.getItem('token')), null);
    const validation = await fetch(`${suite.stack.apiBaseUrl}/auth/validate`, {
      headers: { Authorization: `Bearer ${account.token}` },
    });
    assert.equal(validation.status, 401, 'the server revoked the token');
  });

  it('keeps the session when the person answers the warning', async () => {
    const account = await suite.api.signUp('warned');
    await storeSession(suite.page, suite.stack.shellUrl, account);
    await suite.page.goto(`${suite.stack.shellUrl}/app/wallet`);
    await suite.page.getByRole('heading', { level: 1, name: 'Manage Time Wallet' }).waitFor();
    const stay = suite.page.getByRole('button', { name: 'Stay signed in' });
    await stay.waitFor({ timeout: TEST_TIMEOUT_MS * 2 });
    // The dialog takes focus in an effect after it is drawn.
    await suite.page.waitForFunction(() => document.activeElement?.textContent === 'Stay signed in');
    await suite.page.keyboard.press('Enter');
    await suite.page.getByRole('alertdialog').waitFor({ state: 'detached' });
    await suite.page.waitForTimeout(TEST_TIMEOUT_MS / 2 - 300);
    assert.equal(new URL(suite.page.url()).pathname, '/app/wallet');
    assert.notEqual(await suite.page.evaluate(() => localStorage.getItem('token')), null);
  });
});
