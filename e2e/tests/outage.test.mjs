import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { browserSuite } from '../support/suite.mjs';
import { storeSession } from '../support/api-client.mjs';

const require = createRequire(import.meta.url);
const { remotes } = require('@time-wallet/devkit/apps');

const FALLBACK = 'This part of Time Wallet is not available right now';
const SLOW_REMOTE_DELAY_MS = 4000;

describe('outages: the API or a remote going away in the middle of a session', () => {
  const counts = { formsKept: 0, pagesWhileApiDown: 0, remotesRecovered: new Set(), otherPagesWorking: 0 };
  const suite = browserSuite({
    account: 'outage',
    signIn: false,
    seed: ({ api, account }) =>
      api.call('POST', '/categories', {
        token: account.token,
        body: { name: 'Deep Work', color: '#2F80ED' },
      }),
    teardown: () =>
      console.log(
        `outage: ${counts.formsKept} forms kept their input through an API outage and saved after it, ` +
          `${counts.pagesWhileApiDown} pages visited with the API down, ` +
          `${counts.remotesRecovered.size}/${remotes.length} remotes down/recovered with Retry ` +
          `(${counts.otherPagesWorking} other pages working meanwhile)`,
      ),
  });

  const page = () => suite.page;
  const heading = (name) => page().getByRole('heading', { level: 1, name, exact: true });
  const nav = (name) => page().getByRole('navigation', { name });
  const mainNav = (name) => nav('Main').getByRole('link', { name, exact: true });
  const tab = (name) => nav('Tabs').getByRole('link', { name, exact: true });
  const toast = (text) => page().getByRole('status').filter({ hasText: text });
  const alert = (text) => page().getByRole('alert').filter({ hasText: text });
  const fallback = () =>
    page()
      .getByRole('alert')
      .filter({ has: page().getByRole('heading', { name: FALLBACK }) });
  const markPage = () => page().evaluate(() => (window.__notReloaded = true));
  const assertNotReloaded = async () =>
    assert.equal(await page().evaluate(() => window.__notReloaded), true, 'no full page reload');

  /** The signed-in pages, each reached the way a person would from wherever they are. */
  const PAGES = {
    wallet: { remote: 'mfe_wallet', heading: 'Manage Time Wallet', link: () => mainNav('Wallet') },
    today: { remote: 'mfe_wallet', heading: 'Today Activities', link: () => tab('Today') },
    tags: { remote: 'mfe_tags', heading: 'Your Tags', link: () => tab('Edit Tags') },
    analytics: {
      remote: 'mfe_analytics',
      heading: 'Time Wallet Analytics',
      link: () => mainNav('Analytics'),
    },
    calendar: { remote: 'mfe_calendar', heading: 'Calendar', link: () => mainNav('Calendar') },
  };

  async function open(name) {
    // The calendar has the whole screen: its own link (or its fallback's) leads back to the app.
    if ((await nav('Main').count()) === 0) {
      await page().getByRole('link', { name: 'Back to Wallet' }).click();
      await nav('Main').waitFor();
    }
    if ((name === 'today' || name === 'tags') && (await nav('Tabs').count()) === 0) {
      await mainNav('Wallet').click();
      await nav('Tabs').waitFor();
    }
    await PAGES[name].link().click();
  }

  async function expectFallback() {
    await fallback().getByRole('button', { name: 'Retry' }).waitFor();
  }

  describe('the API', () => {
    it('keeps typed input through an outage, shows errors, and saves once the API is back', async () => {
      try {
        await storeSession(page(), suite.stack.shellUrl, suite.account);
        await page().goto(`${suite.stack.shellUrl}/app/today`);
        await heading('Today Activities').waitFor();
        const form = page().getByRole('form', { name: 'New Task' });
        const fields = {
          title: form.getByRole('textbox', { name: 'Title' }),
          category: form.getByRole('combobox', { name: 'Category' }),
          start: form.getByLabel('Start Time'),
          end: form.getByLabel('End Time'),
        };
        const fillTask = async (title, start, end) => {
          await fields.title.fill(title);
          await fields.category.selectOption({ label: 'Deep Work' });
          await fields.start.fill(start);
          await fields.end.fill(end);
        };
        await fillTask('Saved before', '01:00', '02:00');
        await form.getByRole('button', { name: 'Add Task' }).click();
        await page().getByRole('checkbox', { name: 'Saved before done' }).waitFor();
        // A success toast from the first task must not stand in for the one after the outage.
        await toast('Task added successfully!').waitFor({ state: 'detached', timeout: 15_000 });
        await markPage();

        await suite.stack.stopApi();
        await fillTask('Written offline', '03:00', '04:30');
        await form.getByRole('button', { name: 'Add Task' }).click();
        await toast('An error occurred while adding the task.').waitFor();
        assert.equal(await fields.title.inputValue(), 'Written offline', 'the title is kept');
        assert.equal(await fields.start.inputValue(), '03:00', 'the start is kept');
        assert.equal(await fields.end.inputValue(), '04:30', 'the end is kept');
        assert.equal(
          await fields.category.evaluate((select) => select.selectedOptions[0]?.textContent),
          'Deep Work',
          'the category is kept',
        );
        assert.equal(await page().getByRole('checkbox', { name: 'Written offline done' }).count(), 0);

        await suite.stack.startApi();
        await form.getByRole('button', { name: 'Add Task' }).click();
        await toast('Task added successfully!').waitFor();
        await page().getByRole('checkbox', { name: 'Written offline done' }).waitFor();
        await page().getByRole('checkbox', { name: 'Saved before done' }).waitFor();
        assert.equal(await fields.title.inputValue(), '', 'the form is cleared only after saving');
        counts.formsKept += 1;

        // The calendar's dialog keeps its draft too, with the failure shown inside it.
        await open('calendar');
        await heading('Calendar').waitFor();
        await suite.stack.stopApi();
        await page().getByRole('button', { name: 'Add Event' }).click();
        const dialog = page().getByRole('dialog', { name: 'New Event' });
        await dialog.getByLabel('Title').fill('Planned offline');
        await dialog.getByRole('button', { name: 'Create Event' }).click();
        await dialog.getByRole('alert').filter({ hasText: 'Failed to create event' }).waitFor();
        assert.equal(await dialog.getByLabel('Title').inputValue(), 'Planned offline', 'the title is kept');
        await suite.stack.startApi();
        await dialog.getByRole('button', { name: 'Create Event' }).click();
        await dialog.waitFor({ state: 'detached' });
        await page().getByText('Planned offline').first().waitFor();
        counts.formsKept += 1;

        // Every page, reached through the app's navigation with the API down, shows itself and its error state.
        await suite.stack.stopApi();
        await open('wallet');
        await heading('Manage Time Wallet').waitFor();
        await page().getByRole('button', { name: 'Refresh' }).click();
        await alert('Failed to fetch wallet data').waitFor();
        counts.pagesWhileApiDown += 1;
        await open('today');
        await heading('Today Activities').waitFor();
        await page().getByRole('checkbox', { name: 'Written offline done' }).waitFor();
        counts.pagesWhileApiDown += 1;
        await open('tags');
        await heading('Your Tags').waitFor();
        counts.pagesWhileApiDown += 1;
        await open('analytics');
        await heading('Time Wallet Analytics').waitFor();
        await alert('Error: ').waitFor();
        counts.pagesWhileApiDown += 1;
        await open('calendar');
        await heading('Calendar').waitFor();
        await page().getByRole('button', { name: 'Next week' }).click();
        await alert('Failed to load events').waitFor();
        counts.pagesWhileApiDown += 1;
        assert.equal(await fallback().count(), 0, 'an API outage never looks like a missing remote');
        await assertNotReloaded();
        assert.deepEqual(suite.browser.pageErrors, []);
      } finally {
        // A failure above must not leave the API down for the tests after this one.
        await suite.stack.startApi();
      }

      // Back up: everything saved before and during the session is still there after a reload.
      await page().reload();
      await heading('Calendar').waitFor();
      await page().getByText('Planned offline').first().waitFor();
      await page().goto(`${suite.stack.shellUrl}/app/today`);
      await page().getByRole('checkbox', { name: 'Saved before done' }).waitFor();
      await page().getByRole('checkbox', { name: 'Written offline done' }).waitFor();
      assert.deepEqual(suite.browser.pageErrors, []);
    });
  });

  describe('each remote in turn', () => {
    for (const down of ['mfe_wallet', 'mfe_calendar', 'mfe_analytics', 'mfe_tags']) {
      it(`${down} down: only its pages fall back, the rest works, and Retry brings it back`, async () => {
        const ownPages = Object.keys(PAGES).filter((name) => PAGES[name].remote === down);
        const start = down === 'mfe_wallet' ? 'edit-tags' : 'wallet';
        await suite.stack.stopServer(down);
        try {
          await storeSession(page(), suite.stack.shellUrl, suite.account);
          await page().goto(`${suite.stack.shellUrl}/app/${start}`);
          await heading(start === 'wallet' ? 'Manage Time Wallet' : 'Your Tags').waitFor();
          await markPage();
          const errorsBefore = suite.browser.pageErrors.length;

          for (const name of Object.keys(PAGES)) {
            await open(name);
            if (PAGES[name].remote === down) {
              await expectFallback();
              assert.equal(await heading(PAGES[name].heading).count(), 0);
            } else {
              await heading(PAGES[name].heading).waitFor();
              assert.equal(await fallback().count(), 0, `${name} is not affected`);
              counts.otherPagesWorking += 1;
            }
          }

          await open(ownPages[0]);
          await expectFallback();
          await suite.stack.startServer(down);
          await fallback().getByRole('button', { name: 'Retry' }).click();
          await heading(PAGES[ownPages[0]].heading).waitFor();
          assert.equal(await fallback().count(), 0);
          await assertNotReloaded();
          assert.equal(suite.browser.pageErrors.length, errorsBefore, 'no uncaught error');
          counts.remotesRecovered.add(down);
        } finally {
          await suite.stack.startServer(down);
        }
      });
    }

    it('mfe_auth down: signed in, the app works and Logout falls back; signed out, so does the login page', async () => {
      await suite.stack.stopServer('mfe_auth');
      try {
        await storeSession(page(), suite.stack.shellUrl, suite.account);
        await page().goto(`${suite.stack.shellUrl}/app/wallet`);
        await heading('Manage Time Wallet').waitFor();
        await markPage();
        const errorsBefore = suite.browser.pageErrors.length;
        for (const name of ['today', 'tags', 'analytics', 'calendar', 'wallet']) {
          await open(name);
          await heading(PAGES[name].heading).waitFor();
          counts.otherPagesWorking += 1;
        }
        await mainNav('Logout').click();
        await expectFallback();
        await page().getByRole('link', { name: 'Back to Wallet' }).click();
        await heading('Manage Time Wallet').waitFor();
        counts.otherPagesWorking += 1;

        // A guest: the landing page is the shell's own (static HTML, so its link opens the app), the login page is
        // the auth remote's.
        await page().evaluate(() => localStorage.clear());
        await page().goto(suite.stack.shellUrl);
        await heading('Organize everything in your life').waitFor();
        await page().getByRole('link', { name: 'Get Started' }).click();
        await expectFallback();
        await markPage();
        await page().getByRole('link', { name: 'Back to home' }).click();
        await heading('Organize everything in your life').waitFor();
        await page().getByRole('link', { name: 'Get Started' }).click();
        await expectFallback();

        await suite.stack.startServer('mfe_auth');
        await fallback().getByRole('button', { name: 'Retry' }).click();
        await heading('Welcome Back').waitFor();
        await assertNotReloaded();
        assert.equal(suite.browser.pageErrors.length, errorsBefore, 'no uncaught error');
        counts.remotesRecovered.add('mfe_auth');
      } finally {
        await suite.stack.startServer('mfe_auth');
      }
    });
  });

  it(`shows the page skeleton, not a blank page, while a slow remote answers (${SLOW_REMOTE_DELAY_MS} ms a request)`, async () => {
    await storeSession(page(), suite.stack.shellUrl, suite.account);
    await page().goto(`${suite.stack.shellUrl}/app/wallet`);
    await heading('Manage Time Wallet').waitFor();
    suite.stack.setServerDelay('mfe_tags', SLOW_REMOTE_DELAY_MS);
    try {
      const skeleton = page().locator('[aria-busy="true"][aria-label="Loading page"]');
      const started = Date.now();
      await tab('Edit Tags').click();
      await skeleton.waitFor({ timeout: 1000 });
      await page().waitForTimeout(SLOW_REMOTE_DELAY_MS / 2);
      assert.equal(await skeleton.isVisible(), true, 'still loading, the skeleton stays');
      assert.equal(await nav('Main').isVisible(), true, 'the navigation stays');
      await heading('Your Tags').waitFor({ timeout: 30_000 });
      const waited = Date.now() - started;
      assert.ok(waited >= SLOW_REMOTE_DELAY_MS, `the remote was slow (${waited} ms)`);
      assert.equal(await skeleton.count(), 0, 'the skeleton gives way to the page');
      console.log(`outage: slow remote (${SLOW_REMOTE_DELAY_MS} ms a request) shown after ${waited} ms`);
    } finally {
      suite.stack.setServerDelay('mfe_tags', 0);
    }
  });
});
