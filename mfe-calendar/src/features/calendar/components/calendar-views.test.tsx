import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { addDays, toLocalDateKey } from '@time-wallet/shared-ui/lib';
import {
  aLedgerDay,
  aTask,
  anEvent,
  mockApi,
  renderPage,
  resetTestEnvironment,
  type MockHandler,
} from '@time-wallet/api/testing';
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

function renderCalendar(path = '/app/calendar', routes: Record<string, MockHandler> = {}) {
  const network = mockApi({
    'GET /events': { body: [standup] },
    'GET /tasks/range': { body: { tasks: [] } },
    'GET /ledger': { body: { days: [] } },
    'GET /categories': { body: [] },
    ...routes,
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
  // Today's month, even when the week started in the month before.
  const from = sundayOf(firstOfMonth);
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

const pathOf = (path: string) => (request: { path: string }) => request.path.startsWith(path);

it("goes from Month to the week of today, not the month's third week", async () => {
  const user = userEvent.setup();
  const network = renderCalendar('/app/calendar?view=month');
  await screen.findByRole('region', { name: 'Month' });
  await user.click(screen.getByRole('button', { name: 'Week' }));
  expect(await screen.findByRole('region', { name: 'Week time grid' })).toBeInTheDocument();
  const week = sundayOf(today);
  await waitFor(() => expect(eventPaths(network)).toContain(`/events?from=${week}&to=${addDays(week, 8)}`));
});

it('keeps the day gone to across a switch: its week from Month, its month from Week', async () => {
  const user = userEvent.setup();
  const network = renderCalendar('/app/calendar?view=month');
  await screen.findByRole('region', { name: 'Month' });
  // February 2027: its view starts on Sunday 31 January; two weeks in is the week of the 14th.
  await user.type(screen.getByLabelText('Go to date'), '2027-02-26');
  await waitFor(() => expect(network.requests.some(pathOf('/events?from=2027-01-31'))).toBe(true));
  await user.click(screen.getByRole('button', { name: 'Week' }));
  await screen.findByRole('region', { name: 'Week time grid' });
  // The day gone to is still in sight, so its week opens.
  await waitFor(() => expect(eventPaths(network)).toContain('/events?from=2027-02-21&to=2027-03-01'));

  // Tuesday 2 March 2027 is in the week from Sunday 28 February: Month opens March, not February.
  await user.clear(screen.getByLabelText('Go to date'));
  await user.type(screen.getByLabelText('Go to date'), '2027-03-02');
  await waitFor(() => expect(eventPaths(network)).toContain('/events?from=2027-02-28&to=2027-03-08'));
  await user.click(screen.getByRole('button', { name: 'Month' }));
  const month = await screen.findByRole('region', { name: 'Month' });
  expect(await within(month).findByRole('heading', { name: 'March 2027' })).toBeInTheDocument();
});

it("opens a month away from today at its first day's week when nothing there was gone to", async () => {
  const user = userEvent.setup();
  const network = renderCalendar('/app/calendar?view=month');
  const month = await screen.findByRole('region', { name: 'Month' });
  await user.click(within(month).getByRole('button', { name: /next month/i }));
  const nextFirst = `${addDays(firstOfMonth, 40).slice(0, 8)}01`;
  await waitFor(() =>
    expect(eventPaths(network)).toContain(
      `/events?from=${sundayOf(nextFirst)}&to=${addDays(sundayOf(nextFirst), 43)}`,
    ),
  );
  await user.click(screen.getByRole('button', { name: 'Week' }));
  await screen.findByRole('region', { name: 'Week time grid' });
  const week = sundayOf(nextFirst);
  await waitFor(() => expect(eventPaths(network)).toContain(`/events?from=${week}&to=${addDays(week, 8)}`));
});

it("shows the month's scheduled tasks, which open the task dialog, and each day's figure from the ledger", async () => {
  const user = userEvent.setup();
  const start = new Date(atToday(14));
  const task = aTask({
    _id: 'task-1',
    title: 'Write report',
    date: today,
    start: start.toISOString(),
    end: new Date(start.getTime() + 3_600_000).toISOString(),
  });
  const dismissed = aTask({ ...task, _id: 'task-2', title: 'Old chore', dismissed: true });
  const from = sundayOf(firstOfMonth);
  const network = renderCalendar('/app/calendar?view=month', {
    'GET /tasks/range': { body: { tasks: [task, dismissed] } },
    // The server's figures: 100 minutes left today (1.7 h, as the wallet shows it), 90 over the day after.
    'GET /ledger': {
      body: {
        days: [
          aLedgerDay({ date: today, plannedMinutes: 60, budgetMinutes: 480, remainingMinutes: 100 }),
          aLedgerDay({ date: addDays(today, 1), plannedMinutes: 570, budgetMinutes: 480 }),
        ],
      },
    },
  });
  const month = await screen.findByRole('region', { name: 'Month' });
  expect(await within(month).findByText('Write report')).toBeInTheDocument();
  expect(within(month).queryByText('Old chore')).not.toBeInTheDocument();
  expect(network.requestsTo('GET', '/tasks/range').map((request) => request.path)).toContain(
    `/tasks/range?from=${from}&to=${addDays(from, 43)}`,
  );
  expect(network.requestsTo('GET', '/ledger').map((request) => request.path)).toContain(
    `/ledger?from=${from}&to=${addDays(from, 43)}`,
  );
  const cellOf = (day: string) => month.querySelector(`td.fc-daygrid-day[data-date="${day}"]`) as HTMLElement;
  await waitFor(() => expect(within(cellOf(today)).getByText('1.7 h left')).toBeInTheDocument());
  expect(within(cellOf(addDays(today, 1))).getByText('Over by 1.5 h')).toBeInTheDocument();
  await user.click(within(month).getByText('Write report'));
  expect(await screen.findByRole('dialog', { name: 'Move Task' })).toBeInTheDocument();
});
