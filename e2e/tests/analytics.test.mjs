import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { browserSuite } from '../support/suite.mjs';
import { launchBrowser } from '../support/browser.mjs';
import { apiClient, storeSession } from '../support/api-client.mjs';
import { seriousViolations } from '../support/accessibility.mjs';
import { addDays, localDateKey, TIME_ZONE, weekdayOf } from '../support/days.mjs';

describe('analytics', () => {
  const suite = browserSuite({ account: 'charts', signIn: false });
  const today = localDateKey(new Date());
  const weekday = weekdayOf(today);
  const lastSunday = addDays(today, -7 - weekday);

  const call = (method, url, body) =>
    suite.api.call(method, url, { token: suite.account.token, body, timeZone: TIME_ZONE });

  async function task(date, categoryId, startHHMM, endHHMM, { done }) {
    const created = await call('POST', '/tasks', {
      title: `${categoryId || 'Uncategorised'} ${startHHMM}`,
      categoryId,
      startHHMM,
      endHHMM,
      date,
    });
    if (done) await call('PATCH', `/tasks/${created._id}`, { done: true });
  }

  before(async () => {
    const category = async (name, color) => (await call('POST', '/categories', { name, color }))._id;
    const work = await category('Work', '#2F80ED');
    const study = await category('Study', '#D9468F');
    const health = await category('Health', '#5E9E2B');
    const chores = await category('Chores', '#D97706');

    // This week, all today: 405 minutes planned, 360 of them done.
    await task(today, work, '09:00', '12:00', { done: true });
    await task(today, study, '13:00', '14:30', { done: true });
    await task(today, health, '15:00', '15:45', { done: false });
    await task(today, chores, '16:00', '16:30', { done: true });
    await task(today, '', '17:00', '18:00', { done: true });

    // Last week, Sunday to Thursday: done tasks on Sun, Mon, Tue and Thu, an undone one on Wed, an event on Mon.
    await task(lastSunday, work, '09:00', '13:00', { done: true });
    await task(addDays(lastSunday, 1), work, '09:00', '10:00', { done: true });
    await call('POST', '/events', {
      title: 'Dentist',
      start: `${addDays(lastSunday, 1)}T10:00:00`,
      end: `${addDays(lastSunday, 1)}T11:00:00`,
      allDay: false,
    });
    await task(addDays(lastSunday, 2), study, '08:00', '09:30', { done: true });
    await task(addDays(lastSunday, 3), health, '07:00', '08:00', { done: false });
    await task(addDays(lastSunday, 4), chores, '18:00', '19:00', { done: true });

    await storeSession(suite.page, suite.stack.shellUrl, suite.account);
  });

  const page = () => suite.page;
  const card = (name) => page().getByRole('region', { name });
  const textOf = async (locator) => (await locator.textContent()).replace(/\s+/g, ' ').trim();
  const figure = (cardName, label) =>
    card(cardName)
      .locator('div', { has: page().getByText(label, { exact: true }) })
      .locator('dd');

  it('shows the figures the server computes for this week and the same day last week', async () => {
    const askedDates = [];
    page().on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith('/aggregation/analytics/weekly'))
        askedDates.push(url.searchParams.get('date'));
    });
    await page().goto(`${suite.stack.shellUrl}/app/analytics`);
    await page().getByRole('heading', { level: 1, name: 'Time Wallet Analytics' }).waitFor();
    await page().getByText('See how you progress this week').waitFor();
    await card('Category Time Share').and(page().locator(':not([aria-busy])')).waitFor();

    assert.deepEqual(askedDates.sort(), [addDays(today, -7), today].sort());

    // Shares are of the week's planned minutes, 405, the uncategorised hour included ("No category"):
    // Work 180/405 = 44.4%, Study 90/405 = 22.2%, No category 60/405 = 14.8%; Health (11.1%) is fourth.
    const shares = await card('Category Time Share').getByRole('listitem').allInnerTexts();
    assert.deepEqual(
      shares.map((share) => share.replace(/\s+/g, ' ').trim()),
      ['Work 44%', 'Study 22%', 'No category 15%'],
    );

    // Last week: 240 + 60 + 90 + 60 done minutes + the 60-minute event = 510 min = 8.5 h over 7 days = 1.21.
    // This week: 180 + 90 + 30 + 60 done minutes = 6 h over the days elapsed so far (Sunday to today).
    const thisWeekAverage = ['6.0', '3.0', '2.0', '1.5', '1.2', '1.0', '0.9'][weekday];
    assert.equal(await textOf(figure('Average Productive Hours', 'Last week')), '1.2 hours');
    assert.equal(await textOf(figure('Average Productive Hours', 'This week')), `${thisWeekAverage} hours`);
    assert.equal(await textOf(figure('Daily Spend Comparison', 'active time')), `${thisWeekAverage} hours`);
    // At most 6 active hours: rest is min(12, 24 - active) = 12.
    assert.equal(await textOf(figure('Daily Spend Comparison', 'rest and self care')), '12.0 hours');
    // Last week Sun, Mon, Tue in a row, Wed without a done task, then Thu: 3. This week only today: 1.
    assert.equal(await textOf(figure('Consistence Streak', 'Last week')), '3 days');
    assert.equal(await textOf(figure('Consistence Streak', 'This week')), '1 day');
  });

  it("charts today's hours against the budget and the week's time per category", async () => {
    const chart = card('Hours per Day This Week');
    const rows = chart.getByRole('table', { name: 'Planned, tracked and budget hours per day this week' });
    // Today: 405 planned minutes = 6.75 h, shown 6.8; nothing tracked; the 15-hour budget.
    const todayRow = rows.getByRole('row').filter({ hasText: '(today)' });
    // Planned, tracked, budget and the hours left (15 - 6.75, the server's remainingMinutes).
    assert.deepEqual(await todayRow.getByRole('cell').allInnerTexts(), ['6.8', '0.0', '15.0', '8.3']);
    assert.equal(await rows.getByRole('row').count(), 8);
    assert.deepEqual(
      await chart.getByRole('list', { name: 'Legend' }).getByRole('listitem').allInnerTexts(),
      ['Planned', 'Tracked', 'Budget', 'Over budget'],
    );

    const legend = card('Where Your Time Went').getByRole('list', { name: 'Time per category this week' });
    const items = (await legend.getByRole('listitem').allInnerTexts()).map((item) =>
      item.replace(/\s+/g, ' ').trim(),
    );
    assert.deepEqual(items, [
      'Work 3.0 h · 44%',
      'Study 1.5 h · 22%',
      'No category 1.0 h · 15%',
      'Health 0.8 h · 11%',
      'Chores 0.5 h · 7%',
    ]);
  });

  it('has no serious accessibility violations, in light and dark', async () => {
    for (const colorScheme of ['light', 'dark']) {
      await page().emulateMedia({ colorScheme });
      // The shell's colours ease between themes; axe must see where they end.
      await page().waitForTimeout(400);
      const violations = await seriousViolations(page());
      assert.deepEqual(violations, [], `${colorScheme}: ${JSON.stringify(violations, null, 2)}`);
    }
    await page().emulateMedia({ colorScheme: 'light' });
  });

  it("says 'Failed to fetch analytics data' when one of the two weeks fails", async () => {
    const lastWeekOnly = `**/aggregation/analytics/weekly?date=${addDays(today, -7)}`;
    await page().route(lastWeekOnly, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }),
    );
    try {
      await page().reload();
      await page().getByRole('alert').filter({ hasText: 'Error: Failed to fetch analytics data' }).waitFor();
      assert.equal(await card('Category Time Share').count(), 0);
    } finally {
      await page().unroute(lastWeekOnly);
    }
  });

  it('asks for a connection when the session could not be confirmed by the server', async () => {
    await page().route('**/api/auth/validate', (route) => route.abort('connectionrefused'));
    try {
      await page().goto(`${suite.stack.shellUrl}/app/analytics`);
      await page().getByRole('heading', { level: 1, name: 'Analytics needs a connection' }).waitFor();
      assert.equal(await page().getByRole('heading', { name: 'Time Wallet Analytics' }).count(), 0);
    } finally {
      await page().unroute('**/api/auth/validate');
    }
  });

  it('at 375 px keeps the value over a bar that reaches the top clear of the chart title', async () => {
    const full = await apiClient(suite.stack.apiBaseUrl).signUp('fullday');
    await fetch(`${suite.stack.apiBaseUrl}/tasks`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${full.token}`,
        'X-Time-Zone': TIME_ZONE,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ title: 'Long day', startHHMM: '06:00', endHHMM: '22:00', date: today }),
    });
    const phone = await launchBrowser({ viewport: { width: 375, height: 812 } });
    try {
      await storeSession(phone.page, suite.stack.shellUrl, full);
      await phone.page.goto(`${suite.stack.shellUrl}/app/analytics`);
      const chart = phone.page.getByRole('region', { name: 'Hours per Day This Week' });
      const value = chart.locator('[aria-hidden="true"]').getByText('16.0', { exact: true });
      await value.waitFor();
      const title = await chart.getByRole('heading', { name: 'Hours per Day This Week' }).boundingBox();
      const label = await value.boundingBox();
      assert.ok(
        label.y >= title.y + title.height,
        `the value (top ${label.y}) is below the title (bottom ${title.y + title.height})`,
      );
    } finally {
      await phone.close();
    }
  });

  it('runs without page errors', () => {
    assert.deepEqual(suite.browser.pageErrors.map(String), []);
  });
});
