import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserSuite } from '../support/suite.mjs';
import { seriousViolations } from '../support/accessibility.mjs';
import { addDays, localDateKey, TIME_ZONE, weekdayOf } from '../support/days.mjs';

// Issue 17 on the calendar: a weekly event on Monday and Wednesday made with the event form's Repeat, one of its
// occurrences skipped, the series moved from a later Monday on ("this and following"), and all of it in the month.
describe('calendar series', () => {
  const suite = browserSuite({ account: 'calendar_series' });
  const page = () => suite.page;
  const today = localDateKey(new Date());
  // Next week's Monday and Wednesday, so every occurrence used is in the future and in one view.
  const monday = addDays(today, 8 - (weekdayOf(today) || 7));
  const wednesday = addDays(monday, 2);
  const nextMonday = addDays(monday, 7);
  const api = (method, url, body) =>
    suite.api.call(method, url, { token: suite.account.token, body, timeZone: TIME_ZONE });
  const gymsFrom = async (day, days) =>
    (await api('GET', `/events?from=${day}&to=${addDays(day, days)}`)).filter(
      (event) => event.title === 'Gym',
    );
  const block = (day) =>
    page().locator(`td.fc-timegrid-col[data-date="${day}"] .fc-timegrid-event`, { hasText: 'Gym' });
  const goTo = async (day) => {
    await page().getByLabel('Go to date').fill(day);
    await page().locator(`td.fc-timegrid-col[data-date="${day}"]`).waitFor();
  };
  const localTime = (iso) =>
    new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: TIME_ZONE });

  it('creates a weekly event on Monday and Wednesday, marked as repeating', async () => {
    await page().goto(`${suite.stack.shellUrl}/app/calendar`);
    await page().locator('td.fc-timegrid-col[data-date]').first().waitFor();
    await page().getByRole('button', { name: 'Add Event' }).click();
    const dialog = page().getByRole('dialog', { name: 'New Event' });
    await dialog.getByLabel('Title').fill('Gym');
    await dialog.getByLabel('Start', { exact: true }).fill(`${monday}T18:00`);
    await dialog.getByLabel('End', { exact: true }).fill(`${monday}T19:00`);
    await dialog.getByRole('combobox', { name: 'Repeat' }).selectOption({ label: 'Weekly on Monday' });
    await dialog
      .getByRole('group', { name: 'Repeat on' })
      .getByRole('checkbox', { name: 'Wednesday' })
      .check();
    const created = page().waitForResponse(
      (response) => response.request().method() === 'POST' && response.url().endsWith('/events'),
    );
    await dialog.getByRole('button', { name: 'Create Event' }).click();
    const series = await (await created).json();
    assert.equal(series.rrule, 'FREQ=WEEKLY;BYDAY=MO,WE');
    await dialog.waitFor({ state: 'detached' });

    await goTo(monday);
    await block(monday).waitFor();
    await block(wednesday).waitFor();
    await block(monday).getByRole('img', { name: 'Repeats: Weekly on Monday and Wednesday' }).waitFor();
    assert.equal((await gymsFrom(monday, 14)).length, 4);
  });

  it("skips Wednesday's occurrence with Delete > This event", async () => {
    await block(wednesday).click();
    await page().getByRole('dialog', { name: 'Edit Event' }).getByRole('button', { name: 'Delete' }).click();
    const question = page().getByRole('dialog', { name: 'Delete recurring event' });
    assert.equal(await question.getByRole('radio', { name: 'This event' }).isChecked(), true);
    assert.deepEqual(await seriousViolations(page()), []);
    await question.getByRole('button', { name: 'Delete' }).click();
    await page().getByText('Event "Gym" deleted').waitFor();
    await block(wednesday).waitFor({ state: 'detached' });
    await block(monday).waitFor();
    const days = (await gymsFrom(monday, 14)).map((event) => localDateKey(new Date(event.start)));
    assert.deepEqual(days, [monday, nextMonday, addDays(nextMonday, 2)]);
  });

  it('moves the series from next Monday on to 07:00 with "This and following events"', async () => {
    await goTo(nextMonday);
    await block(nextMonday).click();
    const editor = page().getByRole('dialog', { name: 'Edit Event' });
    await editor.getByLabel('Start', { exact: true }).fill(`${nextMonday}T07:00`);
    await editor.getByLabel('End', { exact: true }).fill(`${nextMonday}T08:00`);
    await editor.getByRole('button', { name: 'Update Event' }).click();
    const question = page().getByRole('dialog', { name: 'Edit recurring event' });
    await question.getByRole('radio', { name: 'This and following events' }).check();
    await question.getByRole('button', { name: 'Save' }).click();
    await editor.waitFor({ state: 'detached' });
    await block(nextMonday).filter({ hasText: '07:00' }).waitFor();

    const gyms = await gymsFrom(monday, 21);
    assert.deepEqual(
      gyms.map((event) => [localDateKey(new Date(event.start)), localTime(event.start)]),
      [
        [monday, '18:00'],
        [nextMonday, '07:00'],
        [addDays(nextMonday, 2), '07:00'],
        [addDays(nextMonday, 7), '07:00'],
        [addDays(nextMonday, 9), '07:00'],
      ],
    );
    assert.notEqual(gyms[0].seriesId, gyms[1].seriesId, 'the series was split at next Monday');
  });

  it('shows the occurrences in the month view, kept in the URL, and a day opens its week', async () => {
    await goTo(monday);
    await page().getByRole('group', { name: 'View' }).getByRole('button', { name: 'Month' }).click();
    await page().waitForURL('**/app/calendar?view=month');
    const month = page().getByRole('region', { name: 'Month' });
    await month.locator(`td[data-date="${monday}"] .fc-event`, { hasText: 'Gym' }).waitFor();
    assert.equal(
      await month.locator(`td[data-date="${wednesday}"] .fc-event`, { hasText: 'Gym' }).count(),
      0,
    );
    assert.equal(
      await page().getByRole('button', { name: 'Month', exact: true }).getAttribute('aria-pressed'),
      'true',
    );
    assert.deepEqual(await seriousViolations(page()), []);

    await page().reload();
    await month.locator(`td[data-date="${monday}"] .fc-event`, { hasText: 'Gym' }).waitFor();
    await month.locator(`td[data-date="${monday}"] [data-navlink]`).click();
    await page().waitForURL((url) => !url.search.includes('view=month'));
    await block(monday).waitFor();
  });
});
