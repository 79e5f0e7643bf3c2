import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { browserSuite } from '../support/suite.mjs';
import { seriousViolations } from '../support/accessibility.mjs';

async function resetLinkFor(outboxDir, email, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = fs.existsSync(outboxDir)
      ? fs.readdirSync(outboxDir).filter((file) => file.endsWith('.eml'))
      : [];
    for (const file of files) {
      const mail = fs.readFileSync(path.join(outboxDir, file), 'utf8');
      const link = mail.match(/https?:\/\/\S+\/auth\/reset-password\?token=[\w-]+/)?.[0];
      if (mail.includes(`To: ${email}`) && link) return link;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no reset mail for ${email} in ${outboxDir}`);
}

describe('auth journeys', () => {
  const suite = browserSuite();
  const suffix = Date.now().toString(36).slice(-6);
  const person = {
    username: `journey${suffix}`,
    name: 'Ada Lovelace',
    email: `ada.${suffix}@example.com`,
    password: 'Analytic#1843',
  };

  const page = () => suite.page;
  const heading = (name) => page().getByRole('heading', { level: 1, name });
  const path_ = () => new URL(page().url()).pathname;

  async function fillRegistration(fields) {
    for (const [label, value] of Object.entries(fields))
      await page().getByLabel(label, { exact: true }).fill(value);
    await page().getByRole('button', { name: 'Create Account' }).click();
  }

  async function signIn(username, password) {
    await page().getByLabel('Username').fill(username);
    await page().getByLabel('Password').fill(password);
    await page().getByRole('button', { name: 'Sign in' }).click();
  }

  it('registers, signs in, reaches the wallet and logs out to /', async () => {
    await page().goto(`${suite.stack.shellUrl}/`);
    await page().getByRole('link', { name: 'Get Started' }).click();
    await heading('Welcome Back').waitFor();
    await page().getByRole('link', { name: 'Sign up' }).click();
    await heading('Create Account').waitFor();
    await fillRegistration({
      Username: person.username,
      'Full name': person.name,
      Email: person.email,
      Password: person.password,
    });
    await page().getByText('Registration successful!').waitFor();
    await heading('Welcome Back').waitFor();
    assert.equal(path_(), '/auth/login');

    await signIn(person.username, person.password);
    await page().getByText('Login successful!').waitFor();
    await heading('Manage Time Wallet').waitFor();
    assert.equal(path_(), '/app/wallet');

    await page().getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Logout' }).click();
    await heading('Logged Out Successfully').waitFor();
    await page().getByText('You have been securely logged out. Redirecting to login page...').waitFor();
    assert.deepEqual(await seriousViolations(page()), [], 'the logout screen passes axe-core');
    await heading('Organize everything in your life').waitFor();
    assert.equal(path_(), '/');
  });

  it('signs in with the e-mail address in the username field', async () => {
    await page().goto(`${suite.stack.shellUrl}/auth/login`);
    await signIn(person.email, person.password);
    await heading('Manage Time Wallet').waitFor();
    await page().evaluate(() => localStorage.clear());
  });

  it('shows the server message for a wrong password and keeps the typed username', async () => {
    await page().goto(`${suite.stack.shellUrl}/auth/login`);
    await signIn(person.username, 'Wrong#pass1');
    await page().getByRole('alert').filter({ hasText: 'Invalid username or password' }).waitFor();
    assert.equal(await page().getByLabel('Username').inputValue(), person.username);
    assert.equal(path_(), '/auth/login');
    await page().getByLabel('Password').fill('x');
    assert.equal(await page().getByRole('alert').count(), 0, 'editing a field clears the error');
  });

  it('maps a taken username and a taken e-mail to their fields', async () => {
    await page().goto(`${suite.stack.shellUrl}/auth/register`);
    await fillRegistration({
      Username: person.username,
      'Full name': 'Someone Else',
      Email: `other.${suffix}@example.com`,
      Password: person.password,
    });
    await page().getByText('This username is already taken. Please choose a different one.').waitFor();
    await page().getByText('Username is already taken', { exact: true }).waitFor();

    await fillRegistration({
      Username: `other${suffix}`,
      'Full name': 'Someone Else',
      Email: person.email,
      Password: person.password,
    });
    await page().getByText('This email is already registered. Try logging in instead.').waitFor();
    await page().getByText('Email is already registered', { exact: true }).waitFor();
  });

  it('checks every registration field before sending anything', async () => {
    const registrations = [];
    page().on(
      'request',
      (request) => request.url().includes('/api/auth/register') && registrations.push(request),
    );
    await page().goto(`${suite.stack.shellUrl}/auth/register`);
    await fillRegistration({ Username: 'ab', 'Full name': 'Ada', Email: 'ada@x', Password: 'password' });
    await page().getByText('Username must be at least 8 characters').first().waitFor();
    await page().getByText('Invalid email format').waitFor();
    await page().getByText('Password must contain at least one uppercase letter').waitFor();
    await page().getByText('Name must be at least 5 characters').waitFor();
    assert.equal(registrations.length, 0);
  });

  it('resets a forgotten password through the mailed link: the new one works, the old one does not', async () => {
    await page().goto(`${suite.stack.shellUrl}/auth/login`);
    await page().getByRole('link', { name: 'Forgot password' }).click();
    await heading('Forgot password').waitFor();
    await page().getByLabel('Email').fill(person.email);
    await page().getByRole('button', { name: 'Send reset link' }).click();
    await page().getByText(`If an account exists for ${person.email}`).waitFor();

    const link = await resetLinkFor(path.join(suite.stack.workDir, 'data', 'outbox'), person.email);
    assert.ok(link.startsWith(`${suite.stack.shellUrl}/auth/reset-password?token=`), link);
    await page().goto(link);
    await heading('Reset password').waitFor();
    const newPassword = 'Fresh#Start2';
    await page().getByLabel('New password', { exact: true }).fill('weak');
    await page().getByLabel('Confirm new password').fill('weak');
    await page().getByRole('button', { name: 'Set new password' }).click();
    await page().getByText('Password must be at least 8 characters').waitFor();
    await page().getByLabel('New password', { exact: true }).fill(newPassword);
    await page().getByLabel('Confirm new password').fill(newPassword);
    await page().getByRole('button', { name: 'Set new password' }).click();
    await page().getByText('Your password has been changed. You can sign in with it now.').waitFor();

    await page().goto(link);
    await page().getByLabel('New password', { exact: true }).fill('Another#Pass3');
    await page().getByLabel('Confirm new password').fill('Another#Pass3');
    await page().getByRole('button', { name: 'Set new password' }).click();
    await page().getByRole('alert').waitFor();

    await page().goto(`${suite.stack.shellUrl}/auth/login`);
    await signIn(person.username, person.password);
    await page().getByRole('alert').filter({ hasText: 'Invalid username or password' }).waitFor();
    await signIn(person.username, newPassword);
    await heading('Manage Time Wallet').waitFor();
    const viaApi = await suite.api.call('POST', '/auth/login', {
      body: { username: person.username, password: newPassword },
    });
    assert.ok(viaApi.token);
  });
});
