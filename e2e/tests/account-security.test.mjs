import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startStack } from '../support/stack.mjs';
import { launchBrowser } from '../support/browser.mjs';
import { apiClient } from '../support/api-client.mjs';
import { seriousViolations } from '../support/accessibility.mjs';

// Two browsers with their own storage stand for two devices of one person.
describe('account security', () => {
  let stack;
  let laptop;
  let phone;
  let api;
  const suffix = Date.now().toString(36).slice(-6);
  const person = { username: `acct${suffix}`, password: 'Secret#123' };

  before(async () => {
    stack = await startStack();
    api = apiClient(stack.apiBaseUrl);
    // Registered without signing in, so the only sessions are the browsers'.
    await api.call('POST', '/auth/register/user', {
      body: {
        username: person.username,
        email: `${person.username}@example.com`,
        password: person.password,
        name: 'Account Tester',
        profilePicture: '',
      },
    });
    laptop = await launchBrowser();
    phone = await launchBrowser();
  });
  after(async () => {
    await laptop?.close();
    await phone?.close();
    await stack?.stop();
  });

  const heading = (device, name) => device.page.getByRole('heading', { level: 1, name });
  const pathOf = (device) => new URL(device.page.url()).pathname;
  const sessionsCard = (device) => device.page.getByRole('region', { name: 'Where you’re signed in' });
  const sessionRows = (device) =>
    sessionsCard(device).getByRole('list', { name: 'Where you’re signed in' }).getByRole('listitem');
  const passwordForm = (device) => device.page.getByRole('region', { name: 'Change password' });

  async function signIn(device, password = person.password) {
    await device.page.goto(`${stack.shellUrl}/auth/login`);
    await heading(device, 'Welcome Back').waitFor();
    await device.page.getByLabel('Username').fill(person.username);
    await device.page.getByLabel('Password').fill(password);
    await device.page.getByRole('button', { name: 'Sign in' }).click();
  }

  // A device signed out from elsewhere returns to the page it was on, so any signed-in page will do.
  const signedInPage = (device) => device.page.getByRole('navigation', { name: 'Tabs' }).waitFor();

  async function openAccount(device) {
    await device.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Account' })
      .click();
    await heading(device, 'Account security').waitFor();
    assert.equal(pathOf(device), '/app/account');
  }

  async function assertAccessible(device, where) {
    for (const colorScheme of ['light', 'dark']) {
      await device.page.emulateMedia({ colorScheme });
      // The shell's colours ease between themes; axe must see where they end.
      await device.page.waitForTimeout(400);
      const violations = await seriousViolations(device.page);
      assert.deepEqual(violations, [], `${where} (${colorScheme}): ${JSON.stringify(violations, null, 2)}`);
    }
    await device.page.emulateMedia({ colorScheme: 'light' });
  }

  /** The device's next visit asks the server who is signed in, and a signed-out device lands on the login screen. */
  async function assertSignedOut(device) {
    await device.page.goto(`${stack.shellUrl}/app/wallet`);
    await heading(device, 'Welcome Back').waitFor();
    assert.equal(pathOf(device), '/auth/login');
  }

  it('lists both devices, this one marked, and signs the other one out', async () => {
    await signIn(laptop);
    await signedInPage(laptop);
    await signIn(phone);
    await signedInPage(phone);

    await openAccount(laptop);
    await sessionRows(laptop).nth(1).waitFor();
    assert.equal(await sessionRows(laptop).count(), 2);
    const thisDevice = sessionRows(laptop).filter({ hasText: 'This device' });
    const otherDevice = sessionRows(laptop).filter({ hasNotText: 'This device' });
    assert.equal(await thisDevice.count(), 1);
    assert.equal(await thisDevice.getByRole('button').count(), 0, 'this device has no Sign out of its own');
    // Headless Chromium on Linux, named as a person would.
    await otherDevice.getByText('Chrome on Linux').waitFor();
    await otherDevice.getByText(/^Last active/).waitFor();
    await assertAccessible(laptop, 'account page');

    await otherDevice.getByRole('button', { name: 'Sign out' }).click();
    await laptop.page.getByText('Chrome on Linux has been signed out.').waitFor();
    await laptop.page.getByText('You are signed in on this device only.').waitFor();
    assert.equal(await sessionRows(laptop).count(), 1);

    await assertSignedOut(phone);
  });

  it('changes the password: a wrong current one is said on its field, then the old one no longer signs in', async () => {
    await signIn(phone);
    await signedInPage(phone);
    await laptop.page.reload();
    await sessionRows(laptop).nth(1).waitFor();

    const form = passwordForm(laptop);
    const newPassword = 'Fresh#Start2';
    await form.getByLabel('Current password').fill('Wrong#pass1');
    await form.getByLabel('New password', { exact: true }).fill(newPassword);
    await form.getByLabel('Confirm new password').fill(newPassword);
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByText('Current password is incorrect').waitFor();
    assert.equal(await form.getByLabel('Current password').getAttribute('aria-invalid'), 'true');
    await assertAccessible(laptop, 'change password with an error');

    await form.getByLabel('Current password').fill(person.password);
    await form.getByRole('button', { name: 'Change password' }).click();
    await laptop.page.getByText('Your password has been changed. Other sessions were signed out.').waitFor();
    for (const label of ['Current password', 'Confirm new password'])
      assert.equal(await form.getByLabel(label).inputValue(), '', `${label} is cleared`);
    await laptop.page.getByText('You are signed in on this device only.').waitFor();

    await assertSignedOut(phone);
    await signIn(phone, person.password);
    await phone.page.getByRole('alert').filter({ hasText: 'Invalid username or password' }).waitFor();
    await signIn(phone, newPassword);
    await signedInPage(phone);
    person.password = newPassword;
  });

  it('reads well on a phone: nothing wider than the screen', async () => {
    await laptop.page.setViewportSize({ width: 375, height: 812 });
    try {
      await laptop.page.reload();
      await sessionRows(laptop).nth(1).waitFor();
      const overflow = await laptop.page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.equal(overflow, 0, 'no horizontal scrolling at 375 px');
      await assertAccessible(laptop, 'account page at 375 px');
    } finally {
      await laptop.page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('signs out everywhere after a confirmation, from the keyboard, this device as Logout does', async () => {
    await laptop.page.reload();
    await sessionRows(laptop).nth(1).waitFor();
    const card = sessionsCard(laptop);

    await card.getByRole('button', { name: 'Sign out everywhere' }).focus();
    await laptop.page.keyboard.press('Enter');
    const dialog = laptop.page.getByRole('dialog', { name: 'Sign out everywhere?' });
    await dialog.waitFor();
    await assertAccessible(laptop, 'sign out everywhere dialog');
    await laptop.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await sessionRows(laptop).count(), 2, 'Escape signs nobody out');

    await card.getByRole('button', { name: 'Sign out everywhere' }).click();
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).focus();
    await laptop.page.keyboard.press('Enter');
    await heading(laptop, 'Logged Out Successfully').waitFor();
    await heading(laptop, 'Organize everything in your life').waitFor();
    assert.equal(pathOf(laptop), '/');
    assert.deepEqual(
      await laptop.page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('USER')]),
      [null, null],
    );

    await assertSignedOut(phone);
    assert.deepEqual(laptop.pageErrors, []);
    assert.deepEqual(phone.pageErrors, []);
  });
});
