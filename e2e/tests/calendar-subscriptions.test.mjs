import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { browserSuite } from '../support/suite.mjs';
import { seriousViolations } from '../support/accessibility.mjs';
import { addDays, localDateKey, TIME_ZONE } from '../support/days.mjs';
import { GRID_DRAWN } from '../support/calendar.mjs';

/** An instant as iCalendar writes it in UTC: 20261127T100000Z. */
const icsInstant = (date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** Today at a local hour, in the zone the browser runs in (this machine's). */
function todayAt(hours) {
  const date = new Date();
  date.setHours(hours, 0, 0, 0);
  return date;
}

/** What a club's calendar app publishes: one two-hour training today, 10:00 to 12:00. */
function clubCalendar() {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Example Club//Fixtures//EN',
    'X-WR-CALNAME:Rowing club',
    'BEGIN:VEVENT',
    'UID:training-1@club.example',
    `DTSTAMP:${icsInstant(new Date())}`,
    `DTSTART:${icsInstant(todayAt(10))}`,
    `DTEND:${icsInstant(todayAt(12))}`,
    'SUMMARY:Club training',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

// Issue: subscribe to a calendar at an address, see its events read-only, copy one, switch whether it counts in the
// budget (the day header and the wallet follow), and publish the own plan as a feed, then revoke it.
describe('calendar subscriptions and the private feed', () => {
  const suite = browserSuite({ account: 'subscriber' });
  const page = () => suite.page;
  const today = localDateKey(new Date());
  const dayHeader = () => page().locator(`th.fc-col-header-cell[data-date="${today}"]`);
  const panel = () => page().getByRole('region', { name: 'Calendars' });
  const training = () => page().locator('.fc-timegrid-event', { hasText: 'Club training' });
  let calendarServer;
  let calendarUrl;

  before(async () => {
    calendarServer = http.createServer((request, response) => {
      if (request.url !== '/club.ics') {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { 'Content-Type': 'text/calendar; charset=utf-8' }).end(clubCalendar());
    });
    await new Promise((resolve) => calendarServer.listen(0, '127.0.0.1', resolve));
    calendarUrl = `http://127.0.0.1:${calendarServer.address().port}/club.ics`;
  });
  after(() => new Promise((resolve) => calendarServer?.close(resolve)));

  async function openCalendars() {
    await page().goto(`${suite.stack.shellUrl}/app/calendar`);
    await page().locator('td.fc-timegrid-col[data-date]').first().waitFor();
    await page().getByRole('button', { name: 'Calendars' }).click();
    await panel().waitFor();
  }

  async function switchCounting(on) {
    const counting = panel().getByRole('switch', { name: 'Counts in budget for Rowing club' });
    const switched = page().waitForResponse(
      (response) => response.request().method() === 'PATCH' && response.url().includes('/calendars/'),
    );
    await counting.click();
    assert.equal((await switched).status(), 200);
    assert.equal(await counting.getAttribute('aria-checked'), String(on));
  }

  async function walletSpentHours(hours) {
    await page().goto(`${suite.stack.shellUrl}/app/wallet`);
    await page()
      .locator('div', { has: page().getByRole('heading', { level: 3, name: 'Spent Hours', exact: true }) })
      .last()
      .getByText(`${hours} hours`, { exact: true })
      .waitFor();
  }

  it('subscribes by address and shows its events in its colour, locked against moves', async () => {
    await openCalendars();
    await dayHeader().getByText('15 h left').waitFor();
    await panel().getByLabel('Calendar address (URL)').fill(calendarUrl);
    await panel().getByRole('button', { name: 'Add' }).click();
    await page().getByRole('status').filter({ hasText: 'Added "Rowing club": 1 event' }).waitFor();
    await panel().getByText('Last refreshed just now').waitFor();

    await training().waitFor();
    assert.equal(await training().locator('[role="img"][aria-label="read-only"]').count(), 1);
    const classes = (await training().getAttribute('class')) ?? '';
    assert.ok(!classes.includes('fc-event-draggable'), `not draggable: ${classes}`);
    assert.ok(!classes.includes('fc-event-resizable'), `not resizable: ${classes}`);
    // Its two hours count in the budget until switched off.
    await dayHeader().getByText('13 h left').waitFor();

    const violations = await seriousViolations(page());
    assert.deepEqual(violations, [], `with the Calendars panel open: ${JSON.stringify(violations, null, 2)}`);
  });

  it('stops and starts counting it in the budget: the day header and the wallet follow', async () => {
    await openCalendars();
    await switchCounting(false);
    await dayHeader().getByText('15 h left').waitFor();
    await walletSpentHours(0);

    await openCalendars();
    await switchCounting(true);
    await dayHeader().getByText('13 h left').waitFor();
    await walletSpentHours(2);
  });

  it('opens a subscribed event read-only and copies it into the own calendar', async () => {
    await openCalendars();
    await page().getByRole('button', { name: 'Close calendars' }).click();
    await training().click();
    const details = page().getByRole('dialog', { name: 'Event details' });
    await details.waitFor();
    assert.equal(await details.getByRole('button', { name: /Update|Delete|Save/ }).count(), 0);
    await details.getByRole('button', { name: 'Copy to my calendar' }).click();
    await page().getByRole('status').filter({ hasText: 'Copied to My calendar' }).waitFor();
    await details.waitFor({ state: 'detached' });

    // The copy is the person's own: it keeps counting when the subscription stops.
    await page().getByRole('button', { name: 'Calendars' }).click();
    await switchCounting(false);
    await dayHeader().getByText('13 h left').waitFor();
    const events = await suite.api.call('GET', `/events?from=${today}&to=${addDays(today, 1)}`, {
      token: suite.account.token,
      timeZone: TIME_ZONE,
    });
    const copies = events.filter((event) => event.title === 'Club training');
    assert.deepEqual(copies.map((event) => event.readOnly).sort(), [false, true]);
  });

  it('publishes the plan at a secret address, then revokes it', async () => {
    await openCalendars();
    await panel().getByRole('button', { name: 'Publish' }).click();
    const address = panel().getByLabel('Address of your plan');
    await address.waitFor();
    const feedUrl = await address.inputValue();
    const published = await fetch(feedUrl);
    assert.equal(published.status, 200);
    const feed = await published.text();
    assert.match(feed, /BEGIN:VCALENDAR/);
    assert.match(feed, /SUMMARY:Club training/, 'the copy is in the own calendar, so in the feed');

    await panel().getByRole('button', { name: 'Revoke' }).click();
    const confirm = page().getByRole('alertdialog', { name: 'Revoke the address?' });
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await panel().getByRole('button', { name: 'Publish' }).waitFor();
    assert.equal((await fetch(feedUrl)).status, 404);
  });

  it('fits a 375 px phone in dark mode, published and subscribed, and is worked by keyboard there', async () => {
    await page().setViewportSize({ width: 375, height: 812 });
    await page().emulateMedia({ colorScheme: 'dark' });
    try {
      await page().goto(`${suite.stack.shellUrl}/app/calendar`);
      await page().locator(GRID_DRAWN).first().waitFor();
      // By keyboard: the Calendars button opens the panel, and Tab reaches its address field and Publish.
      await page().getByRole('button', { name: 'Calendars' }).focus();
      await page().keyboard.press('Enter');
      await panel().waitFor();
      await panel().getByText('Rowing club').first().waitFor();
      const address = panel().getByLabel('Calendar address (URL)');
      for (
        let presses = 0;
        presses < 40 && !(await address.evaluate((field) => field === document.activeElement));
        presses += 1
      ) {
        await page().keyboard.press('Tab');
      }
      assert.ok(
        await address.evaluate((field) => field === document.activeElement),
        'Tab reaches the address',
      );
      await panel().getByRole('button', { name: 'Publish' }).focus();
      await page().keyboard.press('Enter');
      await panel().getByLabel('Address of your plan').waitFor();

      const overflow = await page().evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page is ${overflow} px wider than the phone`);
      const box = await panel().boundingBox();
      assert.ok(
        box && box.x >= 0 && box.x + box.width <= 375,
        `the panel within the screen: ${JSON.stringify(box)}`,
      );
      const violations = await seriousViolations(page());
      assert.deepEqual(violations, [], `375 px, dark: ${JSON.stringify(violations, null, 2)}`);
    } finally {
      await page().emulateMedia({ colorScheme: 'light' });
      await page().setViewportSize({ width: 1280, height: 900 });
    }
  });
});
