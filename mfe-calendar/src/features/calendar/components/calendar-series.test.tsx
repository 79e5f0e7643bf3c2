import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import {
  anEvent,
  mockApi,
  type MockHandler,
  renderPage,
  resetTestEnvironment,
} from '@time-wallet/api/testing';
import {
  afterRelease,
  layOutWeekGrid,
  moveTo,
  pressAndStartDragging,
  release,
  slotPoint,
} from '../../../testing/week-grid-layout';
import { toLocalDateKey } from '@time-wallet/shared-ui/lib';
import { CalendarPage } from './calendar-page';

function atToday(hours: number): string {
  const date = new Date();
  date.setHours(hours, 0, 0, 0);
  return date.toISOString();
}

const RULE = 'FREQ=DAILY';
const stamp = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');
const occurrence = anEvent({
  _id: `series-1_${stamp(atToday(9))}`,
  title: 'Standup',
  start: atToday(9),
  end: atToday(10),
  seriesId: 'series-1',
  rrule: RULE,
  recurrenceId: atToday(9),
});
const occurrenceUrl = `/events/${occurrence._id}`;

function renderCalendar(routes: Record<string, MockHandler> = {}) {
  const network = mockApi({
    'GET /events': { body: [occurrence] },
    'GET /tasks/range': { body: { tasks: [] } },
    'GET /ledger': { body: { days: [] } },
    'GET /categories': { body: [] },
    ...routes,
  });
  renderPage(<CalendarPage />, { path: '/app/calendar' });
  return network;
}

async function chooseScope(user: ReturnType<typeof userEvent.setup>, dialogName: string, label: string) {
  const dialog = screen.getByRole('dialog', { name: dialogName });
  await user.click(within(dialog).getByRole('radio', { name: label }));
  await user.click(
    within(dialog).getByRole('button', { name: dialogName.startsWith('Delete') ? 'Delete' : 'Save' }),
  );
}

beforeEach(() => resetTestEnvironment());
afterEach(() => {
  act(() => toast.remove());
  jest.restoreAllMocks();
});

it('marks the blocks of a series with what the rule says, and no other block', async () => {
  renderCalendar({
    'GET /events': {
      body: [occurrence, anEvent({ _id: 'single', title: 'Lunch', start: atToday(12), end: atToday(13) })],
    },
  });
  const grid = await screen.findByRole('region', { name: 'Week time grid' });
  await within(grid).findByText('Lunch');
  const [marker] = within(grid).getAllByLabelText(/^Repeats/);
  expect(within(grid).getAllByLabelText(/^Repeats/)).toHaveLength(1);
  // Its name, by attribute: jsdom lays nothing out, and FullCalendar keeps unmeasured blocks hidden meanwhile.
  expect(marker).toHaveAttribute('aria-label', 'Repeats: Daily');
  expect(marker).toHaveAttribute('role', 'img');
});

it('creates a repeating all-day event, sending its rule and whole days', async () => {
  const user = userEvent.setup();
  const network = renderCalendar({ 'POST /events': { status: 201, body: occurrence } });
  await screen.findByText('Standup');
  await user.click(screen.getByRole('button', { name: 'Add Event' }));
  const dialog = screen.getByRole('dialog', { name: 'New Event' });
  await user.type(within(dialog).getByLabelText('Title'), 'Holiday');
  await user.click(within(dialog).getByRole('checkbox', { name: 'All day' }));
  const day = within(dialog).getByLabelText<HTMLInputElement>('Start').value;
  await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Repeat' }), 'Daily');
  await user.click(within(dialog).getByRole('button', { name: 'Create Event' }));
  await waitFor(() => expect(network.requestsTo('POST', '/events')).toHaveLength(1));
  const [year, month, date] = day.split('-').map(Number);
  expect(network.requestsTo('POST', '/events')[0].body).toEqual({
    title: 'Holiday',
    start: new Date(year, month - 1, date).toISOString(),
    end: new Date(year, month - 1, date + 1).toISOString(),
    allDay: true,
    categoryId: null,
    rrule: RULE,
  });
});

