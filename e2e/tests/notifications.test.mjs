import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { describe, it } from 'node:test';
import { browserSuite } from '../support/suite.mjs';
import { seriousViolations } from '../support/accessibility.mjs';

/** A browser's subscription keys as PushSubscription.toJSON() gives them: a P-256 public key and a 16-byte secret. */
function subscriptionKeys() {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    p256dh: ecdh.getPublicKey().toString('base64url'),
    auth: crypto.randomBytes(16).toString('base64url'),
  };
}

describe('notifications on the account page', () => {
  const suite = browserSuite({
    account: 'notify',
    // A device added through the API below has its push service on this machine.
    stack: { api: { env: { SUBSCRIPTIONS_ALLOW_PRIVATE_HOSTS: 'true' } } },
  });
  const page = () => suite.page;
  const section = () => page().getByRole('region', { name: 'Notifications' });
  const call = (method, url, body) => suite.api.call(method, url, { token: suite.account.token, body });

  async function openAccount() {
    await page().goto(`${suite.stack.shellUrl}/app/account`);
    await page().getByRole('heading', { level: 1, name: 'Account security' }).waitFor();
    await section().getByRole('combobox', { name: 'Event reminders' }).waitFor();
  }

  async function assertAccessible(where) {
    for (const colorScheme of ['light', 'dark']) {
      await page().emulateMedia({ colorScheme });
      await page().waitForTimeout(400);
      const violations = await seriousViolations(page());
      assert.deepEqual(violations, [], `${where} (${colorScheme}): ${JSON.stringify(violations, null, 2)}`);
    }
    await page().emulateMedia({ colorScheme: 'light' });
  }

  it('shows the defaults and this browser not asked yet, without asking', async () => {
    await openAccount();

    assert.equal(await section().getByRole('combobox', { name: 'Event reminders' }).inputValue(), '10');
    assert.equal(await section().getByRole('switch', { name: 'When a task starts' }).isChecked(), true);
    assert.equal(await section().getByRole('switch', { name: 'Plan-your-day nudge' }).isChecked(), false);
    await section().getByText('Not asked yet').waitFor();
    await section().getByRole('button', { name: 'Turn on notifications' }).waitFor();
    await section().getByText('No device gets your reminders yet.').waitFor();
    assert.equal(await page().evaluate(() => Notification.permission), 'default');
    await assertAccessible('the Notifications section');
  });

  it('saves a setting and reads it back after a reload', async () => {
    await openAccount();
    const saved = (body) =>
      page().waitForResponse(
        (response) =>
          response.url().endsWith('/users/me/notifications') &&
          response.request().method() === 'PATCH' &&
          response.request().postData() === JSON.stringify(body),
      );

    let answer = saved({ eventReminderMinutes: 30 });
    await section().getByRole('combobox', { name: 'Event reminders' }).selectOption('30');
    assert.equal((await answer).status(), 200);
    answer = saved({ taskStart: false });
    await section().getByRole('switch', { name: 'When a task starts' }).click();
    assert.equal((await answer).status(), 200);
    answer = saved({ planDayAt: '08:00' });
    await section().getByRole('switch', { name: 'Plan-your-day nudge' }).click();
    assert.equal((await answer).status(), 200);

    await page().reload();
    await section().getByRole('combobox', { name: 'Event reminders' }).waitFor();
    assert.equal(await section().getByRole('combobox', { name: 'Event reminders' }).inputValue(), '30');
    assert.equal(await section().getByRole('switch', { name: 'When a task starts' }).isChecked(), false);
    assert.equal(await section().getByLabel('Nudge at').inputValue(), '08:00');
    assert.deepEqual(await call('GET', '/users/me/notifications'), {
      eventReminderMinutes: 30,
      taskStart: false,
      timerAlerts: true,
      planDayAt: '08:00',
    });
  });

  it('lists a device, sends it a test notification and removes it', async () => {
    await call('POST', '/push/subscriptions', {
      subscription: {
        endpoint: 'https://127.0.0.1:9/push/tablet',
        expirationTime: null,
        keys: subscriptionKeys(),
      },
      device: 'Firefox on Android',
    });
    await openAccount();
    const devices = section().getByRole('list', { name: 'Devices that get reminders' });
    await devices.getByText('Firefox on Android').waitFor();

    await section().getByRole('button', { name: 'Send a test notification' }).click();
    await section().getByRole('status').filter({ hasText: 'Sent to 1 device.' }).waitFor();

    await devices
      .getByRole('listitem')
      .filter({ hasText: 'Firefox on Android' })
      .getByRole('button', { name: 'Remove' })
      .click();
    await section().getByText('No device gets your reminders yet.').waitFor();
    assert.deepEqual(await call('GET', '/push/subscriptions'), { subscriptions: [] });

    await section().getByRole('button', { name: 'Send a test notification' }).click();
    // The server's own words for a person with no device (409).
    await section().getByRole('status').filter({ hasText: 'There is no device to send to' }).waitFor();
  });

  it('reads well at 375 px', async () => {
    await page().setViewportSize({ width: 375, height: 812 });
    try {
      await openAccount();
      const overflow = await page().evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.equal(overflow, 0, 'no horizontal scrolling at 375 px');
      await assertAccessible('the Notifications section at 375 px');
    } finally {
      await page().setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('subscribes this browser once notifications are allowed, and lists it as this device', async (t) => {
    await suite.browser.context.grantPermissions(['notifications'], { origin: suite.stack.shellUrl });
    await openAccount();
    await section().getByText('Allowed').waitFor();
    await section().getByRole('button', { name: 'Get reminders on this device' }).click();
    // Chromium's push service is Firebase Cloud Messaging: where it cannot be reached (a closed network), the page
    // must say so rather than wait for ever, and add nothing.
    const settled = (locator, outcome) =>
      locator.waitFor({ timeout: 35_000 }).then(
        () => outcome,
        () => null,
      );
    const outcome = await Promise.race([
      settled(section().getByText('This device gets your reminders.'), 'subscribed'),
      settled(section().getByRole('alert'), 'unreachable'),
    ]);
    assert.ok(outcome, 'the page says how it ended');
    if (outcome === 'unreachable') {
      t.diagnostic('Chromium could not reach its push service: the subscription itself was not exercised');
      assert.match(await section().getByRole('alert').innerText(), /push service did not answer/);
      assert.deepEqual(await call('GET', '/push/subscriptions'), { subscriptions: [] });
      return;
    }
    await section().getByRole('listitem').filter({ hasText: 'This device' }).waitFor();
    const { subscriptions } = await call('GET', '/push/subscriptions');
    assert.equal(subscriptions.length, 1);
    assert.equal(await page().evaluate(() => localStorage.getItem('push-device-id')), subscriptions[0].id);
  });
});
