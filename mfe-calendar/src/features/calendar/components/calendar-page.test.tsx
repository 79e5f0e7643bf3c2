import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { addDays, toLocalDateKey } from '@time-wallet/shared-ui/lib';
import {
  anEvent,
  mockApi,
  type MockHandler,
  renderPage,
  resetTestEnvironment,
} from '@time-wallet/api/testing';
import { layOutWeekGrid } from '../../../testing/week-grid-layout';
import type { ImportSummary } from '../api/events-api';
import { CalendarPage } from './calendar-page';

function thisWeekSunday(): string {
  const today = new Date();
  return addDays(toLocalDateKey(today), -today.getDay());
}

function atToday(hours: number, minutes = 0): string {
  const date = new Date();
  date.setHours(hours, minutes, 0, 0);
  return date.toISOString();
}

const standup = anEvent({ _id: 'event-1', title: 'Team standup', start: atToday(9), end: atToday(10) });
const holiday = anEvent({
  _id: 'event-2',
  title: 'Founders Day',
  start: atToday(0),
  end: new Date(new Date(atToday(0)).getTime() + 86_400_000).toISOString(),
  allDay: true,
  source: 'ics',
});

function renderCalendar(routes: Record<string, MockHandler> = {}) {
  const network = mockApi({
    'GET /events': { body: [standup, holiday] },
    'GET /tasks/range': { body: { tasks: [] } },
    'GET /ledger': { body: { days: [] } },
    'GET /categories': { body: [] },
    ...routes,
  });
  const view = renderPage(<CalendarPage />, { path: '/app/calendar' });
  return { ...view, network };
}

beforeEach(() => resetTestEnvironment());
afterEach(() => {
  act(() => toast.remove());
  jest.restoreAllMocks();
});

it('asks for the visible week, from its Sunday to the view end plus one day, and shows its events', async () => {
  const { network } = renderCalendar();
  expect(await screen.findByText('Team standup')).toBeInTheDocument();
  const from = thisWeekSunday();
  expect(network.requestsTo('GET', '/events')[0].path).toBe(`/events?from=${from}&to=${addDays(from, 8)}`);
  expect(screen.getByRole('heading', { level: 1, name: 'Calendar' })).toBeInTheDocument();
  expect(screen.getByRole('link', { name: /Back to Wallet/ })).toHaveAttribute('href', '/app/wallet');
  expect(screen.getByRole('button', { name: 'today' })).toBeDisabled();
});

it('opens on the week of the day a link names (?date=), and on this week for a day that does not exist', async () => {
  const openAt = (url: string) => {
    const network = mockApi({
      'GET /events': { body: [] },
      'GET /tasks/range': { body: { tasks: [] } },
      'GET /ledger': { body: { days: [] } },
      'GET /categories': { body: [] },
    });
    return { network, ...renderPage(<CalendarPage />, { path: '/app/calendar', initialEntries: [url] }) };
  };
  const firstRead = async (network: ReturnType<typeof mockApi>) => {
    await waitFor(() => expect(network.requestsTo('GET', '/events').length).toBeGreaterThan(0));
    return network.requestsTo('GET', '/events')[0].path;
  };
  // Wednesday 13 January 2027: its week starts on Sunday the 10th.
  const linked = openAt('/app/calendar?date=2027-01-13');
  expect(await firstRead(linked.network)).toBe('/events?from=2027-01-10&to=2027-01-18');
  linked.unmount();

  const from = thisWeekSunday();
  expect(await firstRead(openAt('/app/calendar?date=2027-02-30').network)).toBe(
    `/events?from=${from}&to=${addDays(from, 8)}`,
  );
});

it('asks for the next week after Next week', async () => {
  const user = userEvent.setup();
  const { network } = renderCalendar();
  await screen.findByText('Team standup');
  await user.click(screen.getByRole('button', { name: 'Next week' }));
  const from = addDays(thisWeekSunday(), 7);
  await waitFor(() =>
    expect(network.requestsTo('GET', '/events').map((request) => request.path)).toContain(
      `/events?from=${from}&to=${addDays(from, 8)}`,
    ),
  );
  expect(screen.getByRole('button', { name: 'today' })).toBeEnabled();
});

it('lists all-day events above the grid and marks imported ones', async () => {
  renderCalendar();
  const allDay = await screen.findByRole('region', { name: 'All day' });
  expect(within(allDay).getByRole('button', { name: /Founders Day/ })).toHaveClass('imported');
});

