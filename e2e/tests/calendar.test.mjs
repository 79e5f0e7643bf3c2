import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { browserSuite } from '../support/suite.mjs';
import { storeSession } from '../support/api-client.mjs';
import { launchBrowser } from '../support/browser.mjs';
import { seriousViolations } from '../support/accessibility.mjs';
import { addDays } from '../support/days.mjs';
import { GRID_DRAWN, LIGHT_DAY } from '../support/calendar.mjs';
import { coveredActions, overlaps } from '../support/geometry.mjs';

const INDIGO = 'rgb(79, 70, 229)';

/** The UTC instant of a wall-clock time in an IANA zone, e.g. 10:00 in Europe/Berlin on 2026-11-19. */
function zonedToUtc(day, hhmm, timeZone) {
  const wallClock = Date.parse(`${day}T${hhmm}:00Z`);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(new Date(wallClock))
      .map((part) => [part.type, part.value]),
  );
  const zoneWallClock = Date.parse(
    `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:00Z`,
  );
  return new Date(wallClock - (zoneWallClock - wallClock)).toISOString();
}

const compact = (day) => day.replaceAll('-', '');

/** A toast covers none of the actions at the top of the page. */
async function assertToastClearOfActions(page, message) {
  const toast = page.getByRole('status').filter({ hasText: message });
  await toast.waitFor();
  // Measured where its entrance animation ends.
  await page.waitForTimeout(400);
  const box = await toast.boundingBox();
  assert.deepEqual(await coveredActions(page, box, ['Add Event', 'Import .ics', 'Export .ics']), []);
}