it.each(['this', 'following', 'all'] as const)(
  'sends an edit of an occurrence with scope=%s, without the rule it did not change',
  async (scope) => {
    const user = userEvent.setup();
    const network = renderCalendar({
      [`PATCH ${occurrenceUrl}`]: { body: occurrence },
    });
    await user.click(await screen.findByText('Standup'));
    const dialog = screen.getByRole('dialog', { name: 'Edit Event' });
    await user.clear(within(dialog).getByLabelText('Title'));
    await user.type(within(dialog).getByLabelText('Title'), 'Daily sync');
    await user.click(within(dialog).getByRole('button', { name: 'Update Event' }));
    const label = { this: 'This event', following: 'This and following events', all: 'All events' }[scope];
    await chooseScope(user, 'Edit recurring event', label);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [request] = network.requestsTo('PATCH', occurrenceUrl);
    expect(request.path).toBe(`${occurrenceUrl}?scope=${scope}`);
    expect(request.body).toEqual({
      title: 'Daily sync',
      start: occurrence.start,
      end: occurrence.end,
      allDay: false,
      categoryId: null,
    });
  },
);

it('sends a changed rule with the scope chosen', async () => {
  const user = userEvent.setup();
  const network = renderCalendar({ [`PATCH ${occurrenceUrl}`]: { body: occurrence } });
  await user.click(await screen.findByText('Standup'));
  await user.selectOptions(screen.getByRole('combobox', { name: 'Repeat' }), 'Does not repeat');
  await user.click(screen.getByRole('button', { name: 'Update Event' }));
  await chooseScope(user, 'Edit recurring event', 'This and following events');
  await waitFor(() => expect(network.requestsTo('PATCH', occurrenceUrl)).toHaveLength(1));
  expect(network.requestsTo('PATCH', occurrenceUrl)[0]).toMatchObject({
    path: `${occurrenceUrl}?scope=following`,
    body: expect.objectContaining({ rrule: '' }),
  });
});

it.each([
  ['This event', 'this'],
  ['All events', 'all'],
  ['This and following events', 'following'],
])(
  'deletes on "%s" in one request with its scope, and Undo restores by the same id',
  async (choice, scope) => {
    const user = userEvent.setup();
    const network = renderCalendar({
      [`DELETE ${occurrenceUrl}`]: { status: 204 },
      [`POST ${occurrenceUrl}/restore`]: { body: occurrence },
    });
    await user.click(await screen.findByText('Standup'));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await chooseScope(user, 'Delete recurring event', choice);
    expect(await screen.findByText('Event "Standup" deleted')).toBeInTheDocument();
    expect(network.requestsTo('DELETE', occurrenceUrl)).toEqual([
      expect.objectContaining({ path: `${occurrenceUrl}?scope=${scope}` }),
    ]);
    expect(network.requestsTo('PATCH', '/events/series-1')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Event restored')).toBeInTheDocument();
    expect(network.requestsTo('POST', `${occurrenceUrl}/restore`)).toHaveLength(1);
  },
);

describe('dragging a block of a repeating event', () => {
  let restoreLayout: () => void;
  beforeEach(() => {
    restoreLayout = layOutWeekGrid();
  });
  afterEach(() => restoreLayout());

  const today = toLocalDateKey();
  const blockOf = (title: string) =>
    within(screen.getByRole('region', { name: 'Week time grid' }))
      .getByText(title)
      .closest('.fc-event') as HTMLElement;
  const at = (hours: number) => {
    const date = new Date();
    date.setHours(hours, 0, 0, 0);
    return date.toISOString();
  };

  async function dragStandupTo11() {
    await screen.findByText('Standup');
    await pressAndStartDragging(blockOf('Standup'), slotPoint(today, '09:00'));
    moveTo(slotPoint(today, '11:00'));
    release(slotPoint(today, '11:00'));
    await afterRelease();
  }

  it('asks which occurrences move, and moves them', async () => {
    const user = userEvent.setup();
    const network = renderCalendar({ [`PATCH ${occurrenceUrl}`]: { body: occurrence } });
    await dragStandupTo11();
    expect(network.requestsTo('PATCH', occurrenceUrl)).toHaveLength(0);
    await chooseScope(user, 'Edit recurring event', 'All events');
    await waitFor(() => expect(network.requestsTo('PATCH', occurrenceUrl)).toHaveLength(1));
    expect(network.requestsTo('PATCH', occurrenceUrl)[0]).toMatchObject({
      path: `${occurrenceUrl}?scope=all`,
      body: { start: at(11), end: at(12), allDay: false },
    });
  });

  it('puts the block back on Cancel, sending nothing', async () => {
    const user = userEvent.setup();
    const network = renderCalendar();
    await dragStandupTo11();
    const dialog = screen.getByRole('dialog', { name: 'Edit recurring event' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(network.requestsTo('PATCH', occurrenceUrl)).toHaveLength(0);
    expect(blockOf('Standup')).toHaveTextContent('09:00');
  });
});
