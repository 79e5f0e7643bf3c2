import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserSuite } from '../support/suite.mjs';
import { addDays, localDateKey, TIME_ZONE, weekdayOf } from '../support/days.mjs';

// Issue 31: one day reads the same everywhere. A week is seeded through the API with days that sit on the edges of
// rounding (a minute over, a minute left, 5.25 h planned, overlapping blocks, tracked time), and for each day the
// server's ledger is read once; then the wallet, Today, the calendar's day headers and the analytics table must show
// exactly those remaining, over and tracked figures, each rounded only for display.

const round1 = (value) => Math.round(value * 10) / 10;
/** How every screen says an amount over budget: minutes under an hour, hours at one decimal from an hour. */
const overAmount = (minutes) =>
  minutes < 60 ? `${Math.max(1, Math.round(minutes))} min` : `${round1(minutes / 60)} h`;

describe('one day, one set of figures on every screen', () => {
  const suite = browserSuite({ account: 'figures' });
  const page = () => suite.page;
  const api = (method, url, body) =>
    suite.api.call(method, url, { token: suite.account.token, body, timeZone: TIME_ZONE });

  const today = localDateKey(new Date());
  const weekStart = addDays(today, -weekdayOf(today));
  const week = Array.from({ length: 7 }, (_, index) => addDays(weekStart, index));

  /** Each weekday's plan: [start, end] clock times of its tasks, and timed events as [start, end]. */
  const PLANS = [
    { tasks: [['09:00', '11:00']], events: [] }, // 2 h
    { tasks: [['08:00', '23:01']], events: [] }, // 901 min: one minute over the 15 h budget
    { tasks: [['08:00', '22:59']], events: [] }, // 899 min: one minute left
    { tasks: [['09:00', '14:15']], events: [] }, // 5.25 h: 9.75 h left
    { tasks: [['09:00', '11:00']], events: [['10:00', '12:00']] }, // overlapping: 3 h once
    { tasks: [], events: [] }, // nothing planned
    { tasks: [['06:00', '23:30']], events: [] }, // 17.5 h: 2.5 h over
  ];

  async function seedWeek() {
    const now = Date.now();
    for (const [index, date] of week.entries()) {
      const plan = PLANS[index];
      for (const [startHHMM, endHHMM] of plan.tasks) {
        const task = await api('POST', '/tasks', { title: `Plan ${index}`, date, startHHMM, endHHMM });
        // 40 minutes and 40 seconds of tracked time from the block's start, wherever that has already happened.
        const start = Date.parse(task.start);
        const end = start + 40 * 60_000 + 40_000;
        if (end <= now) {
          await api('POST', '/time-entries', {
            taskId: task._id,
            start: new Date(start).toISOString(),
            end: new Date(end).toISOString(),
          });
        }
      }
      for (const [start, end] of plan.events) {
        const at = (hhmm) => new Date(`${date}T${hhmm}:00`).toISOString();
        await api('POST', '/events', {
          title: `Meeting ${index}`,
          start: at(start),
          end: at(end),
          allDay: false,
        });
      }
    }
  }

  it('shows the ledger’s remaining, over and tracked figures on the wallet, Today, the calendar and analytics', async () => {
    await seedWeek();
    const { days } = await api('GET', `/ledger?from=${week[0]}&to=${addDays(week[6], 1)}`);
    assert.equal(days.length, 7);
    const ledger = new Map(days.map((day) => [day.date, day]));
    // The seeded edges are where they were meant to be (the ledger is the source every screen must echo).
    assert.deepEqual(
      [
        ledger.get(week[1]).overMinutes,
        ledger.get(week[2]).remainingMinutes,
        ledger.get(week[4]).plannedMinutes,
      ],
      [1, 1, 180],
    );

    // The calendar's day headers.
    await page().goto(`${suite.stack.shellUrl}/app/calendar`);
    await page().locator('td.fc-timegrid-col[data-date]').first().waitFor();
    for (const date of week) {
      const { overMinutes, remainingMinutes } = ledger.get(date);
      const text =
        overMinutes > 0 ? `Over by ${overAmount(overMinutes)}` : `${round1(remainingMinutes / 60)} h left`;
      await page()
        .locator(`th.fc-col-header-cell[data-date="${date}"]`)
        .getByText(text, { exact: true })
        .waitFor();
    }

    // Today, for each day of the week through its day switcher's address.
    for (const date of week) {
      const { plannedMinutes, trackedMinutes, overMinutes } = ledger.get(date);
      await page().goto(`${suite.stack.shellUrl}/app/today?date=${date}`);
      const figures = page().getByRole('region', { name: 'Time Budget' });
      const figure = (label) => figures.locator('div', { hasText: new RegExp(`^${label}`) });
      await figure('Planned')
        .getByText(`${round1(plannedMinutes / 60)} h`, { exact: true })
        .waitFor();
      await figure('Tracked')
        .getByText(`${round1(trackedMinutes / 60)} h`, { exact: true })
        .waitFor();
      const over = figures.getByText(/^Over budget by/);
      if (overMinutes > 0) {
        await figures.getByText(`Over budget by ${overAmount(overMinutes)}`, { exact: true }).waitFor();
      } else {
        assert.equal(await over.count(), 0, `${date} is within budget`);
      }
    }

    // The wallet: today's remaining hours and how far over, the same numbers.
    const todays = ledger.get(today);
    const wallet = await api('GET', '/tasks/today');
    assert.deepEqual(
      [wallet.remainingHours, wallet.overHours, wallet.trackedHours],
      [
        round1(todays.remainingMinutes / 60),
        round1(todays.overMinutes / 60),
        round1(todays.trackedMinutes / 60),
      ],
    );
    await page().goto(`${suite.stack.shellUrl}/app/wallet`);
    const remaining = page().getByRole('heading', { name: 'Remaining' }).locator('..');
    await remaining.getByText(`${round1(todays.remainingMinutes / 60)} hours`, { exact: true }).waitFor();
    if (todays.overMinutes > 0) {
      await remaining
        .getByText(`Over budget by ${overAmount(todays.overMinutes)}`, { exact: true })
        .waitFor();
    }
    const spent = page().getByRole('heading', { name: 'Spent Hours' }).locator('..');
    await spent
      .locator('div', { hasText: /^Tracked/ })
      .getByText(`${round1(todays.trackedMinutes / 60)} h`, { exact: true })
      .waitFor();

    // Analytics: the day table's planned (with how far over), tracked, budget and hours left.
    await page().goto(`${suite.stack.shellUrl}/app/analytics`);
    const table = page().getByRole('table', { name: 'Planned, tracked and budget hours per day this week' });
    for (const date of week) {
      const day = ledger.get(date);
      const row = table.getByRole('row').filter({ hasText: date });
      await row.waitFor({ state: 'attached' });
      const over = day.overMinutes > 0 ? ` (over budget by ${overAmount(day.overMinutes)})` : '';
      assert.deepEqual(
        await row.getByRole('cell').allTextContents(),
        [
          `${round1(day.plannedMinutes / 60).toFixed(1)}${over}`,
          round1(day.trackedMinutes / 60).toFixed(1),
          round1(day.budgetMinutes / 60).toFixed(1),
          round1(day.remainingMinutes / 60).toFixed(1),
        ],
        date,
      );
    }
    assert.deepEqual(suite.browser.pageErrors, []);
  });
});