/** What a calendar app exports: time zone definitions, a zoned event, an all-day event and a weekly series. */
function realWorldCalendar(week) {
  const [, monday, , wednesday, thursday] = week;
  const seriesStart = addDays(monday, -21);
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Example Corp//Desktop Calendar 16.0//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'X-WR-CALNAME:Work',
    'BEGIN:VTIMEZONE',
    'TZID:Europe/Berlin',
    'BEGIN:DAYLIGHT',
    'TZOFFSETFROM:+0100',
    'TZOFFSETTO:+0200',
    'TZNAME:CEST',
    'DTSTART:19700329T020000',
    'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
    'END:DAYLIGHT',
    'BEGIN:STANDARD',
    'TZOFFSETFROM:+0200',
    'TZOFFSETTO:+0100',
    'TZNAME:CET',
    'DTSTART:19701025T030000',
    'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
    'END:STANDARD',
    'END:VTIMEZONE',
    'BEGIN:VTIMEZONE',
    'TZID:America/New_York',
    'BEGIN:DAYLIGHT',
    'TZOFFSETFROM:-0500',
    'TZOFFSETTO:-0400',
    'TZNAME:EDT',
    'DTSTART:19700308T020000',
    'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
    'END:DAYLIGHT',
    'BEGIN:STANDARD',
    'TZOFFSETFROM:-0400',
    'TZOFFSETTO:-0500',
    'TZNAME:EST',
    'DTSTART:19701101T020000',
    'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
    'END:STANDARD',
    'END:VTIMEZONE',
    'BEGIN:VEVENT',
    'UID:berlin-sync-7f3a@example.com',
    'DTSTAMP:20260101T120000Z',
    `DTSTART;TZID=Europe/Berlin:${compact(thursday)}T100000`,
    `DTEND;TZID=Europe/Berlin:${compact(thursday)}T113000`,
    'SUMMARY:Berlin office sync',
    'LOCATION:Alexanderplatz 1\\, Berlin',
    'DESCRIPTION:Quarterly planning\\nBring the numbers',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:company-day-2b1c@example.com',
    'DTSTAMP:20260101T120000Z',
    `DTSTART;VALUE=DATE:${compact(wednesday)}`,
    `DTEND;VALUE=DATE:${compact(addDays(wednesday, 1))}`,
    'SUMMARY:Company offsite',
    'TRANSP:TRANSPARENT',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:weekly-review-9d4e@example.com',
    'DTSTAMP:20260101T120000Z',
    `DTSTART;TZID=America/New_York:${compact(seriesStart)}T070000`,
    `DTEND;TZID=America/New_York:${compact(seriesStart)}T080000`,
    'RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=6',
    'SUMMARY:Weekly review',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

describe('calendar', () => {
  const suite = browserSuite({ account: 'calendar' });
  let week;

  const listEvents = () =>
    suite.api.call('GET', `/events?from=${week[0]}&to=${addDays(week[0], 8)}`, {
      token: suite.account.token,
    });
  const eventBox = (title) => suite.page.locator('.fc-timegrid-event', { hasText: title });
  const column = (day) => suite.page.locator(`td.fc-timegrid-col[data-date="${day}"]`);
  const banner = () => suite.page.getByRole('alert');
  /** An import result's counts, as { label: value }. */
  const importCounts = (result) =>
    result
      .locator('dt')
      .evaluateAll((terms) =>
        Object.fromEntries(terms.map((term) => [term.textContent, term.nextElementSibling?.textContent])),
      );
  const importCount = (result, label) =>
    result.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');

  async function openCalendar() {
    await suite.page.goto(`${suite.stack.shellUrl}/app/calendar`);
    await suite.page.getByRole('heading', { level: 1, name: 'Calendar' }).waitFor();
    await suite.page.locator(GRID_DRAWN).first().waitFor();
    await suite.page.waitForLoadState('networkidle');
  }

  /** The centre of a day's column at the top of a slot, plus a few pixels. */
  async function slotPoint(day, time) {
    const columnBox = await column(day).boundingBox();
    const slotBox = await suite.page
      .locator(`td.fc-timegrid-slot-lane[data-time="${time}:00"]`)
      .boundingBox();
    return { x: columnBox.x + columnBox.width / 2, y: slotBox.y + slotBox.height / 2 };
  }

  async function drag(from, to) {
    await suite.page.mouse.move(from.x, from.y);
    await suite.page.mouse.down();
    await suite.page.mouse.move(from.x + 4, from.y + 4, { steps: 2 });
    await suite.page.mouse.move(to.x, to.y, { steps: 8 });
    await suite.page.mouse.up();
  }

  const patchAnswered = () =>
    suite.page.waitForResponse(
      (response) => response.request().method() === 'PATCH' && response.url().includes('/events/'),
    );

  it('opens a week grid starting Sunday with its own way back, and nothing of FullCalendar elsewhere', async () => {
    await suite.page.goto(`${suite.stack.shellUrl}/app/wallet`);
    await suite.page.getByRole('heading', { level: 1, name: 'Manage Time Wallet' }).waitFor();
    assert.equal(await suite.page.locator('style[data-fullcalendar], .fc').count(), 0);

    await openCalendar();
    assert.equal(await suite.page.getByRole('heading', { level: 1 }).count(), 1);
    week = await suite.page
      .locator('td.fc-timegrid-col[data-date]')
      .evaluateAll((cells) => cells.map((cell) => cell.dataset.date));
    assert.equal(week.length, 7);
    assert.equal(new Date(`${week[0]}T00:00:00Z`).getUTCDay(), 0, 'the week starts on Sunday');
    assert.equal(
      await suite.page.locator('.fc-timegrid-slot-label-cushion', { hasText: /^13:00$/ }).count(),
      1,
    );
    assert.equal(await suite.page.locator('.fc-timegrid-now-indicator-line').count(), 1);
    await suite.page.getByRole('button', { name: 'today' }).waitFor();
    await suite.page.getByRole('button', { name: 'Previous week' }).waitFor();
    await suite.page.getByRole('button', { name: 'Next week' }).waitFor();
    assert.deepEqual(await seriousViolations(suite.page), []);

    await column(week[2])
      .getByRole('button', { name: /^Add an event on / })
      .focus();
    await suite.page.keyboard.press('Enter');
    const dialog = suite.page.getByRole('dialog', { name: 'New Event' });
    assert.equal(await dialog.getByLabel('Start').inputValue(), `${week[2]}T09:00`);
    assert.equal(await dialog.getByLabel('End').inputValue(), `${week[2]}T10:00`);
    await suite.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await suite.page.getByRole('link', { name: /Back to Wallet/ }).click();
    await suite.page.getByRole('heading', { level: 1, name: 'Manage Time Wallet' }).waitFor();
    assert.equal(
      await suite.page.locator('style[data-fullcalendar], .fc').count(),
      0,
      'FullCalendar left with its page',
    );
  });

  it('creates an event by selecting a range, then edits its title', async () => {
    await openCalendar();
    const wednesday = week[3];
    await drag(await slotPoint(wednesday, '09:00'), await slotPoint(wednesday, '10:30'));
    const dialog = suite.page.getByRole('dialog', { name: 'New Event' });
    await dialog.waitFor();
    assert.equal(await dialog.getByLabel('Start').inputValue(), `${wednesday}T09:00`);
    assert.equal(await dialog.getByLabel('End').inputValue(), `${wednesday}T11:00`);
    assert.deepEqual(await seriousViolations(suite.page), []);
    await dialog.getByLabel('Title').fill('Design review');
    await dialog.getByRole('button', { name: 'Create Event' }).click();
    await dialog.waitFor({ state: 'detached' });
    await column(wednesday).locator('.fc-timegrid-event', { hasText: 'Design review' }).waitFor();

    await eventBox('Design review').focus();
    await suite.page.keyboard.press('Enter');
    const editDialog = suite.page.getByRole('dialog', { name: 'Edit Event' });
    await editDialog.getByLabel('Title').fill('Design critique');
    await editDialog.getByRole('button', { name: 'Update Event' }).click();
    await editDialog.waitFor({ state: 'detached' });
    await eventBox('Design critique').waitFor();
    const [event] = await listEvents();
    assert.equal(event.title, 'Design critique');
  });

  it('drags the event to another day and resizes it, both kept after a reload', async () => {
    const [wednesday, thursday] = [week[3], week[4]];
    const before = (await listEvents())[0];
    // The edit's refetches (events, tasks, the day headers' ledger) redraw the grid: measure it once they are in.
    await suite.page.waitForLoadState('networkidle');
    await column(thursday).waitFor();
    const box = await eventBox('Design critique').boundingBox();
    const grab = { x: box.x + box.width / 2, y: box.y + 12 };
    const columnShift = (await column(thursday).boundingBox()).x - (await column(wednesday).boundingBox()).x;
    let answered = patchAnswered();
    await drag(grab, { x: grab.x + columnShift, y: grab.y });
    assert.equal((await answered).status(), 200);
    await column(thursday).locator('.fc-timegrid-event', { hasText: 'Design critique' }).waitFor();

    const moved = await eventBox('Design critique').boundingBox();
    await suite.page.mouse.move(moved.x + moved.width / 2, moved.y + moved.height / 2);
    const resizer = eventBox('Design critique').locator('.fc-event-resizer-end');
    const handle = await resizer.boundingBox();
    const slotHeight = (await suite.page.locator('td.fc-timegrid-slot-lane').first().boundingBox()).height;
    answered = patchAnswered();
    await drag(
      { x: handle.x + handle.width / 2, y: handle.y + handle.height / 2 },
      { x: handle.x + handle.width / 2, y: handle.y + handle.height / 2 + 2 * slotHeight },
    );
    assert.equal((await answered).status(), 200);

    await openCalendar();
    await column(thursday).locator('.fc-timegrid-event', { hasText: 'Design critique' }).waitFor();
    const after = (await listEvents())[0];
    const day = 86_400_000;
    assert.equal(Date.parse(after.start) - Date.parse(before.start), day, 'moved by one day');
    assert.equal(Date.parse(after.end) - Date.parse(before.end), day + 3_600_000, 'and one hour longer');
    assert.equal(after.allDay, false);
  });

  it('puts the event back and explains when the server refuses a drag', async () => {
    const [thursday, friday] = [week[4], week[5]];
    const before = (await listEvents())[0];
    await suite.page.route('**/api/events/*', (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' })
        : route.fallback(),
    );
    try {
      const box = await eventBox('Design critique').boundingBox();
      const grab = { x: box.x + box.width / 2, y: box.y + 12 };
      const columnShift = (await column(friday).boundingBox()).x - (await column(thursday).boundingBox()).x;
      const answered = patchAnswered();
      await drag(grab, { x: grab.x + columnShift, y: grab.y });
      assert.equal((await answered).status(), 500);
      await banner().filter({ hasText: 'Failed to update event' }).waitFor();
      await column(thursday).locator('.fc-timegrid-event', { hasText: 'Design critique' }).waitFor();
      assert.equal(await column(friday).locator('.fc-timegrid-event').count(), 0);
    } finally {
      await suite.page.unroute('**/api/events/*');
    }
    assert.deepEqual(await listEvents(), [before]);
    await suite.page.getByRole('button', { name: 'Dismiss' }).click();
    assert.equal(await banner().count(), 0);
  });

  it('deletes the event from the edit modal', async () => {
    await eventBox('Design critique').click();
    const dialog = suite.page.getByRole('dialog', { name: 'Edit Event' });
    const [before] = await listEvents();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.waitFor({ state: 'detached' });
    await eventBox('Design critique').waitFor({ state: 'detached' });
    assert.deepEqual(await listEvents(), []);
    await assertToastClearOfActions(suite.page, 'Event "Design critique" deleted');

    // Undo in the toast brings it back whole, with its id; then it goes for good.
    await suite.page.getByRole('button', { name: 'Undo' }).click();
    await eventBox('Design critique').waitFor();
    assert.deepEqual(await listEvents(), [before]);
    await eventBox('Design critique').click();
    await suite.page
      .getByRole('dialog', { name: 'Edit Event' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await eventBox('Design critique').waitFor({ state: 'detached' });
    assert.deepEqual(await listEvents(), []);
  });

  it('imports a real-world .ics with the indigo border, again without duplicates, and exports it', async () => {
    const file = path.join(suite.stack.workDir, 'work-calendar.ics');
    fs.writeFileSync(file, realWorldCalendar(week));
    const [, monday, , wednesday, thursday] = week;
    const wednesdayLabel = new Date(`${wednesday}T12:00:00`).toLocaleDateString('en-US', {
      weekday: 'short',
      month: 'short',
      day: 'numeric',
    });

    await suite.page.getByLabel('Import .ics').setInputFiles(file);
    const result = suite.page.getByRole('status').getByRole('group', { name: 'Imported work-calendar.ics' });
    await result.waitFor();
    assert.deepEqual(await importCounts(result), {
      Created: '3',
      Updated: '0',
      'Duplicates skipped': '0',
      'Skipped in all': '0',
    });

    const berlin = eventBox('Berlin office sync');
    await column(thursday).locator('.fc-timegrid-event', { hasText: 'Berlin office sync' }).waitFor();
    await column(monday).locator('.fc-timegrid-event', { hasText: 'Weekly review' }).waitFor();
    assert.equal(await berlin.evaluate((element) => getComputedStyle(element).borderLeftColor), INDIGO);
    const offsite = suite.page
      .getByRole('region', { name: 'All day' })
      .getByRole('button', { name: `${wednesdayLabel} Company offsite` });
    assert.equal(await offsite.evaluate((element) => getComputedStyle(element).borderLeftColor), INDIGO);

    const imported = await listEvents();
    const byTitle = Object.fromEntries(imported.map((event) => [event.title, event]));
    assert.equal(byTitle['Berlin office sync'].start, zonedToUtc(thursday, '10:00', 'Europe/Berlin'));
    assert.equal(byTitle['Berlin office sync'].end, zonedToUtc(thursday, '11:30', 'Europe/Berlin'));
    assert.equal(byTitle['Weekly review'].start, zonedToUtc(monday, '07:00', 'America/New_York'));
    assert.equal(byTitle['Company offsite'].allDay, true);
    assert.ok(imported.every((event) => event.source === 'ics'));
    const series = await suite.api.call(
      'GET',
      `/events?from=${addDays(monday, -28)}&to=${addDays(monday, 28)}`,
      {
        token: suite.account.token,
      },
    );
    assert.equal(series.filter((event) => event.title === 'Weekly review').length, 6);

    await suite.page.getByLabel('Import .ics').setInputFiles(file);
    await importCount(result, 'Duplicates skipped').filter({ hasText: /^3$/ }).waitFor();
    assert.deepEqual(await importCounts(result), {
      Created: '0',
      Updated: '0',
      'Duplicates skipped': '3',
      'Skipped in all': '3',
    });
    assert.equal(await eventBox('Berlin office sync').count(), 1);
    assert.equal((await listEvents()).length, imported.length);
    assert.deepEqual(await seriousViolations(suite.page), []);

    const [download] = await Promise.all([
      suite.page.waitForEvent('download'),
      suite.page.getByRole('button', { name: 'Export .ics' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'time-wallet.ics');
    const exported = fs.readFileSync(await download.path(), 'utf8');
    assert.match(exported, /BEGIN:VCALENDAR/);
    assert.match(exported, /SUMMARY:Berlin office sync/);
  });

  it('shows the import result in the flow under the header, covering nothing, dismissed from the keyboard', async () => {
    // Events outside the week shown, and one the server cannot read: the grid itself stays as it was.
    const file = path.join(suite.stack.workDir, 'elsewhere.ics');
    fs.writeFileSync(
      file,
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//Example Corp//Desktop Calendar 16.0//EN',
        'BEGIN:VEVENT',
        'UID:long-ago-1@example.com',
        'DTSTAMP:20200101T120000Z',
        'DTSTART:20200106T100000Z',
        'DTEND:20200106T110000Z',
        'SUMMARY:Long ago',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'UID:no-start-2@example.com',
        'DTSTAMP:20200101T120000Z',
        'SUMMARY:No start',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    );
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 375, height: 667 },
    ]) {
      await suite.page.setViewportSize(viewport);
      await openCalendar();
      const where = `${viewport.width}x${viewport.height}`;
      const goToDate = suite.page.getByLabel('Go to date');
      const grid = suite.page.getByRole('region', { name: 'Week time grid' });
      const boxes = async () => ({
        addEvent: await suite.page.getByRole('button', { name: 'Add Event' }).boundingBox(),
        goToDate: await goToDate.boundingBox(),
        grid: await grid.boundingBox(),
      });
      const before = await boxes();

      await suite.page.getByLabel('Import .ics').setInputFiles(file);
      const result = suite.page.getByRole('status').getByRole('group', { name: 'Imported elsewhere.ics' });
      await result.waitFor();
      await result.getByText('Why 1 event could not be read').click();
      await result.getByText('No start: ').waitFor();
      await suite.page.waitForLoadState('networkidle');
      const shown = await boxes();
      const resultBox = await result.boundingBox();
      assert.deepEqual(shown.addEvent, before.addEvent, `${where}: the header stays as it was`);
      assert.ok(!overlaps(resultBox, shown.goToDate), `${where}: "Go to date" is not covered`);
      assert.ok(resultBox.y >= before.addEvent.y + before.addEvent.height, `${where}: under the header`);
      const push = shown.goToDate.y - before.goToDate.y;
      assert.ok(
        push >= resultBox.height,
        `${where}: pushed ${push} px for a result ${resultBox.height} px tall`,
      );
      assert.deepEqual(shown.grid, { ...before.grid, y: before.grid.y + push }, `${where}: only pushed down`);

      await suite.page.getByRole('button', { name: 'Export .ics' }).focus();
      await suite.page.keyboard.press('Tab');
      await suite.page.keyboard.press('Enter');
      await result.waitFor({ state: 'detached' });
      assert.deepEqual(await boxes(), before, `${where}: all back in place once dismissed`);
      assert.equal(await suite.page.evaluate(() => document.activeElement?.getAttribute('type')), 'file');
    }
    await suite.page.setViewportSize({ width: 1280, height: 900 });
  });

  it('fits the event dialog on the screen: its body scrolls, its footer stays in view clear of Category', async () => {
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 375, height: 667 },
    ]) {
      await suite.page.setViewportSize(viewport);
      await openCalendar();
      for (const colorScheme of ['light', 'dark']) {
        await suite.page.emulateMedia({ colorScheme });
        const where = `${viewport.width}x${viewport.height} ${colorScheme}`;
        await suite.page.getByRole('button', { name: 'Add Event' }).click();
        const dialog = suite.page.getByRole('dialog', { name: 'New Event' });
        await dialog.waitFor();
        // Its longest form: a custom rule shows its interval, days and end before Category.
        await dialog.getByLabel('Repeat').selectOption('custom');
        await dialog.getByLabel('Category').focus();
        const parts = await dialog.evaluate((element) => {
          const [, body, footer] = element.children;
          const box = (part) => {
            const { top, bottom } = part.getBoundingClientRect();
            return { top, bottom };
          };
          return {
            dialog: box(element),
            body: { ...box(body), scrolls: body.scrollHeight > body.clientHeight },
            footer: { ...box(footer), inBody: body.contains(footer) },
          };
        });
        const category = await dialog.getByLabel('Category').boundingBox();
        const create = await dialog.getByRole('button', { name: 'Create Event' }).boundingBox();
        assert.ok(parts.dialog.top >= 0 && parts.dialog.bottom <= viewport.height, `${where}: on the screen`);
        assert.ok(parts.body.scrolls, `${where}: the form is taller than the body, which scrolls`);
        assert.equal(parts.footer.inBody, false, `${where}: the footer is outside the scrolling body`);
        assert.ok(parts.footer.top >= parts.body.bottom, `${where}: the footer starts below the body`);
        assert.ok(create.y + create.height <= viewport.height, `${where}: Create Event is in view`);
        assert.ok(
          category.y >= parts.body.top && category.y + category.height <= parts.footer.top,
          `${where}: Category, focused, shows whole above the footer: ${JSON.stringify({ category, parts })}`,
        );
        await suite.page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
      }
    }
    await suite.page.emulateMedia({ colorScheme: 'light' });
    await suite.page.setViewportSize({ width: 1280, height: 900 });
  });

  it('refuses a file over 1 MiB with a clear message', async () => {
    const file = path.join(suite.stack.workDir, 'huge.ics');
    fs.writeFileSync(file, `BEGIN:VCALENDAR\r\nX-PADDING:${'x'.repeat(1024 * 1024)}\r\nEND:VCALENDAR\r\n`);
    await suite.page.getByLabel('Import .ics').setInputFiles(file);
    await suite.page.getByRole('alert').filter({ hasText: 'That file is larger than 1 MiB.' }).waitFor();
  });

  it('on a phone: a tap on a slot makes a one-hour draft, the actions fit one row, and the bar has the way back and the theme', async () => {
    const phone = await launchBrowser({ viewport: { width: 375, height: 812 }, hasTouch: true });
    try {
      await storeSession(phone.page, suite.stack.shellUrl, suite.account);
      await phone.page.goto(`${suite.stack.shellUrl}/app/calendar`);
      // The phone's day is drawn without FullCalendar (its first draw is one long task) until the grid is used.
      const lightDay = phone.page.getByRole('region', { name: 'Week time grid' }).locator(LIGHT_DAY);
      await lightDay.waitFor();
      await phone.page.waitForLoadState('networkidle');
      assert.equal(await phone.page.locator('.fc').count(), 0, 'no FullCalendar before the grid is used');
      assert.deepEqual(await seriousViolations(phone.page), [], 'the light day view');
      const bar = phone.page.getByRole('navigation', { name: 'Calendar' });
      await bar.getByRole('link', { name: 'Back to Wallet' }).waitFor();
      await bar.getByText('Dark', { exact: true }).click();
      assert.equal(await phone.page.evaluate(() => document.documentElement.dataset.theme), 'dark');
      await bar.getByText('Light', { exact: true }).click();

      const day = await lightDay.getAttribute('data-light-day');
      const sevenOClock = phone.page.locator('[data-hour="7"]');
      await sevenOClock.scrollIntoViewIfNeeded();
      const hourBox = await sevenOClock.boundingBox();
      const columnBox = await lightDay.boundingBox();
      // The hour's first half hour.
      await phone.page.touchscreen.tap(columnBox.x + columnBox.width / 2, hourBox.y + hourBox.height / 4);
      const dialog = phone.page.getByRole('dialog', { name: 'New Event' });
      await dialog.waitFor();
      assert.equal(await dialog.getByLabel('Start').inputValue(), `${day}T07:00`);
      assert.equal(await dialog.getByLabel('End').inputValue(), `${day}T08:00`);
      await dialog.getByLabel('Title').fill('Tapped');
      await dialog.getByRole('button', { name: 'Create Event' }).click();
      await dialog.waitFor({ state: 'detached' });

      await phone.page.locator('.fc-timegrid-event', { hasText: 'Tapped' }).click();
      const editor = phone.page.getByRole('dialog', { name: 'Edit Event' });
      const tops = await Promise.all(
        ['Delete', 'Cancel', 'Update Event'].map(
          async (name) => (await editor.getByRole('button', { name }).boundingBox()).y,
        ),
      );
      assert.equal(new Set(tops.map(Math.round)).size, 1, `one row of actions at 375 px: ${tops}`);
      await editor.getByRole('button', { name: 'Delete' }).click();
      await editor.waitFor({ state: 'detached' });
      await assertToastClearOfActions(phone.page, 'Event "Tapped" deleted');
      assert.deepEqual(phone.pageErrors.map(String), []);
    } finally {
      await phone.close();
    }
  });

  it('shows one day on a phone, readable at 375 px, in light and dark', async () => {
    await suite.page.setViewportSize({ width: 375, height: 812 });
    try {
      await openCalendar();
      // A first visit on a phone: the light day view, one day, FullCalendar waiting until the grid is used.
      assert.equal(await suite.page.locator(LIGHT_DAY).count(), 1);
      assert.equal(await suite.page.locator('.fc').count(), 0);
      await suite.page.getByRole('button', { name: 'Next day' }).waitFor();
      const overflow = await suite.page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      assert.ok(overflow <= 0, `no horizontal scrolling (${overflow}px too wide)`);
      assert.deepEqual(await seriousViolations(suite.page), []);
      await suite.page.emulateMedia({ colorScheme: 'dark' });
      // Buttons fade to their dark colours; contrast is measured once they are there.
      await suite.page.evaluate(() =>
        Promise.all(document.getAnimations().map((animation) => animation.finished)),
      );
      assert.deepEqual(await seriousViolations(suite.page), [], 'dark theme');
    } finally {
      await suite.page.emulateMedia({ colorScheme: 'light' });
      await suite.page.setViewportSize({ width: 1280, height: 900 });
    }
    assert.deepEqual(suite.browser.pageErrors.map(String), []);
  });
});
