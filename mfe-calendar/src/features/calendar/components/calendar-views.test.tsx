import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { addDays, toLocalDateKey } from '@time-wallet/shared-ui/lib';
import { anEvent, mockApi, renderPage, resetTestEnvironment } from '@time-wallet/api/testing';
import { CalendarPage } from './calendar-page';

function atToday(hours: number): string {
  const date = new Date();
  date.setHours(hours, 0, 0, 0);
  return date.toISOString();
}

/** The Sunday on or before a day. */
function sundayOf(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  return addDays(day, -new Date(year, month - 1, date).getDay());
}

const standup = anEvent({ _id: 'event-1', title: 'Team standup', start: atToday(9), end: atToday(10) });
const today = toLocalDateKey();
const firstOfMonth = `${today.slice(0, 8)}01`;

function renderCalendar(path = '/app/calendar') {
  const network = mockApi({
    'GET /events': { body: [standup] },
    'GET /tasks/range': { body: { tasks: [] } },
    'GET /ledger': { body: { days: [] } },
    'GET /categories': { body: [] },
  });
  renderPage(<CalendarPage />, { path: '/app/calendar', initialEntries: [path] });
  return network;
}

const eventPaths = (network: ReturnType<typeof renderCalendar>) =>
  network.requestsTo('GET', '/events').map((request) => request.path);

beforeEach(() => resetTestEnvironment());
afterEach(() => {
  act(() => toast.remove());
  jest.restoreAllMocks();
});

it('opens the month from ?view=month, reading its six weeks, and its events open the editor', async () => {
  const user = userEvent.setup();
  const network = renderCalendar('/app/calendar?view=month');
  const month = await screen.findByRole('region', { name: 'Month' });
  expect(await within(month).findByText('Team standup')).toBeInTheDocument();
  const from = sundayOf(firstOfMonth);
  expect(eventPaths(network)).toContain(`/events?from=${from}&to=${addDays(from, 43)}`);
  expect(screen.getByRole('button', { name: 'Month' })).toHaveAttribute('aria-pressed', 'true');
  expect(screen.getByRole('button', { name: 'Week' })).toHaveAttribute('aria-pressed', 'false');
  expect(screen.queryByRole('region', { name: 'Week time grid' })).not.toBeInTheDocument();
  await user.click(within(month).getByText('Team standup'));
  expect(screen.getByRole('dialog', { name: 'Edit Event' })).toBeInTheDocument();
});

it('switches between Week and Month', async () => {
  const user = userEvent.setup();
  const network = renderCalendar();
  await screen.findByText('Team standup');
  expect(screen.getByRole('button', { name: 'Week' })).toHaveAttribute('aria-pressed', 'true');
  await user.click(screen.getByRole('button', { name: 'Month' }));
  expect(await screen.findByRole('region', { name: 'Month' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Month' })).toHaveAttribute('aria-pressed', 'true');
  const from = sundayOf(`${sundayOf(today).slice(0, 8)}01`);
  await waitFor(() => expect(eventPaths(network)).toContain(`/events?from=${from}&to=${addDays(from, 43)}`));
  await user.click(screen.getByRole('button', { name: 'Week' }));
  expect(await screen.findByRole('region', { name: 'Week time grid' })).toBeInTheDocument();
  expect(screen.queryByRole('region', { name: 'Month' })).not.toBeInTheDocument();
});

it('moves the week to the day typed in "Go to date"', async () => {
  const user = userEvent.setup();
  const network = renderCalendar();
  await screen.findByText('Team standup');
  await user.type(screen.getByLabelText('Go to date'), '2027-02-17');
  const from = '2027-02-14';
  await waitFor(() => expect(eventPaths(network)).toContain(`/events?from=${from}&to=${addDays(from, 8)}`));
});

it('moves the month to the day typed in "Go to date", and a day clicked opens its week', async () => {
  const user = userEvent.setup();
  const network = renderCalendar('/app/calendar?view=month');
  const month = await screen.findByRole('region', { name: 'Month' });
  await user.type(screen.getByLabelText('Go to date'), '2027-02-17');
  const monthFrom = '2027-01-31';
  await waitFor(() =>
    expect(eventPaths(network)).toContain(`/events?from=${monthFrom}&to=${addDays(monthFrom, 43)}`),
  );
  expect(within(month).getByRole('heading', { name: 'February 2027' })).toBeInTheDocument();
  const dayLink = within(month).getByTitle('Go to February 24, 2027');
  expect(dayLink).toHaveAttribute('role', 'link');
  await user.click(dayLink);
  expect(await screen.findByRole('region', { name: 'Week time grid' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Week' })).toHaveAttribute('aria-pressed', 'true');
  await waitFor(() => expect(eventPaths(network)).toContain(`/events?from=2027-02-21&to=2027-03-01`));
});