it('edits an event through the modal and refetches the week', async () => {
  const user = userEvent.setup();
  const { network } = renderCalendar({
    'PATCH /events/event-1': (request) => ({ body: { ...standup, ...(request.body as object) } }),
  });
  await user.click(await screen.findByText('Team standup'));
  const dialog = screen.getByRole('dialog', { name: 'Edit Event' });
  await user.clear(within(dialog).getByLabelText('Title'));
  await user.type(within(dialog).getByLabelText('Title'), 'Planning');
  await user.click(within(dialog).getByRole('button', { name: 'Update Event' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  expect(network.requestsTo('PATCH', '/events/event-1')[0].body).toEqual({
    title: 'Planning',
    start: standup.start,
    end: standup.end,
    allDay: false,
    categoryId: null,
  });
  await waitFor(() => expect(network.requestsTo('GET', '/events')).toHaveLength(2));
});

it('creates an event from Add Event, sending ISO UTC instants', async () => {
  const user = userEvent.setup();
  const { network } = renderCalendar({ 'POST /events': { status: 201, body: standup } });
  await screen.findByText('Team standup');
  await user.click(screen.getByRole('button', { name: 'Add Event' }));
  const dialog = screen.getByRole('dialog', { name: 'New Event' });
  await user.type(within(dialog).getByLabelText('Title'), 'Focus time');
  const start = within(dialog).getByLabelText<HTMLInputElement>('Start').value;
  const end = within(dialog).getByLabelText<HTMLInputElement>('End').value;
  await user.click(within(dialog).getByRole('button', { name: 'Create Event' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  expect(network.requestsTo('POST', '/events')[0].body).toEqual({
    title: 'Focus time',
    start: new Date(start).toISOString(),
    end: new Date(end).toISOString(),
    allDay: false,
    categoryId: null,
  });
  expect(new Date(end).getTime() - new Date(start).getTime()).toBe(3_600_000);
  await waitFor(() => expect(network.requestsTo('GET', '/events')).toHaveLength(2));
});

it('adds an event on the week in sight: another week starts on its first day at 09:00', async () => {
  const user = userEvent.setup();
  renderCalendar();
  await screen.findByText('Team standup');
  await user.click(screen.getByRole('button', { name: 'Next week' }));
  await user.click(screen.getByRole('button', { name: 'Add Event' }));
  const dialog = screen.getByRole('dialog', { name: 'New Event' });
  const sunday = addDays(thisWeekSunday(), 7);
  expect(within(dialog).getByLabelText('Start')).toHaveValue(`${sunday}T09:00`);
  expect(within(dialog).getByLabelText('End')).toHaveValue(`${sunday}T10:00`);
});

it('goes to the week of an event saved on a day not in sight, and stays for one in sight', async () => {
  const user = userEvent.setup();
  const { network } = renderCalendar({
    'POST /events': (request) => ({ status: 201, body: { ...standup, ...(request.body as object) } }),
  });
  await screen.findByText('Team standup');
  const readWeeks = () => network.requestsTo('GET', '/events').map((request) => request.path.slice(13, 23));
  const create = async (day: string) => {
    await user.click(screen.getByRole('button', { name: 'Add Event' }));
    const dialog = screen.getByRole('dialog', { name: 'New Event' });
    await user.type(within(dialog).getByLabelText('Title'), 'Offsite');
    for (const [label, time] of [
      ['End', '12:00'],
      ['Start', '11:00'],
    ]) {
      await user.clear(within(dialog).getByLabelText(label));
      await user.type(within(dialog).getByLabelText(label), `${day}T${time}`);
    }
    await user.click(within(dialog).getByRole('button', { name: 'Create Event' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  };

  const thisWeek = thisWeekSunday();
  await create(addDays(thisWeek, 3));
  await waitFor(() => expect(network.requestsTo('GET', '/events')).toHaveLength(2));
  expect(new Set(readWeeks())).toEqual(new Set([thisWeek]));

  const inThreeWeeks = addDays(thisWeek, 21);
  await create(addDays(inThreeWeeks, 2));
  await waitFor(() => expect(readWeeks()).toContain(inThreeWeeks));
  expect(screen.getByRole('button', { name: 'today' })).toBeEnabled();
});

it('keeps the modal open and shows the banner when creating fails', async () => {
  const user = userEvent.setup();
  renderCalendar({ 'POST /events': { status: 500, body: { message: 'boom' } } });
  await screen.findByText('Team standup');
  await user.click(screen.getByRole('button', { name: 'Add Event' }));
  await user.type(screen.getByLabelText('Title'), 'Focus time');
  await user.click(screen.getByRole('button', { name: 'Create Event' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Failed to create event');
  // Shown in the dialog itself: the page's banner would sit behind the backdrop.
  expect(within(screen.getByRole('dialog', { name: 'New Event' })).getByRole('alert')).toHaveTextContent(
    'Failed to create event',
  );
  await user.keyboard('{Escape}');
  expect(screen.getByRole('alert')).toHaveTextContent('Failed to create event');
});

it("shows the server's reason on the field it names, and a blank title before sending", async () => {
  const user = userEvent.setup();
  const reason = 'Title must not exceed 200 characters';
  const { network } = renderCalendar({
    'POST /events': { status: 400, body: { message: reason, errors: [{ field: 'title', message: reason }] } },
  });
  await screen.findByText('Team standup');
  await user.click(screen.getByRole('button', { name: 'Add Event' }));
  const dialog = screen.getByRole('dialog', { name: 'New Event' });
  const title = within(dialog).getByLabelText('Title');
  await user.type(title, '   ');
  await user.click(within(dialog).getByRole('button', { name: 'Create Event' }));
  expect(title).toHaveAccessibleDescription('Title is required');
  expect(network.requestsTo('POST', '/events')).toHaveLength(0);

  await user.type(title, 'x'.repeat(30));
  await user.click(within(dialog).getByRole('button', { name: 'Create Event' }));
  await waitFor(() => expect(title).toHaveAccessibleDescription(reason));
  expect(within(dialog).getByRole('alert')).toHaveTextContent('Failed to create event');
});

it('deletes an event from the edit modal, and explains a failed delete', async () => {
  const user = userEvent.setup();
  let fail = true;
  renderCalendar({ 'DELETE /events/event-1': () => (fail ? { status: 500 } : { status: 204 }) });
  await user.click(await screen.findByText('Team standup'));
  await user.click(screen.getByRole('button', { name: 'Delete' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('Failed to delete event');
  fail = false;
  await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

it('offers Undo after a delete, which brings the event back', async () => {
  const user = userEvent.setup();
  const { network } = renderCalendar({
    'DELETE /events/event-1': { status: 204 },
    'POST /events/event-1/restore': { body: standup },
  });
  await user.click(await screen.findByText('Team standup'));
  await user.click(screen.getByRole('button', { name: 'Delete' }));
  expect(await screen.findByText('Event "Team standup" deleted')).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Undo' }));
  expect(await screen.findByText('Event restored')).toBeInTheDocument();
  expect(network.requestsTo('POST', '/events/event-1/restore')).toHaveLength(1);
  await waitFor(() => expect(network.requestsTo('GET', '/events').length).toBeGreaterThanOrEqual(3));
});

it('shows a dismissible banner when the events cannot be loaded', async () => {
  const user = userEvent.setup();
  renderCalendar({ 'GET /events': { status: 500 } });
  expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load events');
  await user.click(screen.getByRole('button', { name: 'Dismiss' }));
  expect(screen.queryByRole('alert')).not.toBeInTheDocument();
});

describe('ICS import and export', () => {
  const icsFile = (content = 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n') =>
    new File([content], 'holidays.ics', { type: 'text/calendar' });
  const imported = (summary: Partial<ImportSummary>) => ({
    body: {
      created: 0,
      updated: 0,
      duplicates: 0,
      skipped: 0,
      skippedEvents: [],
      importedOnce: [],
      ...summary,
    },
  });
  const precedes = (first: Element, second: Element) =>
    Boolean(first.compareDocumentPosition(second) & Node.DOCUMENT_POSITION_FOLLOWING);
  /** The polite live region between the page's header and the controls above the grid. */
  const importRegion = () => {
    const heading = screen.getByRole('heading', { level: 1, name: 'Calendar' });
    const goToDate = screen.getByLabelText('Go to date');
    const regions = screen
      .getAllByRole('status')
      .filter((region) => precedes(heading, region) && precedes(region, goToDate));
    expect(regions).toHaveLength(1);
    return regions[0];
  };
  const countsIn = (result: HTMLElement) =>
    Object.fromEntries(
      within(result)
        .getAllByRole('term')
        .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
    );

  it('says what an import did in a polite region under the header, one line per count', async () => {
    const user = userEvent.setup();
    renderCalendar({
      'POST /events/import': imported({ created: 3, updated: 1, duplicates: 1, skipped: 2 }),
    });
    await screen.findByText('Team standup');
    // There before any import, so assistive technology is already listening when a result comes.
    const region = importRegion();
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toBeEmptyDOMElement();

    await user.upload(screen.getByLabelText('Import .ics'), icsFile());
    const result = await within(region).findByRole('group', { name: 'Imported holidays.ics' });
    expect(countsIn(result)).toEqual({
      Created: '3',
      Updated: '1',
      'Duplicates skipped': '1',
      'Skipped in all': '2',
    });
    expect(screen.queryByText(/could not be read/)).not.toBeInTheDocument();
  });

  it('puts the result in the flow: none of its styles takes it out to lie over the page', () => {
    const css = readFileSync(join(__dirname, 'import-result.module.css'), 'utf8');
    expect(css).not.toMatch(/position:\s*(fixed|absolute|sticky)/);
    expect(readFileSync(join(__dirname, 'ics-controls.module.css'), 'utf8')).not.toMatch(
      /\.outcome|\.status/,
    );
  });

  it('is dismissed from the keyboard, right after the import controls, and focus goes back to the import', async () => {
    const user = userEvent.setup();
    renderCalendar({ 'POST /events/import': imported({ created: 1 }) });
    await screen.findByText('Team standup');
    const importInput = screen.getByLabelText('Import .ics');

    await user.upload(importInput, icsFile());
    await screen.findByRole('group', { name: 'Imported holidays.ics' });
    screen.getByRole('button', { name: 'Export .ics' }).focus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Dismiss import result' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(importRegion()).toBeEmptyDOMElement();
    expect(importInput).toHaveFocus();
  });

  it('lists the events the server could not read, each with its reason, behind a disclosure', async () => {
    const user = userEvent.setup();
    renderCalendar({
      'POST /events/import': imported({
        created: 2,
        skipped: 2,
        skippedEvents: [
          { uid: 'a@x', summary: 'Board meeting', reason: 'It has no start (DTSTART)' },
          { uid: 'b@x', summary: '', reason: 'The event is cut off: the file ends before its END:VEVENT' },
        ],
      }),
    });
    await screen.findByText('Team standup');
    await user.upload(screen.getByLabelText('Import .ics'), icsFile());
    await user.click(await screen.findByText('Why 2 events could not be read'));
    expect(screen.getByText('Board meeting: It has no start (DTSTART)')).toBeVisible();
    expect(screen.getByText('b@x: The event is cut off: the file ends before its END:VEVENT')).toBeVisible();
  });

  it('lists the events imported once, their repeat rule unusable, each with why, apart from the unread', async () => {
    const user = userEvent.setup();
    renderCalendar({
      'POST /events/import': imported({
        created: 2,
        importedOnce: [
          {
            uid: 'tick@x',
            summary: 'Tick',
            reason: 'A series repeats at most daily: FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY',
          },
        ],
      }),
    });
    await screen.findByText('Team standup');
    await user.upload(screen.getByLabelText('Import .ics'), icsFile());
    await user.click(await screen.findByText('1 event imported once: its repeat rule cannot be used'));
    expect(
      screen.getByText('Tick: A series repeats at most daily: FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY'),
    ).toBeVisible();
    expect(screen.queryByText(/could not be read/)).not.toBeInTheDocument();
  });

  it('uploads the file as multipart field "file" and refetches the events', async () => {
    const user = userEvent.setup();
    const { network } = renderCalendar({ 'POST /events/import': imported({ created: 3 }) });
    await screen.findByText('Team standup');
    await user.upload(screen.getByLabelText('Import .ics'), icsFile());
    await screen.findByRole('group', { name: 'Imported holidays.ics' });
    const [upload] = network.requestsTo('POST', '/events/import');
    expect(upload.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(String(upload.body)).toContain('name="file"; filename="holidays.ics"');
    await waitFor(() => expect(network.requestsTo('GET', '/events')).toHaveLength(2));
  });

  it('explains a file the server refuses', async () => {
    const user = userEvent.setup();
    renderCalendar({
      'POST /events/import': {
        status: 400,
        body: { message: 'The file is not a valid iCalendar (.ics) file' },
      },
    });
    await screen.findByText('Team standup');
    await user.upload(screen.getByLabelText('Import .ics'), icsFile('hello'));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'That file could not be imported: The file is not a valid iCalendar (.ics) file',
    );
  });

  it('refuses a file over 1 MiB without uploading it, and says so for a 413 too', async () => {
    const user = userEvent.setup();
    const { network } = renderCalendar({ 'POST /events/import': { status: 413 } });
    await screen.findByText('Team standup');
    await user.upload(screen.getByLabelText('Import .ics'), icsFile('x'.repeat(1024 * 1024 + 1)));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'That file is larger than 1 MiB. Choose a smaller .ics file.',
    );
    expect(network.requestsTo('POST', '/events/import')).toHaveLength(0);
  });

  it('downloads the export through the api, with the bearer token', async () => {
    const user = userEvent.setup();
    window.localStorage.setItem('token', 'token-1');
    const { network } = renderCalendar({ 'GET /events/export.ics': { body: 'BEGIN:VCALENDAR' } });
    const createObjectURL = jest.fn(() => 'blob:calendar');
    Object.assign(URL, { createObjectURL, revokeObjectURL: jest.fn() });
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await screen.findByText('Team standup');
    await user.click(screen.getByRole('button', { name: 'Export .ics' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const [download] = network.requestsTo('GET', '/events/export.ics');
    expect(download.headers.get('authorization')).toBe('Bearer token-1');
    expect(createObjectURL).toHaveBeenCalledWith(expect.any(Blob));
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('time-wallet.ics');
  });
});

it("keeps FullCalendar's style sheet to this page, without its icon font", async () => {
  const { unmount } = renderCalendar();
  await screen.findByText('Team standup');
  const sheet = document.head.querySelector<HTMLStyleElement>('style[data-fullcalendar]');
  expect(sheet?.sheet?.cssRules.length).toBeGreaterThan(0);
  expect([...(sheet?.sheet?.cssRules ?? [])].some((rule) => rule.cssText.startsWith('@font-face'))).toBe(
    false,
  );
  unmount();
  expect(document.head.querySelector('style[data-fullcalendar]')).toBeNull();
});

it("adds an event from the keyboard: the day column's button opens New Event at 09:00 for one hour", async () => {
  const user = userEvent.setup();
  renderCalendar();
  await screen.findByText('Team standup');
  const sunday = thisWeekSunday();
  const dayColumn = document.querySelector<HTMLElement>(`td.fc-timegrid-col[data-date="${sunday}"]`);
  // The column itself carries no name that would hide the event titles shown in it.
  expect(dayColumn).not.toHaveAttribute('aria-label');
  const add = within(dayColumn as HTMLElement).getByRole('button', { name: /^Add an event on Sunday, / });
  add.focus();
  await user.keyboard('{Enter}');
  const dialog = screen.getByRole('dialog', { name: 'New Event' });
  expect(within(dialog).getByLabelText('Start')).toHaveValue(`${sunday}T09:00`);
  expect(within(dialog).getByLabelText('End')).toHaveValue(`${sunday}T10:00`);
});

it('shows three overlapping blocks side by side and the rest behind "+N more", a dialog used from the keyboard', async () => {
  const restoreLayout = layOutWeekGrid();
  try {
    const user = userEvent.setup();
    const meetings = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'].map((title, index) =>
      anEvent({ _id: `event-m${index}`, title, start: atToday(9), end: atToday(10) }),
    );
    renderCalendar({ 'GET /events': { body: meetings } });
    const more = await screen.findByRole('button', { name: '+2 more' });
    expect(more).toHaveAttribute('aria-haspopup', 'dialog');
    expect(document.querySelectorAll('.fc-timegrid-col .fc-timegrid-event')).toHaveLength(3);
    more.focus();
    await user.keyboard('{Enter}');
    const popover = await screen.findByRole('dialog', {
      name: new Date().toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' }),
    });
    const close = within(popover).getByRole('button', { name: 'Close' });
    expect(close).toHaveFocus();
    // The blocks it lists are the two hidden ones, reached with Tab and opened with Enter.
    expect(within(popover).getAllByText(/^(Alpha|Bravo|Charlie|Delta|Echo)$/)).toHaveLength(2);
    await user.tab();
    expect(popover.querySelector('.fc-event')).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(more).toHaveFocus();
    // Its close button closes it from the keyboard too.
    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(more).toHaveFocus();
  } finally {
    restoreLayout();
  }
});
