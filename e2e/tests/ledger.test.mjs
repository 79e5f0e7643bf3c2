import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserSuite } from '../support/suite.mjs';
import { addTaskThroughForm } from '../support/forms.mjs';
import { addDays, localDateKey, TIME_ZONE, weekdayOf } from '../support/days.mjs';

// Issue 16's journey: plan tomorrow with estimates, timebox one task by dragging it onto the grid (the day's remaining
// hours follow the drag) and one with the keyboard, run a timer, and find the same figures in the wallet and analytics.
describe('one time ledger', () => {
  const suite = browserSuite({ account: 'ledger' });
  const today = localDateKey(new Date());
  const tomorrow = addDays(today, 1);
  const page = () => suite.page;
  const api = (method, url, body) =>
    suite.api.call(method, url, { token: suite.account.token, body, timeZone: TIME_ZONE });
  const dayHeader = (day) => page().locator(`th.fc-col-header-cell[data-date="${day}"]`);
  const column = (day) => page().locator(`td.fc-timegrid-col[data-date="${day}"]`);
  const placed = () =>
    page().waitForResponse(
      (response) =>
        response.request().method() === 'PATCH' && response.url().includes('/tasks/') && response.ok(),
    );

  async function addUnscheduledTask(title, estimate) {
    const form = page().getByRole('form', { name: 'New Task' });
    await form.getByRole('textbox', { name: 'Title' }).fill(title);
    await form.getByLabel('Estimate (minutes)').fill(String(estimate));
    await form.getByRole('button', { name: 'Add Task' }).click();
    await page().getByRole('list', { name: 'Unscheduled tasks' }).getByText(title, { exact: true }).waitFor();
  }

  it('plans tomorrow: one task dragged onto the grid, remaining hours live, one scheduled from the keyboard', async () => {
    await page().goto(`${suite.stack.shellUrl}/app/today`);
    await page().getByRole('group', { name: 'Day shown' }).getByRole('button', { name: 'Next day' }).click();
    await page().waitForURL(`**/app/today?date=${tomorrow}`);
    await addUnscheduledTask('Deep work', 90);
    await addUnscheduledTask('Read report', 45);
    const figures = page().getByRole('region', { name: 'Time Budget' });
    await figures.getByText('2.3 h').waitFor(); // 135 minutes of estimates, none planned yet

    await page().goto(`${suite.stack.shellUrl}/app/calendar`);
    await page().locator('td.fc-timegrid-col[data-date]').first().waitFor();
    if (weekdayOf(tomorrow) === 0) await page().getByRole('button', { name: 'Next week' }).click();
    await dayHeader(tomorrow).getByText('15 h left').waitFor();
    const panel = page().getByRole('region', { name: 'Unscheduled' });

    // Drag "Deep work" onto tomorrow at 09:00: while the pointer is still down, the header already counts it.
    const handle = await panel.getByText('Deep work', { exact: true }).boundingBox();
    const columnBox = await column(tomorrow).boundingBox();
    const slot = await page().locator('td.fc-timegrid-slot-lane[data-time="09:00:00"]').boundingBox();
    const target = { x: columnBox.x + columnBox.width / 2, y: slot.y + 2 };
    await page().mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page().mouse.down();
    await page().mouse.move(handle.x + handle.width / 2 + 6, handle.y + handle.height / 2 + 6, { steps: 3 });
    await page().mouse.move(target.x, target.y, { steps: 12 });
    await dayHeader(tomorrow).getByText('13.5 h left').waitFor();
    const dropped = placed();
    await page().mouse.up();
    const droppedTask = await (await dropped).json();
    assert.deepEqual(
      [droppedTask.scheduled, droppedTask.date, droppedTask.startHHMM, droppedTask.endHHMM],
      [true, tomorrow, '09:00', '10:30'],
    );
    await column(tomorrow).locator('.fc-timegrid-event', { hasText: 'Deep work' }).waitFor();
    await dayHeader(tomorrow).getByText('13.5 h left').waitFor();

    // The dropped task left the list as its block appeared. "Read report" without dragging: Schedule…, a day and a
    // start time, Enter.
    await panel.getByText('Deep work', { exact: true }).waitFor({ state: 'detached' });
    const schedule = panel.getByRole('button', { name: 'Schedule…' });
    assert.equal(await schedule.count(), 1);
    await schedule.focus();
    await page().keyboard.press('Enter');
    const dialog = page().getByRole('dialog', { name: 'Schedule Task' });
    await dialog.getByLabel('Day').fill(tomorrow);
    await dialog.getByLabel('Start time').fill('14:00');
    const scheduled = placed();
    await page().keyboard.press('Enter');
    const scheduledTask = await (await scheduled).json();
    assert.deepEqual([scheduledTask.startHHMM, scheduledTask.endHHMM], ['14:00', '14:45']);
    await column(tomorrow).locator('.fc-timegrid-event', { hasText: 'Read report' }).waitFor();
    // 15 - 2.25 planned hours.
    await dayHeader(tomorrow).getByText('12.8 h left').waitFor();
    assert.equal(await panel.getByText('Deep work', { exact: true }).count(), 0);
    assert.equal(await panel.getByText('Read report', { exact: true }).count(), 0);

    const [ledger] = (await api('GET', `/ledger?from=${tomorrow}&to=${addDays(tomorrow, 1)}`)).days;
    assert.deepEqual([ledger.plannedMinutes, ledger.unscheduledMinutes], [135, 0]);
  });

  it('runs and stops a timer, and the wallet and analytics show the ledger’s figures', async () => {
    await page().goto(`${suite.stack.shellUrl}/app/today`);
    await page().getByRole('form', { name: 'New Task' }).waitFor();
    await addTaskThroughForm(page(), { title: 'Write summary', start: '06:00', end: '07:00' });
    const titleBefore = await page().title();

    await page().getByRole('button', { name: 'Start timer for Write summary' }).click();
    const stop = page().getByRole('button', { name: 'Stop timer for Write summary' });
    await stop.waitFor();
    assert.equal(await stop.getAttribute('aria-pressed'), 'true');
    await page().waitForFunction(() => document.title.startsWith('▶'));
    // The timer lives on the server: a reload still shows it running.
    await page().reload();
    await stop.waitFor();
    await page().waitForFunction(() => document.title.startsWith('▶'));
    await stop.click();
    await page().getByRole('button', { name: 'Start timer for Write summary' }).waitFor();
    await page().waitForFunction((title) => document.title === title, titleBefore);

    // A correction by hand: 30 minutes tracked.
    await page().getByRole('button', { name: 'Edit Write summary' }).click();
    const edit = page().getByRole('dialog', { name: 'Edit Task' });
    await edit.getByLabel('Tracked (minutes)').fill('30');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });

    const wallet = await api('GET', '/tasks/today');
    assert.equal(wallet.trackedHours, 0.5);
    const figures = page().getByRole('region', { name: 'Time Budget' });
    await figures
      .locator('div', { hasText: /^Tracked/ })
      .getByText('0.5 h')
      .waitFor();

    await page().goto(`${suite.stack.shellUrl}/app/wallet`);
    const spent = page().getByRole('heading', { name: 'Spent Hours' }).locator('..');
    await spent.getByText(String(wallet.plannedHours), { exact: true }).waitFor();
    await spent
      .locator('div', { hasText: /^Tracked/ })
      .getByText('0.5 h')
      .waitFor();

    await page().goto(`${suite.stack.shellUrl}/app/analytics`);
    const table = page().getByRole('table', { name: 'Planned, tracked and budget hours per day this week' });
    const todayRow = table.getByRole('row').filter({ hasText: '(today)' });
    await todayRow.waitFor();
    assert.deepEqual(await todayRow.getByRole('cell').allInnerTexts(), [
      wallet.plannedHours.toFixed(1),
      '0.5',
      wallet.budgetHours.toFixed(1),
      wallet.remainingHours.toFixed(1),
    ]);
  });
});
