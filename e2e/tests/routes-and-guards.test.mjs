import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserSuite } from '../support/suite.mjs';
import { storeSession } from '../support/api-client.mjs';

describe('routes and guards', () => {
  const suite = browserSuite({ account: 'guardtest', signIn: false });

  const path = () => new URL(suite.page.url()).pathname;
  const heading = (name) => suite.page.getByRole('heading', { level: 1, name });

  async function signOutOfBrowser() {
    await suite.page.goto(`${suite.stack.shellUrl}/robots.txt`);
    await suite.page.evaluate(() => localStorage.clear());
  }

  it('shows the landing page on / and /landing', async () => {
    for (const route of ['/', '/landing']) {
      await suite.page.goto(`${suite.stack.shellUrl}${route}`);
      await heading('Organize everything in your life').waitFor();
      await suite.page.getByText('450k people have joined').waitFor();
      await suite.page.getByRole('heading', { name: 'Groceries Shopping' }).waitFor();
      await suite.page.getByRole('heading', { name: 'Finish AI & ML Report' }).waitFor();
      await suite.page.getByText('Priority', { exact: true }).waitFor();
      assert.equal(
        await suite.page.getByRole('link', { name: 'Get Started' }).getAttribute('href'),
        '/auth/login',
      );
    }
  });

  it('sends any unknown path to /', async () => {
    for (const route of ['/nowhere', '/app-nope/deep/path', '/auth/unknown-screen']) {
      await suite.page.goto(`${suite.stack.shellUrl}${route}`);
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
      await suite.page.goto(`${suite.stack.shellUrl}${route}`);
      await heading('Welcome Back').waitFor();
      assert.equal(path(), '/auth/login', `${route} should redirect a guest to login`);
    }
  });

  it('returns a guest to the page they asked for after signing in', async () => {
    await signOutOfBrowser();
    await suite.page.goto(`${suite.stack.shellUrl}/app/yesterday`);
    await heading('Welcome Back').waitFor();
    await suite.page.getByLabel('Username').fill(suite.account.username);
    await suite.page.getByLabel('Password').fill(suite.account.password);
    await suite.page.getByRole('button', { name: 'Sign in' }).click();
    await heading('Pick Up Where You Left Off').waitFor();
    assert.equal(path(), '/app/yesterday');
    await suite.page.getByText('Login successful!').waitFor();
  });

  it('redirects /app to /app/wallet and keeps signed-in people away from guest screens', async () => {
    await storeSession(suite.page, suite.stack.shellUrl, suite.account);
    await suite.page.goto(`${suite.stack.shellUrl}/app`);
    await heading('Manage Time Wallet').waitFor();
    assert.equal(path(), '/app/wallet');
    for (const route of ['/auth/login', '/auth/register']) {
      await suite.page.goto(`${suite.stack.shellUrl}${route}`);
      await heading('Manage Time Wallet').waitFor();
      assert.equal(path(), '/app/wallet', `${route} should send a signed-in person to the wallet`);
    }
  });

  it('shows a spinner while the session check runs', async () => {
    await storeSession(suite.page, suite.stack.shellUrl, suite.account);
    let releaseCheck;
    const held = new Promise((resolve) => (releaseCheck = resolve));
    await suite.page.route('**/api/auth/validate', async (route) => {
      await held;
      await route.continue();
    });
    await suite.page.goto(`${suite.stack.shellUrl}/app/today`);
    await suite.page.getByRole('status').filter({ hasText: 'Checking your session' }).waitFor();
    assert.equal(await heading('Today Activities').count(), 0, 'no page content before the check ends');
    releaseCheck();
    await heading('Today Activities').waitFor();
    await suite.page.unroute('**/api/auth/validate');
  });

  it('signs out on a 401 from the start-up check', async () => {
    const revoked = await suite.api.signUp('revoked');
    await suite.api.call('POST', '/auth/logout', { token: revoked.token });
    await storeSession(suite.page, suite.stack.shellUrl, revoked);
    await suite.page.goto(`${suite.stack.shellUrl}/app/wallet`);
    await heading('Welcome Back').waitFor();
    assert.equal(await suite.page.evaluate(() => localStorage.getItem('token')), null);
  });

  it('keeps a signed-in person in when the server cannot be reached at start-up', async () => {
    await storeSession(suite.page, suite.stack.shellUrl, suite.account);
    await suite.page.route('**/api/auth/validate', (route) => route.abort('connectionrefused'));
    await suite.page.goto(`${suite.stack.shellUrl}/app/today`);
    await heading('Today Activities').waitFor();
    assert.equal(path(), '/app/today');
    await suite.page.unroute('**/api/auth/validate');
  });

  it('highlights the active link, Wallet also on its sub-pages, and shows the Tabs block', async () => {
    await storeSession(suite.page, suite.stack.shellUrl, suite.account);
    const mainNav = suite.page.getByRole('navigation', { name: 'Main' });
    const tabs = suite.page.getByRole('navigation', { name: 'Tabs' });
    for (const [route, tab] of [
      ['/app/wallet', 'Wallet'],
      ['/app/today', 'Today'],
      ['/app/yesterday', 'Yesterday'],
      ['/app/edit-tags', 'Edit Tags'],
    ]) {
      await suite.page.goto(`${suite.stack.shellUrl}${route}`);
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
    await suite.page.goto(`${suite.stack.shellUrl}/app/analytics`);
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
    await storeSession(suite.page, suite.stack.shellUrl, suite.account);
    await suite.page.goto(`${suite.stack.shellUrl}/app/calendar`);
    await suite.page.getByRole('heading', { level: 1 }).first().waitFor();
    assert.equal(await suite.page.getByRole('navigation', { name: 'Main' }).count(), 0);
  });

  it('logs out through /app/logout, clears local data and lands on /', async () => {
    await storeSession(suite.page, suite.stack.shellUrl, suite.account);
    await suite.page.goto(`${suite.stack.shellUrl}/app/wallet`);
    await heading('Manage Time Wallet').waitFor();
    await suite.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Logout' }).click();
    await heading('Logged Out Successfully').waitFor();
    await suite.page.getByText('You have been securely logged out. Redirecting to login page...').waitFor();
    await heading('Organize everything in your life').waitFor();
    assert.equal(path(), '/');
    const stored = await suite.page.evaluate(() => [
      localStorage.getItem('token'),
      localStorage.getItem('USER'),
    ]);
    assert.deepEqual(stored, [null, null]);
    const validation = await fetch(`${suite.stack.apiBaseUrl}/auth/validate`, {
      headers: { Authorization: `Bearer ${suite.account.token}` },
    });
    assert.equal(validation.status, 401, 'the server revoked the token');
  });
});
