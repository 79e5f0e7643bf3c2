import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserSuite } from '../support/suite.mjs';
import { addTaskThroughForm } from '../support/forms.mjs';
import { storeSession } from '../support/api-client.mjs';
import { seriousViolations } from '../support/accessibility.mjs';

const NEUTRAL = "You're managing your time well!";
const HAPPY = "You're working hard! Remember to take a break!";
const ANGRY = "You're overworking! Remember to rest well!";

describe('wallet remote: Wallet, Today and Yesterday against the real API', () => {
  const suite = browserSuite();

  const page = () => suite.page;
  const heading = (name) => page().getByRole('heading', { level: 1, name });
  const tab = (name) =>
    page().getByRole('navigation', { name: 'Tabs' }).getByRole('link', { name, exact: true });
  const card = (title) =>
    page()
      .locator('div', { has: page().getByRole('heading', { level: 3, name: title, exact: true }) })
      .last();
  const localDay = (offsetDays = 0) =>
    page().evaluate((offset) => {
      const day = new Date();
      day.setDate(day.getDate() + offset);
      const pad = (value) => String(value).padStart(2, '0');
      return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
    }, offsetDays);

  async function expectWallet(spent, remaining, message) {
    await card('Spent Hours').getByText(`${spent} hours`, { exact: true }).waitFor();
    await card('Remaining').getByText(`${remaining} hours`, { exact: true }).waitFor();
    await page().getByRole('region', { name: 'Reminders' }).getByText(message, { exact: true }).waitFor();
  }

  async function assertAccessible(where) {
    await page().waitForLoadState('networkidle');
    const violations = await seriousViolations(page());
    assert.deepEqual(violations, [], `${where}: ${JSON.stringify(violations, null, 2)}`);
  }

  const addTask = (title, start, end) =>
    addTaskThroughForm(page(), { title, start, end, category: 'Deep Work' });

  it('spends the wallet with the tasks of today, moves the mascot at 5 and 8 hours, edits, toggles and deletes', async () => {
    const account = await suite.api.signUp('wallet');
    await suite.api.call('POST', '/categories', {
      token: account.token,
      body: { name: 'Deep Work', color: '#2F80ED' },
    });
    await storeSession(page(), suite.stack.shellUrl, account);
    await page().goto(`${suite.stack.shellUrl}/app/wallet`);
    await heading('Manage Time Wallet').waitFor();
    await card('Budget Hours').getByText('15 hours', { exact: true }).waitFor();
    await expectWallet(0, 15, NEUTRAL);
    assert.equal(await page().getByRole('img', { name: 'Mascot looking calm' }).count(), 1);

    // Every move below is a client-side navigation: the wallet follows the tasks without a page reload.
    await tab('Today').click();
    await heading('Today Activities').waitFor();
    await addTask('Write report', '01:00', '04:00');
    const row = page().getByRole('checkbox', { name: 'Write report done' }).locator('xpath=ancestor::li[1]');
    assert.match(await row.innerText(), /Deep Work[\s\S]*01:00 – 04:00/);
    const newTask = page().getByRole('form', { name: 'New Task' });
    assert.equal(
      await newTask
        .getByRole('textbox', { name: 'Title' })
        .evaluate((field) => field === document.activeElement),
      true,
      'focus is back on Title, ready for the next task',
    );

    // Refused on the fields before anything is sent: a blank title, and no time between start and end.
    await newTask.getByRole('textbox', { name: 'Title' }).fill('   ');
    await newTask.getByLabel('Start Time').fill('12:00');
    await newTask.getByLabel('End Time').fill('12:00');
    await page().getByRole('button', { name: 'Add Task' }).click();
    await page().getByText('End time must be after start time.').waitFor();
    await newTask.getByText('Title is required').waitFor();
    await newTask.getByRole('textbox', { name: 'Title' }).fill('');

    await tab('Wallet').click();
    await expectWallet(3, 12, NEUTRAL);

    await tab('Today').click();
    await addTask('Gym', '04:00', '06:00');
    await tab('Wallet').click();
    await expectWallet(5, 10, HAPPY);
    await page().getByRole('img', { name: 'Mascot looking cheerful' }).waitFor();

    await tab('Today').click();
    await addTask('Meetings', '06:00', '09:00');
    await tab('Wallet').click();
    await expectWallet(8, 7, ANGRY);
    await page().getByRole('img', { name: 'Mascot looking upset' }).waitFor();

    await tab('Today').click();
    await page().getByText('Meetings', { exact: true }).dblclick();
    const dialog = page().getByRole('dialog', { name: 'Edit Task' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Short meetings');
    await dialog.getByLabel('End Time').fill('08:00');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page().getByRole('checkbox', { name: 'Short meetings done' }).waitFor();
    await assertAccessible('/app/today with tasks');

    await page().getByRole('checkbox', { name: 'Write report done' }).check();
    await page().waitForLoadState('networkidle');
    assert.equal(await page().getByRole('checkbox', { name: 'Write report done' }).isChecked(), true);

    await page().getByRole('button', { name: 'Edit Gym' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page().getByRole('checkbox', { name: 'Gym done' }).waitFor({ state: 'detached' });
    // Undo brings it back whole; then it goes for good.
    await page().getByRole('button', { name: 'Undo' }).click();
    await page().getByRole('checkbox', { name: 'Gym done' }).waitFor();
    await page().getByRole('button', { name: 'Edit Gym' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page().getByRole('checkbox', { name: 'Gym done' }).waitFor({ state: 'detached' });

    await tab('Wallet').click();
    await expectWallet(5, 10, HAPPY);

    await page().reload();
    await heading('Today Activities').or(heading('Manage Time Wallet')).waitFor();
    await page().goto(`${suite.stack.shellUrl}/app/today`);
    assert.equal(await page().getByRole('checkbox', { name: 'Write report done' }).isChecked(), true);
    assert.equal(await page().getByRole('checkbox', { name: 'Gym done' }).count(), 0);
    assert.deepEqual(suite.browser.pageErrors, []);
  });

  it("brings yesterday's unfinished tasks back at the same clock times and dismisses the rest", async () => {
    const account = await suite.api.signUp('yester');
    const category = await suite.api.call('POST', '/categories', {
      token: account.token,
      body: { name: 'Errands', color: '#D97706' },
    });
    await storeSession(page(), suite.stack.shellUrl, account);
    const yesterday = await localDay(-1);
    const newTask = (title, startHHMM, endHHMM, done = false) =>
      suite.api.call('POST', '/tasks', {
        token: account.token,
        body: { title, categoryId: category._id, startHHMM, endHHMM, notes: '', date: yesterday, done },
      });
    await newTask('Post letters', '09:15', '10:00');
    await newTask('Buy paint', '14:30', '15:45');
    await newTask('Already done', '16:00', '17:00', true);
    await newTask('Cancel gym', '18:00', '18:30');

    await page().goto(`${suite.stack.shellUrl}/app/yesterday`);
    await heading('Pick Up Where You Left Off').waitFor();
    const pending = page().getByRole('list', { name: "Yesterday's pending tasks" });
    await pending.getByText('Post letters').waitFor();
    assert.equal(await pending.getByRole('listitem').count(), 3);
    assert.match(await pending.getByRole('listitem').first().innerText(), /Errands[\s\S]*9:15 AM – 10:00 AM/);
    assert.match(await pending.getByRole('listitem').nth(1).innerText(), /2:30 PM – 3:45 PM/);
    await assertAccessible('/app/yesterday with pending tasks');

    await page().getByRole('checkbox', { name: 'Select Post letters' }).check();
    await page().getByRole('checkbox', { name: 'Select Buy paint' }).check();
    await page().getByRole('button', { name: 'Put Back' }).click();
    await pending.getByText('Post letters').waitFor({ state: 'detached' });
    assert.equal(await pending.getByRole('listitem').count(), 1);

    await tab('Today').click();
    await heading('Today Activities').waitFor();
    const putBack = page()
      .getByRole('checkbox', { name: 'Post letters done' })
      .locator('xpath=ancestor::li[1]');
    assert.match(await putBack.innerText(), /09:15 – 10:00/);
    assert.equal(await page().getByRole('checkbox', { name: 'Post letters done' }).isChecked(), false);
    const today = await localDay(0);
    const { tasks } = await suite.api.call('GET', `/tasks?date=${today}`, { token: account.token });
    assert.deepEqual(
      tasks.map(({ title, startHHMM, endHHMM, done }) => ({ title, startHHMM, endHHMM, done })),
      [
        { title: 'Post letters', startHHMM: '09:15', endHHMM: '10:00', done: false },
        { title: 'Buy paint', startHHMM: '14:30', endHHMM: '15:45', done: false },
      ],
    );

    await tab('Yesterday').click();
    await page().getByRole('checkbox', { name: 'Select Cancel gym' }).check();
    await page().getByRole('button', { name: 'Delete' }).click();
    await page().getByText('No pending tasks. Well done.').waitFor();
    await page().getByRole('img', { name: 'Mascot looking sleepy' }).waitFor();
    // Delete dismisses: SPEC's done, and dismissed, so the task counts in no figure.
    const dropped = (
      await suite.api.call('GET', `/tasks?date=${yesterday}`, { token: account.token })
    ).tasks.find((task) => task.title === 'Cancel gym');
    assert.deepEqual({ done: dropped.done, dismissed: dropped.dismissed }, { done: true, dismissed: true });
    await assertAccessible('/app/yesterday empty');
    assert.deepEqual(suite.browser.pageErrors, []);
  });

  it("shows today's events after the mascot, as a carousel above three cards, and keeps a per-user budget", async () => {
    const account = await suite.api.signUp('carousel');
    await storeSession(page(), suite.stack.shellUrl, account);
    const today = await localDay(0);
    for (const [title, start, end] of [
      ['Standup', '09:00', '09:15'],
      ['Lunch with Sam', '12:30', '13:30'],
      ['Dentist', '17:00', '17:45'],
    ]) {
      const at = (hhmm) =>
        page().evaluate(([day, time]) => new Date(`${day}T${time}`).toISOString(), [today, hhmm]);
      await suite.api.call('POST', '/events', {
        token: account.token,
        body: { title, start: await at(start), end: await at(end), allDay: false },
      });
    }

    await page().goto(`${suite.stack.shellUrl}/app/wallet`);
    const carousel = page().getByRole('region', { name: 'Reminder cards' });
    await carousel.getByText('Dentist').waitFor();
    assert.equal(await carousel.getByRole('listitem').count(), 4);
    assert.match(
      await carousel.getByRole('listitem').nth(1).innerText(),
      /calendar[\s\S]*Standup[\s\S]*Due At: 09:15/i,
    );
    assert.match(await carousel.getByRole('listitem').nth(3).innerText(), /Due At: 17:45/);
    await expectWallet(2, 13, NEUTRAL);
    await assertAccessible('/app/wallet with a carousel');

    const track = carousel.getByRole('list', { name: 'Reminder cards' });
    await page().setViewportSize({ width: 375, height: 812 });
    await page().getByRole('button', { name: 'Next reminder' }).click();
    await page().waitForFunction(
      () => document.querySelector('[aria-roledescription="carousel"] ul').scrollLeft > 0,
    );
    await track.focus();
    const before = await track.evaluate((element) => element.scrollLeft);
    await page().keyboard.press('ArrowRight');
    await page().waitForFunction(
      (start) => document.querySelector('[aria-roledescription="carousel"] ul').scrollLeft > start,
      before,
    );
    await page().setViewportSize({ width: 1280, height: 900 });

    await page().getByRole('button', { name: 'Edit budget' }).click();
    const budget = page().getByRole('spinbutton', { name: 'Daily budget (hours)' });
    await budget.fill('-2');
    await page().getByRole('button', { name: 'Save' }).click();
    await page().getByText('Enter a number of hours from 0 to 24.').waitFor();
    await budget.fill('6');
    await page().getByRole('button', { name: 'Save' }).click();
    await card('Budget Hours').getByText('6 hours', { exact: true }).waitFor();
    await expectWallet(2, 4, NEUTRAL);

    await page().reload();
    await card('Budget Hours').getByText('6 hours', { exact: true }).waitFor();
    const stored = await page().evaluate(() => JSON.parse(localStorage.getItem('wallet-store')));
    assert.equal(stored.budgetHours, 6);
    assert.equal(stored.spentHours, 2);
    const { user } = await suite.api.call('GET', '/users/me', { token: account.token });
    assert.equal(user.budgetHours, 6);
    assert.deepEqual(suite.browser.pageErrors, []);
  });

  it('shows a dismissible banner when the wallet cannot be fetched', async () => {
    const account = await suite.api.signUp('offline');
    await storeSession(page(), suite.stack.shellUrl, account);
    await page().route(`${suite.stack.apiBaseUrl}/tasks/today`, (route) => route.abort());
    try {
      await page().goto(`${suite.stack.shellUrl}/app/wallet`);
      const banner = page().getByRole('alert').filter({ hasText: 'Failed to fetch wallet data' });
      await banner.waitFor();
      await banner.getByRole('button', { name: 'Dismiss' }).click();
      await banner.waitFor({ state: 'detached' });
    } finally {
      await page().unroute(`${suite.stack.apiBaseUrl}/tasks/today`);
    }
    await page().getByRole('button', { name: 'Refresh' }).click();
    await card('Spent Hours').getByText('0 hours', { exact: true }).waitFor();
  });
});
