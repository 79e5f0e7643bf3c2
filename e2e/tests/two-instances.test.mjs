import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addTaskThroughForm } from '../support/forms.mjs';
import pg from 'pg';
import { startStack } from '../support/stack.mjs';
import { launchBrowser } from '../support/browser.mjs';

// The browser journey with two API processes on one PostgreSQL database behind a round-robin proxy: consecutive
// requests of the page land on different instances, so the journey only works if neither keeps state of its own.
const databaseUrl = process.env.TEST_DATABASE_URL;
const skip = databaseUrl ? false : 'needs TEST_DATABASE_URL (CI sets it)';

describe('two API instances behind a load balancer', { skip }, () => {
  const schema = `e2e_two_${process.pid}`;
  let stack;
  let browser;

  before(async () => {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.query(`create schema ${schema}`);
    await admin.end();
    // Both instances read the schema from the URL (libpq's options), and share the signing secret.
    const url = new URL(databaseUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    stack = await startStack({
      api: {
        instances: 2,
        env: {
          DATABASE_URL: url.toString(),
          JWT_SECRET: 'e2e-two-instances-shared-secret-0123456789abcdef',
          RATE_LIMIT_STORE: 'database',
        },
      },
    });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await stack?.stop();
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });

  const page = () => browser.page;
  const heading = (name) => page().getByRole('heading', { level: 1, name });
  const nav = (name) =>
    page().getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

  it('registers, plans tasks and events, reads analytics and logs out across both instances', async () => {
    const suffix = Date.now().toString(36).slice(-6);
    const person = { username: `twin${suffix}`, password: 'Balanced#42' };

    await page().goto(`${stack.shellUrl}/auth/register`);
    await heading('Create Account').waitFor();
    for (const [label, value] of Object.entries({
      Username: person.username,
      'Full name': 'Twin Person',
      Email: `twin.${suffix}@example.com`,
      Password: person.password,
    }))
      await page().getByLabel(label, { exact: true }).fill(value);
    await page().getByRole('button', { name: 'Create Account' }).click();
    await page().getByText('Registration successful!').waitFor();

    await heading('Welcome Back').waitFor();
    await page().getByLabel('Username').fill(person.username);
    await page().getByLabel('Password').fill(person.password);
    await page().getByRole('button', { name: 'Sign in' }).click();
    await heading('Manage Time Wallet').waitFor();

    // Two tasks, each saved by whichever instance the proxy picks, both listed by the next read.
    await page().getByRole('navigation', { name: 'Tabs' }).getByRole('link', { name: 'Today' }).click();
    for (const [title, start, end] of [
      ['Write report', '09:00', '11:00'],
      ['Review notes', '13:00', '14:30'],
    ]) {
      await addTaskThroughForm(page(), { title, start, end });
    }

    await nav('Calendar').click();
    await heading('Calendar').waitFor();
    await page().getByRole('button', { name: 'Add Event' }).click();
    const dialog = page().getByRole('dialog', { name: 'New Event' });
    await dialog.getByLabel('Title').fill('Team sync');
    await dialog.getByRole('button', { name: 'Create Event' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page().locator('.fc-event', { hasText: 'Team sync' }).first().waitFor();
    // A reload reads the events again, from either instance.
    await page().reload();
    await page().locator('.fc-event', { hasText: 'Team sync' }).first().waitFor();

    await page().goto(`${stack.shellUrl}/app/analytics`);
    await heading('Time Wallet Analytics').waitFor();
    await page().getByText('See how you progress this week').waitFor();
    // Once its figures are read (the table is drawn from them), no error is shown.
    await page()
      .getByRole('table', { name: 'Planned, tracked and budget hours per day this week' })
      .waitFor();
    assert.equal(await page().getByRole('alert').count(), 0, 'analytics loaded without an error');

    await nav('Logout').click();
    await heading('Logged Out Successfully').waitFor();
    await heading('Organize everything in your life').waitFor();

    const counts = stack.apiRequestCounts();
    console.log(`two instances: ${counts.join(' + ')} API requests through the proxy`);
    assert.equal(counts.length, 2);
    assert.ok(
      counts.every((count) => count >= 5),
      `both instances served the journey: ${counts.join(', ')}`,
    );
  });
});
