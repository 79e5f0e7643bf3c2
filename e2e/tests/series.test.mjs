import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserSuite } from '../support/suite.mjs';
import { addDays, localDateKey, TIME_ZONE } from '../support/days.mjs';

// Issue 17 in the wallet: a daily task made with the New Task form's Repeat is one series whose occurrences each have
// their own state: ticking today's leaves tomorrow's open, and Yesterday lists yesterday's alone, not a pile of every
// unfinished day. Deleting "this and following" ends the series there.
describe('repeating tasks', () => {
  const suite = browserSuite({ account: 'series' });
  const today = localDateKey(new Date());
  const page = () => suite.page;
  const api = (method, url, body) =>
    suite.api.call(method, url, { token: suite.account.token, body, timeZone: TIME_ZONE });
  const showDay = async (day) => {
    await page().goto(`${suite.stack.shellUrl}/app/today${day === today ? '' : `?date=${day}`}`);
    await page().getByRole('form', { name: 'New Task' }).waitFor();
  };
  const doneBox = () => page().getByRole('checkbox', { name: 'Stretch done' });
  const stretchesOf = async (day) =>
    (await api('GET', `/tasks?date=${day}`)).tasks.filter((task) => task.title === 'Stretch');

  it("ticks today's occurrence of a daily task, leaves tomorrow's open, and Yesterday lists only yesterday's", async () => {
    // The series starts three days ago, none of its days done.
    const start = addDays(today, -3);
    await showDay(start);
    const form = page().getByRole('form', { name: 'New Task' });
    await form.getByRole('textbox', { name: 'Title' }).fill('Stretch');
    await form.getByLabel('Start Time').fill('07:00');
    await form.getByLabel('End Time').fill('07:30');
    await form.getByRole('combobox', { name: 'Repeat' }).selectOption({ label: 'Daily' });
    const created = page().waitForResponse(
      (response) => response.request().method() === 'POST' && response.url().endsWith('/tasks'),
    );
    await form.getByRole('button', { name: 'Add Task' }).click();
    const series = await (await created).json();
    assert.deepEqual([series.rrule, series.seriesId], ['FREQ=DAILY', series._id]);
    await doneBox().waitFor();

    await showDay(today);
    const row = page().getByRole('listitem').filter({ has: doneBox() });
    await row.getByRole('img', { name: 'Repeats: Daily' }).waitFor();
    const ticked = page().waitForResponse(
      (response) =>
        response.request().method() === 'PATCH' && response.url().includes('/tasks/') && response.ok(),
    );
    await doneBox().check();
    assert.equal((await (await ticked).json()).done, true);
    assert.equal(await doneBox().isChecked(), true);

    const tomorrow = addDays(today, 1);
    const tomorrowsList = page().waitForResponse(
      (response) => response.url().endsWith(`/tasks?date=${tomorrow}`) && response.ok(),
    );
    await page().getByRole('group', { name: 'Day shown' }).getByRole('button', { name: 'Next day' }).click();
    await page().waitForURL(`**/app/today?date=${tomorrow}`);
    await tomorrowsList;
    // The list shows the day before until the new day's answer is in: wait for the box to show tomorrow's state.
    await page().getByRole('checkbox', { name: 'Stretch done', checked: false }).waitFor();
    assert.equal(await doneBox().count(), 1);

    await page().goto(`${suite.stack.shellUrl}/app/yesterday`);
    const pending = page().getByRole('list', { name: "Yesterday's pending tasks" });
    await pending.getByRole('checkbox', { name: 'Select Stretch' }).waitFor();
    assert.equal(await pending.getByRole('listitem').count(), 1);
    await pending.getByRole('img', { name: 'Repeats: Daily' }).waitFor();

    // The same from the API: one occurrence a day, each with its own state.
    const [yesterdays] = await stretchesOf(addDays(today, -1));
    const [todays] = await stretchesOf(today);
    assert.deepEqual(
      [yesterdays.done, todays.done, yesterdays.seriesId, todays.seriesId],
      [false, true, series._id, series._id],
    );
  });

  it('deletes this and the following occurrences from tomorrow on, keeping today, and Undo brings them back', async () => {
    const tomorrow = addDays(today, 1);
    // A later occurrence with its own state (ticked) is a row of its own on the server: it must go too.
    const [later] = await stretchesOf(addDays(today, 3));
    await api('PATCH', `/tasks/${later._id}`, { done: true });
    await showDay(tomorrow);
    await page().getByRole('button', { name: 'Edit Stretch' }).click();
    const editor = page().getByRole('dialog', { name: 'Edit Task' });
    await editor.getByRole('button', { name: 'Delete' }).click();
    const question = page().getByRole('dialog', { name: 'Delete recurring task' });
    await question.getByRole('radio', { name: 'This and following tasks' }).check();
    await question.getByRole('button', { name: 'Delete' }).click();
    await page().getByText('Task "Stretch" and the following ones deleted').waitFor();
    await page().getByText('No tasks for this day yet.').waitFor();

    for (const days of [1, 3, 5]) assert.equal((await stretchesOf(addDays(today, days))).length, 0);
    const [todays] = await stretchesOf(today);
    assert.equal(todays.done, true, "today's ticked occurrence stays, ticked");

    await page().getByRole('button', { name: 'Undo' }).click();
    await page().getByText('Tasks restored').waitFor();
    await doneBox().waitFor();
    assert.equal((await stretchesOf(addDays(today, 5))).length, 1);
  });

  it("puts yesterday's occurrence of a daily task back into today once, in place of today's own", async () => {
    const series = await api('POST', '/tasks', {
      title: 'Read',
      date: addDays(today, -2),
      startHHMM: '21:00',
      endHHMM: '21:30',
      rrule: 'FREQ=DAILY',
    });
    const readsOf = async (day) =>
      (await api('GET', `/tasks?date=${day}`)).tasks.filter((task) => task.title === 'Read');
    const [yesterdays] = await readsOf(addDays(today, -1));
    await page().goto(`${suite.stack.shellUrl}/app/yesterday`);
    const pending = page().getByRole('list', { name: "Yesterday's pending tasks" });
    await pending.getByRole('checkbox', { name: 'Select Read' }).check();
    const putBack = page().waitForResponse(
      (response) => response.request().method() === 'POST' && response.url().includes('/tasks/put-back'),
    );
    await page().getByRole('button', { name: 'Put Back' }).click();
    assert.equal((await putBack).ok(), true);
    await pending.getByRole('checkbox', { name: 'Select Read' }).waitFor({ state: 'detached' });

    // Today holds it once: the occurrence put back, with yesterday's id, at the same clock time.
    const todays = await readsOf(today);
    assert.deepEqual(
      todays.map((task) => [task._id, task.startHHMM, task.seriesId, task.done]),
      [[yesterdays._id, '21:00', series._id, false]],
    );
    assert.deepEqual(await readsOf(addDays(today, -1)), []);
    // The series goes on: tomorrow has its own.
    assert.equal((await readsOf(addDays(today, 1))).length, 1);
  });
});
