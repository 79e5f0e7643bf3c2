import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startStack } from '../support/stack.mjs';
import { launchBrowser } from '../support/browser.mjs';
import { apiClient, storeSession } from '../support/api-client.mjs';

describe('routes and guards', () => {
  let stack;
  let browser;
  let api;
  let account;

  before(async () => {
    stack = await startStack();
    browser = await launchBrowser();
    api = apiClient(stack.apiBaseUrl);
    account = await api.signUp('guardtest');
  });
  after(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const path = () => new URL(browser.page.url()).pathname;
  const heading = (name) => browser.page.getByRole('heading', { level: 1, name });

  async function signOutOfBrowser() {
    await browser.page.goto(`${stack.shellUrl}/robots.txt`);
    await browser.page.evaluate(() => localStorage.clear());
  }

  it('shows the landing page on / and /landing', async () => {
    for (const route of ['/', '/landing']) {
      await browser.page.goto(`${stack.shellUrl}${route}`);
      await heading('Organize everything in your life').waitFor();
      await browser.page.getByText('450k people have joined').waitFor();
      await browser.page.getByRole('heading', { name: 'Groceries Shopping' }).waitFor();
      await browser.page.getByRole('heading', { name: 'Finish AI & ML Report' }).waitFor();
      await browser.page.getByText('Priority', { exact: true }).waitFor();
      assert.equal(
        await browser.page.getByRole('link', { name: 'Get Started' }).getAttribute('href'),
        '/auth/login',
      );
    }
  });

  it('sends any unknown path to /', async () => {
    for (const route of ['/nowhere', '/app-nope/deep/path', '/auth/unknown-screen']) {
      await browser.page.goto(`${stack.shellUrl}${route}`);
      await heading('Organize everything in your life').waitFor();
      assert.equal(path(), '/', `${route} should land on /`);
    }
  });

  it('sends a guest from /app and every protected page to the login screen', async () => {
    await signOutOfBrowser();
    for (const route of [
      '/app',
      '/app/wallet',
      '/app/calendar',
      '/app/analytics',
      '/app/edit-tags',
      '/app/account',
      '/app/logout',
    ]) {
      await browser.page.goto(`${stack.shellUrl}${route}`);
      await heading('Welcome Back').waitFor();
      assert.equal(path(), '/auth/login', `${route} should redirect a guest to login`);
    }
  });

  it('returns a guest to the page they asked for after signing in', async () => {
    await signOutOfBrowser();
    await browser.page.goto(`${stack.shellUrl}/app/yesterday`);
    await heading('Welcome Back').waitFor();
    await browser.page.getByLabel('Username').fill(account.username);
    await browser.page.getByLabel('Password').fill(account.password);
    await browser.page.getByRole('button', { name: 'Sign in' }).click();
    await heading('Pick Up Where You Left Off').waitFor();
    assert.equal(path(), '/app/yesterday');
    await browser.page.getByText('Login successful!').waitFor();
  });

  it('redirects /app to /app/wallet and keeps signed-in people away from guest screens', async () => {
    await storeSession(browser.page, stack.shellUrl, account);
    await browser.page.goto(`${stack.shellUrl}/app`);
    await heading('Manage Time Wallet').waitFor();
    assert.equal(path(), '/app/wallet');
    for (const route of ['/auth/login', '/auth/register']) {
      await browser.page.goto(`${stack.shellUrl}${route}`);
      await heading('Manage Time Wallet').waitFor();
      assert.equal(path(), '/app/wallet', `${route} should send a signed-in person to the wallet`);
    }
  });

  it('shows a spinner while the session check runs', async () => {
    await storeSession(browser.page, stack.shellUrl, account);
    let releaseCheck;
    const held = new Promise((resolve) => (releaseCheck = resolve));
    await browser.page.route('**/api/auth/validate', async (route) => {
      await held;
      await route.continue();
    });
    await browser.page.goto(`${stack.shellUrl}/app/today`);
    await browser.page.getByRole('status').filter({ hasText: 'Checking your session' }).waitFor();
    assert.equal(await heading('Today Activities').count(), 0, 'no page content before the check ends');
    releaseCheck();
    await heading('Today Activities').waitFor();
    await browser.page.unroute('**/api/auth/validate');
  });

  it('signs out on a 401 from the start-up check', async () => {
    const revoked = await api.signUp('revoked');
    await api.call('POST', '/auth/logout', { token: revoked.token });
    await storeSession(browser.page, stack.shellUrl, revoked);
    await browser.page.goto(`${stack.shellUrl}/app/wallet`);
    await heading('Welcome Back').waitFor();
    assert.equal(await browser.page.evaluate(() => localStorage.getItem('token')), null);
  });

  it('keeps a signed-in person in when the server cannot be reached at start-up', async () => {
    await storeSession(browser.page, stack.shellUrl, account);
    await browser.page.route('**/api/auth/validate', (route) => route.abort('connectionrefused'));
    await browser.page.goto(`${stack.shellUrl}/app/today`);
    await heading('Today Activities').waitFor();
    assert.equal(path(), '/app/today');
    await browser.page.unroute('**/api/auth/validate');
  });

  it('highlights the active link, Wallet also on its sub-pages, and shows the Tabs block', async () => {
    await storeSession(browser.page, stack.shellUrl, account);
    const mainNav = browser.page.getByRole('navigation', { name: 'Main' });
    const tabs = browser.page.getByRole('navigation', { name: 'Tabs' });
    for (const [route, tab] of [
      ['/app/wallet', 'Wallet'],
      ['/app/today', 'Today'],
      ['/app/yesterday', 'Yesterday'],
      ['/app/edit-tags', 'Edit Tags'],
    ]) {
      await browser.page.goto(`${stack.shellUrl}${route}`);
      await tabs.waitFor();
      assert.equal(
        await mainNav.getByRole('link', { name: 'Wallet', exact: true }).getAttribute('aria-current'),
        'page',
        route,
      );
      assert.equal(
        await mainNav.getByRole('link', { name: 'Calendar' }).getAttribute('aria-current'),
        null,
        route,
      );
      assert.equal(
        await tabs.getByRole('link', { name: tab, exact: true }).getAttribute('aria-current'),
        'page',
        route,
      );
    }
    await browser.page.goto(`${stack.shellUrl}/app/analytics`);
    await heading('Time Wallet Analytics').waitFor();
    assert.equal(await mainNav.getByRole('link', { name: 'Analytics' }).getAttribute('aria-current'), 'page');
    assert.equal(
      await mainNav.getByRole('link', { name: 'Wallet', exact: true }).getAttribute('aria-current'),
      null,
    );
    assert.equal(await tabs.count(), 0, 'no Tabs block on analytics');
    for (const name of ['Light', 'Dark', 'System']) await mainNav.getByRole('radio', { name }).waitFor();
    await mainNav.getByRole('link', { name: 'Logout' }).waitFor();
  });

  it('renders the calendar without the shared layout', async () => {
    await storeSession(browser.page, stack.shellUrl, account);
    await browser.page.goto(`${stack.shellUrl}/app/calendar`);
    await browser.page.getByRole('heading', { level: 1 }).first().waitFor();
    assert.equal(await browser.page.getByRole('navigation', { name: 'Main' }).count(), 0);
  });

  it('logs out through /app/logout, clears local data and lands on /', async () => {
    await storeSession(browser.page, stack.shellUrl, account);
    await browser.page.goto(`${stack.shellUrl}/app/wallet`);
    await heading('Manage Time Wallet').waitFor();
    await browser.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Logout' })
      .click();
    await heading('Logged Out Successfully').waitFor();
    await browser.page.getByText('You have been securely logged out. Redirecting to login page...').waitFor();
    await heading('Organize everything in your life').waitFor();
    assert.equal(path(), '/');
    const stored = await browser.page.evaluate(() => [
      localStorage.getItem('token'),
      localStorage.getItem('USER'),
    ]);
    assert.deepEqual(stored, [null, null]);
    const validation = await fetch(`${stack.apiBaseUrl}/auth/validate`, {
      headers: { Authorization: `Bearer ${account.token}` },
    });
    assert.equal(validation.status, 401, 'the server revoked the token');
  });
});
