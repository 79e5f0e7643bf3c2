import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startStack } from '../support/stack.mjs';
import { launchBrowser } from '../support/browser.mjs';
import { apiClient, storeSession } from '../support/api-client.mjs';
import { seriousViolations } from '../support/accessibility.mjs';

const GUEST_PAGES = [
  ['/', 'Organize everything in your life'],
  ['/auth/login', 'Welcome Back'],
  ['/auth/register', 'Create Account'],
  ['/auth/forgot-password', 'Forgot password'],
  ['/auth/reset-password?token=example', 'Reset password'],
];
const SIGNED_IN_PAGES = [
  ['/app/wallet', 'Manage Time Wallet'],
  ['/app/today', 'Today Activities'],
  ['/app/yesterday', 'Pick Up Where You Left Off'],
  ['/app/edit-tags', 'Your Tags'],
  ['/app/account', 'Account security'],
  ['/app/about', 'About Time Wallet'],
  ['/app/analytics', 'Time Wallet Analytics'],
  ['/app/calendar', null],
];

for (const colorScheme of ['light', 'dark']) {
  describe(`accessibility (axe-core, ${colorScheme} system theme)`, () => {
    let stack;
    let browser;

    before(async () => {
      stack = await startStack();
      browser = await launchBrowser({ colorScheme });
    });
    after(async () => {
      await browser?.close();
      await stack?.stop();
    });

    async function check(route, headingName) {
      await browser.page.goto(`${stack.shellUrl}${route}`);
      const heading = headingName
        ? browser.page.getByRole('heading', { level: 1, name: headingName })
        : browser.page.getByRole('heading', { level: 1 }).first();
      await heading.waitFor();
      await browser.page.waitForLoadState('networkidle');
      const violations = await seriousViolations(browser.page);
      assert.deepEqual(violations, [], `${route}: ${JSON.stringify(violations, null, 2)}`);
    }

    for (const [route, headingName] of GUEST_PAGES) {
      it(`${route} has no serious or critical violations`, () => check(route, headingName));
    }

    it('every signed-in page has no serious or critical violations', async () => {
      const api = apiClient(stack.apiBaseUrl);
      const account = await api.signUp('axe');
      // Real content on every page: a tagged task with notes, and a timed and an all-day event this week.
      const tag = await api.call('POST', '/categories', { token: account.token, body: { name: 'Work' } });
      const start = new Date();
      start.setHours(10, 0, 0, 0);
      await api.call('POST', '/tasks', {
        token: account.token,
        body: {
          title: 'Write report',
          categoryId: tag._id,
          startHHMM: '09:00',
          endHHMM: '10:00',
          notes: 'Q3',
        },
      });
      await api.call('POST', '/events', {
        token: account.token,
        body: {
          title: 'Standup',
          start: start.toISOString(),
          end: new Date(+start + 3_600_000).toISOString(),
        },
      });
      await api.call('POST', '/events', {
        token: account.token,
        body: {
          title: 'Holiday',
          start: start.toISOString(),
          end: new Date(+start + 86_400_000).toISOString(),
          allDay: true,
        },
      });
      // Over budget, so the wallet's 'Over budget by' line is checked for contrast too.
      await api.call('PATCH', '/users/me', { token: account.token, body: { budgetHours: 0.5 } });
      await storeSession(browser.page, stack.shellUrl, account);
      for (const [route, headingName] of SIGNED_IN_PAGES) await check(route, headingName);
    });
  });
}
