import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import {
  aSubscription,
  anEvent,
  anOwnCalendar,
  mockApi,
  type MockHandler,
  renderPage,
  resetTestEnvironment,
} from '@time-wallet/api/testing';
import { CalendarPage } from './calendar-page';

function atToday(hours: number): string {
  const date = new Date();
  date.setHours(hours, 0, 0, 0);
  return date.toISOString();
}

const SUBSCRIPTION_COLOR = '#d97706';
const standup = anEvent({ _id: 'event-1', title: 'Team standup', start: atToday(9), end: atToday(10) });
const matchDay = anEvent({
  _id: 'sub-event-1',
  title: 'Match day',
  start: atToday(12),
  end: atToday(14),
  source: 'ics',
  calendarId: 'calendar-sub-1',
  readOnly: true,
});
const holiday = anEvent({
  _id: 'sub-event-2',
  title: 'Founders Day',
  start: atToday(0),
  end: new Date(new Date(atToday(0)).getTime() + 86_400_000).toISOString(),
  allDay: true,
  source: 'ics',
  calendarId: 'calendar-sub-1',
  readOnly: true,
});

function renderCalendar(routes: Record<string, MockHandler> = {}) {
  const network = mockApi({
    'GET /events': { body: [standup, matchDay, holiday] },
    'GET /tasks/range': { body: { tasks: [] } },
    'GET /ledger': { body: { days: [] } },
    'GET /categories': { body: [] },
    'GET /calendars': {
      body: {
        calendars: [anOwnCalendar(), aSubscription({ name: 'Football club', color: SUBSCRIPTION_COLOR })],
      },
    },
    ...routes,
  });
  renderPage(<CalendarPage />, { path: '/app/calendar' });
  return network;
}

const blockOf = (title: HTMLElement) => title.closest<HTMLElement>('.fc-event');

beforeEach(() => resetTestEnvironment());
afterEach(() => {
  act(() => toast.remove());
  jest.restoreAllMocks();
});

it("draws a subscribed event in its calendar's colour with a lock, and neither drags nor resizes it", async () => {
  renderCalendar();
  const grid = await screen.findByRole('region', { name: 'Week time grid' });
  const subscribed = blockOf(await within(grid).findByText('Match day'));
  const own = blockOf(within(grid).getByText('Team standup'));
  await waitFor(() => expect(subscribed?.style.borderColor).toBe('rgb(217, 119, 6)'));

  // By its label and role attribute: jsdom lays nothing out, and FullCalendar keeps unmeasured blocks hidden meanwhile.
  expect(within(subscribed!).getByLabelText('read-only')).toHaveAttribute('role', 'img');
  expect(within(own!).queryByLabelText('read-only')).not.toBeInTheDocument();
  // FullCalendar marks what it lets the pointer move and gives resizable blocks a handle.
  expect(own).toHaveClass('fc-event-draggable');
  expect(subscribed).not.toHaveClass('fc-event-draggable');
  expect(subscribed).not.toHaveClass('fc-event-resizable');
  expect(subscribed?.querySelector('.fc-event-resizer')).toBeNull();
});

it('opens a subscribed event read-only: no Save or Delete, and Copy to my calendar copies it', async () => {
  const user = userEvent.setup();
  const network = renderCalendar({
    'POST /events/sub-event-1/copy': {
      status: 201,
      body: { ...matchDay, _id: 'copy-1', calendarId: 'user-1', readOnly: false },
    },
  });
  await user.click(await screen.findByText('Match day'));

  const dialog = screen.getByRole('dialog', { name: 'Event details' });
  expect(within(dialog).getByText('Match day')).toBeInTheDocument();
  expect(within(dialog).getByText(/Football club/, { selector: 'dd' })).toBeInTheDocument();
  expect(within(dialog).queryByRole('textbox')).not.toBeInTheDocument();
  expect(within(dialog).queryByRole('button', { name: /Update|Save/ })).not.toBeInTheDocument();
  expect(within(dialog).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();

  await user.click(within(dialog).getByRole('button', { name: 'Copy to my calendar' }));

  expect(await screen.findByText('Copied to My calendar')).toBeInTheDocument();
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  expect(network.requestsTo('POST', '/events/sub-event-1/copy')).toHaveLength(1);
  await waitFor(() => expect(network.requestsTo('GET', '/events')).toHaveLength(2));
  expect(network.requestsTo('PATCH', '/events/sub-event-1')).toHaveLength(0);
});

it('keeps the dialog open and says why when the copy fails', async () => {
  const user = userEvent.setup();
  renderCalendar({
    'POST /events/sub-event-1/copy': {
      status: 409,
      body: { message: 'You have reached the limit of events' },
    },
  });
  await user.click(await screen.findByText('Match day'));
  const dialog = screen.getByRole('dialog', { name: 'Event details' });
  await user.click(within(dialog).getByRole('button', { name: 'Copy to my calendar' }));
  expect(await within(dialog).findByRole('alert')).toHaveTextContent('You have reached the limit of events');
  await user.click(within(dialog).getByRole('button', { name: 'Close' }));
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
});

it('marks a subscribed all-day event with the lock and opens it read-only too', async () => {
  const user = userEvent.setup();
  renderCalendar();
  const allDay = await screen.findByRole('region', { name: 'All day' });
  const button = within(allDay).getByRole('button', { name: /Founders Day/ });
  expect(within(button).getByRole('img', { name: 'read-only' })).toBeInTheDocument();
  await user.click(button);
  const dialog = screen.getByRole('dialog', { name: 'Event details' });
  expect(within(dialog).getByText(/all day/)).toBeInTheDocument();
  expect(within(dialog).getByRole('button', { name: 'Copy to my calendar' })).toBeInTheDocument();
});

it('still opens own events in the edit dialog', async () => {
  const user = userEvent.setup();
  renderCalendar();
  await user.click(await screen.findByText('Team standup'));
  expect(screen.getByRole('dialog', { name: 'Edit Event' })).toBeInTheDocument();
});
