import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserSuite } from '../support/suite.mjs';
import { storeSession } from '../support/api-client.mjs';
import { launchBrowser } from '../support/browser.mjs';
import { seriousViolations } from '../support/accessibility.mjs';

// A phone (375 x 812) has the tab bar at the bottom and the page at the top; a laptop keeps the side navigation.
describe('phone layout', () => {
  const suite = browserSuite({
    account: 'phone',
    browser: { viewport: { width: 375, height: 812 }, hasTouch: true },
  });
  const page = () => suite.page;
  const tabBar = () => page().getByRole('navigation', { name: 'Tab bar' });
  const sideNav = () => page().getByRole('navigation', { name: 'Main' });
  const heading = (name) => page().getByRole('heading', { level: 1, name });
  const pathname = () => new URL(page().url()).pathname;
  const boxOf = (locator) => locator.boundingBox();
  const toasterBottom = () =>
    page().evaluate(() =>
      Math.round(document.querySelector('[data-rht-toaster]').getBoundingClientRect().bottom),
    );

  async function assertAccessible(where) {
    for (const colorScheme of ['light', 'dark']) {
      await page().emulateMedia({ colorScheme });
      // The shell's colours ease between themes; axe must see where they end.
      await page().waitForTimeout(400);
      const violations = await seriousViolations(page());
      assert.deepEqual(violations, [], `${where} (${colorScheme}): ${JSON.stringify(violations, null, 2)}`);
    }
    await page().emulateMedia({ colorScheme: 'light' });
  }

  it('shows Wallet, Today, Calendar, Analytics and More at the bottom, the page right under the top', async () => {
    await page().goto(`${suite.stack.shellUrl}/app/account`);
    await heading('Account security').waitFor();

    assert.equal(await sideNav().count(), 0, 'the side navigation is hidden');
    const links = tabBar().getByRole('link');
    assert.deepEqual(await links.allInnerTexts(), ['Wallet', 'Today', 'Calendar', 'Analytics']);
    await tabBar().getByRole('button', { name: 'More' }).waitFor();

    const bar = await boxOf(tabBar());
    assert.equal(Math.round(bar.y + bar.height), 812, 'the bar sits on the bottom edge');
    for (const target of [...(await links.all()), tabBar().getByRole('button', { name: 'More' })]) {
      const box = await boxOf(target);
      assert.ok(box.width >= 44 && box.height >= 44, `a 44 px touch target: ${JSON.stringify(box)}`);
    }

    const main = await boxOf(page().locator('#main-content'));
    assert.ok(main.y <= 70, `the page starts ${main.y} px from the top`);
    const overflow = await page().evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.equal(overflow, 0, 'no horizontal scrolling at 375 px');

    // Toasts rise from the bottom on a phone: above the bar, not over it.
    assert.equal(await toasterBottom(), bar.y - 16, 'toasts sit 1rem above the bar');

    // Scrolled to its end, the page's last line stays above the bar.
    await page().evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const lastBottom = await page().evaluate(() => {
      const main = document.querySelector('#main-content');
      return main.getBoundingClientRect().bottom;
    });
    assert.ok(lastBottom <= bar.y, `the page ends at ${lastBottom}, the bar starts at ${bar.y}`);
    await assertAccessible('account page with the tab bar');
  });

  it('draws the bar and the page from the first HTML where the app then draws them: nothing jumps', async () => {
    // A fresh profile: once the service worker runs, it would serve the scripts this test holds back.
    const phone = await launchBrowser({ viewport: { width: 375, height: 812 } });
    try {
      await storeSession(phone.page, suite.stack.shellUrl, suite.account);
      const boxes = () =>
        phone.page.evaluate(() =>
          ['nav[aria-label="Tab bar"]', 'nav[aria-label="Tabs"]', 'h1'].map((selector) => {
            const { x, y, width, height } = document.querySelector(selector).getBoundingClientRect();
            return `${selector} at ${Math.round(x)},${Math.round(y)}, ${Math.round(width)} x ${Math.round(height)}`;
          }),
        );
      // The first HTML alone, with its inline theme script: no script file.
      await phone.page.route('**/*.js', (route) => route.abort());
      await phone.page.goto(`${suite.stack.shellUrl}/app/today`);
      const first = await boxes();
      assert.equal(
        await phone.page.locator('#root > [inert]').count(),
        1,
        'the prerendered frame, not the app',
      );
      await phone.page.unrouteAll();
      await phone.page.goto(`${suite.stack.shellUrl}/app/today`);
      await phone.page.locator('h1#today-page-title').waitFor();
      assert.equal(await phone.page.locator('#root > [inert]').count(), 0, 'the app');
      assert.deepEqual(await boxes(), first);
    } finally {
      await phone.close();
    }
  });

  it('goes from tab to tab, marking the current one, the wallet tabs one row over the page', async () => {
    await page().goto(`${suite.stack.shellUrl}/app/wallet`);
    await heading('Manage Time Wallet').waitFor();

    await tabBar().getByRole('link', { name: 'Today' }).click();
    await heading('Today Activities').waitFor();
    assert.equal(pathname(), '/app/today');
    assert.equal(await tabBar().getByRole('link', { name: 'Today' }).getAttribute('aria-current'), 'page');
    assert.equal(await tabBar().getByRole('link', { name: 'Wallet' }).getAttribute('aria-current'), null);
    const main = await boxOf(page().locator('#main-content'));
    assert.ok(main.y <= 70, `under the wallet's tabs the page starts ${main.y} px from the top`);

    await tabBar().getByRole('link', { name: 'Analytics' }).click();
    await heading('Time Wallet Analytics').waitFor();
    assert.equal(
      await tabBar().getByRole('link', { name: 'Analytics' }).getAttribute('aria-current'),
      'page',
    );

    // The calendar is a page of its own (SPEC: no shared layout), with its way back to the wallet.
    await tabBar().getByRole('link', { name: 'Calendar' }).click();
    await page().getByRole('heading', { level: 1, name: 'Calendar' }).waitFor();
    assert.equal(pathname(), '/app/calendar');
    assert.equal(await toasterBottom(), 812 - 16, 'without a bar, toasts keep to the bottom edge');

    await page().goto(`${suite.stack.shellUrl}/app/yesterday`);
    await heading('Pick Up Where You Left Off').waitFor();
    assert.equal(await tabBar().getByRole('link', { name: 'Wallet' }).getAttribute('aria-current'), 'page');

    // From the keyboard too.
    await tabBar().getByRole('link', { name: 'Today' }).focus();
    await page().keyboard.press('Enter');
    await heading('Today Activities').waitFor();
  });

  it('reaches the theme, Account, About and Logout through More, from the keyboard', async () => {
    await page().goto(`${suite.stack.shellUrl}/app/today`);
    await heading('Today Activities').waitFor();
    const more = tabBar().getByRole('button', { name: 'More' });
    const menu = page().getByRole('dialog', { name: 'More' });

    await more.focus();
    await page().keyboard.press('Enter');
    await menu.waitFor();
    assert.equal(await more.getAttribute('aria-expanded'), 'true');
    assert.deepEqual(await menu.getByRole('link').allInnerTexts(), ['Account', 'About', 'Logout']);
    await assertAccessible('the More menu');
    await page().keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    assert.equal(await more.evaluate((element) => element === document.activeElement), true, 'focus is back');

    await more.click();
    // The radio itself is see-through under its label, which takes the tap.
    await menu.getByText('Dark', { exact: true }).click();
    assert.equal(await menu.getByRole('radio', { name: 'Dark' }).isChecked(), true);
    await page().waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    assert.equal(await page().evaluate(() => localStorage.getItem('theme')), 'dark');
    await menu.getByText('Light', { exact: true }).click();
    await page().waitForFunction(() => document.documentElement.dataset.theme === 'light');

    await menu.getByRole('link', { name: 'Account' }).click();
    await heading('Account security').waitFor();
    assert.equal(await menu.count(), 0, 'the menu closes');

    await more.click();
    await menu.getByRole('link', { name: 'About' }).click();
    await page().getByRole('heading', { level: 1, name: 'About' }).waitFor();

    await more.click();
    await menu.getByRole('link', { name: 'Logout' }).click();
    await page().getByText('Logged Out Successfully').waitFor();
    assert.deepEqual(suite.browser.pageErrors, []);
  });

  it('keeps the side navigation on a laptop, and no tab bar', async () => {
    await page().setViewportSize({ width: 1280, height: 900 });
    try {
      // The test before signed out.
      await storeSession(page(), suite.stack.shellUrl, await suite.api.signUp('laptop'));
      await page().goto(`${suite.stack.shellUrl}/app/wallet`);
      await heading('Manage Time Wallet').waitFor();

      assert.equal(await tabBar().count(), 0, 'no tab bar');
      const nav = await boxOf(sideNav());
      assert.deepEqual([nav.x, nav.y, nav.width, nav.height], [0, 0, 240, 900]);
      assert.deepEqual(await sideNav().getByRole('link').allInnerTexts(), [
        'Time Wallet',
        'Wallet',
        'Calendar',
        'Analytics',
        'Account',
        'Logout',
        'About',
      ]);
      await sideNav().getByRole('group', { name: 'Theme' }).waitFor();
      await sideNav().getByRole('link', { name: 'Analytics' }).click();
      await heading('Time Wallet Analytics').waitFor();
    } finally {
      await page().setViewportSize({ width: 375, height: 812 });
    }
  });
});
