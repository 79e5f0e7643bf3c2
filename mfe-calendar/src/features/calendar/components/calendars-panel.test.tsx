import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import type { Calendar } from '@time-wallet/api';
import {
  aSubscription,
  anOwnCalendar,
  deferred,
  mockApi,
  type MockHandler,
  type MockReply,
  type RecordedRequest,
  renderPage,
  resetTestEnvironment,
} from '@time-wallet/api/testing';
import { CalendarsDisclosure } from './calendars-disclosure';

const MINUTE_MS = 60_000;
const FEED_URL = 'http://api.test/api/feed/first-secret.ics';
const NEW_FEED_URL = 'http://api.test/api/feed/second-secret.ics';

/** A small server that keeps the calendars and the feed: what a call changes, the next read shows. */
function calendarServer({
  calendars = [
    anOwnCalendar({ eventCount: 4 }),
    aSubscription({ lastRefreshedAt: new Date(Date.now() - 5 * MINUTE_MS).toISOString() }),
  ],
  feedUrl = null as string | null,
  routes = {} as Record<string, MockHandler>,
  /** Holds every PATCH until it settles, to see the page before the server answers. */
  patchesWaitFor = Promise.resolve() as Promise<unknown>,
} = {}) {
  let shown: Calendar[] = calendars;
  const removed = new Map<string, Calendar>();
  let feed = feedUrl;
  const idOf = (request: RecordedRequest) => request.path.split('/')[2];
  const network = mockApi({
    'GET /calendars': () => ({ body: { calendars: shown } }),
    'PATCH /calendars/calendar-sub-1': async (request) => {
      await patchesWaitFor;
      shown = shown.map((calendar) =>
        calendar.id === idOf(request) ? { ...calendar, ...(request.body as object) } : calendar,
      );
      return { body: shown.find((calendar) => calendar.id === idOf(request)) };
    },
    'DELETE /calendars/calendar-sub-1': (request) => {
      const calendar = shown.find((candidate) => candidate.id === idOf(request));
      if (calendar) removed.set(calendar.id, calendar);
      shown = shown.filter((candidate) => candidate.id !== idOf(request));
      return { status: 204 };
    },
    'POST /calendars/calendar-sub-1/restore': (request) => {
      const calendar = removed.get(idOf(request));
      if (!calendar) return { status: 404, body: { message: 'Nothing to undo' } };
      shown = [...shown, calendar];
      return { body: calendar };
    },
    'GET /calendars/feed': () => ({ body: { url: feed } }),
    'POST /calendars/feed': () => {
      feed = feed === null ? FEED_URL : NEW_FEED_URL;
      return { body: { url: feed } };
    },
    'DELETE /calendars/feed': () => {
      feed = null;
      return { status: 204 };
    },
    ...routes,
  });
  return network;
}

async function openPanel(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Calendars' }));
  return screen.getByRole('region', { name: 'Calendars' });
}

const renderPanel = () => renderPage(<CalendarsDisclosure />, { path: '/app/calendar' });

beforeEach(() => resetTestEnvironment());
afterEach(() => {
  act(() => toast.remove());
  jest.restoreAllMocks();
});

it('opens from its button and closes with Escape, giving focus back to the button', async () => {
  const user = userEvent.setup();
  calendarServer();
  renderPanel();
  const toggle = screen.getByRole('button', { name: 'Calendars' });
  expect(toggle).toHaveAttribute('aria-expanded', 'false');
  const panel = await openPanel(user);
  expect(toggle).toHaveAttribute('aria-expanded', 'true');
  expect(toggle).toHaveAttribute('aria-controls', panel.id);
  await user.click(await within(panel).findByRole('switch', { name: /Counts in budget/ }));
  await user.keyboard('{Escape}');
  expect(screen.queryByRole('region', { name: 'Calendars' })).not.toBeInTheDocument();
  expect(toggle).toHaveFocus();
});

it('lists the own calendar and each subscription with its count, last refresh or why it failed', async () => {
  const user = userEvent.setup();
  calendarServer({
    calendars: [
      anOwnCalendar({ eventCount: 4 }),
      aSubscription({ lastRefreshedAt: new Date(Date.now() - 5 * MINUTE_MS).toISOString() }),
      aSubscription({
        id: 'calendar-sub-2',
        name: 'Team rota',
        eventCount: 1,
        lastError: 'The calendar server answered 404 Not Found',
      }),
    ],
  });
  renderPanel();
  const panel = await openPanel(user);
  await within(panel).findByRole('button', { name: 'Remove Team rota' });
  const rows = within(panel).getAllByRole('listitem');
  expect(rows.map((row) => row.textContent)).toEqual([
    expect.stringMatching(/^My calendar4 events/),
    expect.stringMatching(/^Holidays12 eventsLast refreshed 5 minutes ago/),
    expect.stringMatching(/^Team rota1 event/),
  ]);
  expect(within(rows[0]).queryByRole('switch')).not.toBeInTheDocument();
  expect(within(rows[2]).getByRole('alert')).toHaveTextContent('The calendar server answered 404 Not Found');
  expect(within(rows[1]).queryByRole('alert')).not.toBeInTheDocument();
  expect(within(rows[1]).getByRole('button', { name: 'Refresh Holidays' })).toBeEnabled();
  expect(within(rows[2]).getByRole('button', { name: 'Remove Team rota' })).toBeEnabled();
});

it('says so when there is no subscription yet', async () => {
  const user = userEvent.setup();
  calendarServer({ calendars: [anOwnCalendar()] });
  renderPanel();
  const panel = await openPanel(user);
  expect(await within(panel).findByText(/No subscriptions yet/)).toBeInTheDocument();
});

it('switches whether a subscription counts in the budget, at once, with PATCH countsInBudget', async () => {
  const user = userEvent.setup();
  const answer = deferred<void>();
  const network = calendarServer({ patchesWaitFor: answer.promise });
  renderPanel();
  const panel = await openPanel(user);
  const counting = await within(panel).findByRole('switch', { name: 'Counts in budget for Holidays' });
  expect(counting).toHaveAttribute('aria-checked', 'true');

  counting.focus();
  await user.keyboard(' ');

  // Before the server answers (the store tells the page on the next frame).
  await waitFor(() => expect(counting).toHaveAttribute('aria-checked', 'false'));
  expect(network.requestsTo('PATCH', '/calendars/calendar-sub-1')[0].body).toEqual({ countsInBudget: false });
  answer.resolve();
  await waitFor(() => expect(network.requestsTo('GET', '/calendars')).toHaveLength(2));
  expect(counting).toHaveAttribute('aria-checked', 'false');
});

it('puts the switch back and says why when the server refuses it', async () => {
  const user = userEvent.setup();
  const answer = deferred<MockReply>();
  calendarServer({ routes: { 'PATCH /calendars/calendar-sub-1': () => answer.promise } });
  renderPanel();
  const panel = await openPanel(user);
  const counting = await within(panel).findByRole('switch', { name: 'Counts in budget for Holidays' });
  await user.click(counting);
  await waitFor(() => expect(counting).toHaveAttribute('aria-checked', 'false'));

  answer.resolve({ status: 404, body: { message: 'Calendar not found' } });
  expect(await screen.findByText('Calendar not found')).toBeInTheDocument();
  await waitFor(() => expect(counting).toHaveAttribute('aria-checked', 'true'));
});

it("shows the server's reason under the URL field and moves focus there", async () => {
  const user = userEvent.setup();
  const reason = 'The address is not a calendar: the server sent a web page';
  const network = calendarServer({
    routes: {
      'POST /calendars': {
        status: 400,
        body: { message: reason, errors: [{ field: 'url', message: reason }] },
      },
    },
  });
  renderPanel();
  const panel = await openPanel(user);
  const address = within(panel).getByLabelText('Calendar address (URL)');
  await user.type(address, 'https://example.com/page');
  await user.click(within(panel).getByRole('button', { name: 'Add' }));

  const message = await within(panel).findByText(reason);
  expect(address).toHaveAttribute('aria-invalid', 'true');
  expect(address.getAttribute('aria-describedby')?.split(' ')).toContain(message.id);
  await waitFor(() => expect(address).toHaveFocus());
  expect(network.requestsTo('POST', '/calendars')[0].body).toEqual({ url: 'https://example.com/page' });
  // Said once, where it can be acted on.
  expect(within(panel).getAllByText(reason)).toHaveLength(1);
});

it('asks for an address before sending anything', async () => {
  const user = userEvent.setup();
  const network = calendarServer();
  renderPanel();
  const panel = await openPanel(user);
  await user.click(within(panel).getByRole('button', { name: 'Add' }));
  expect(within(panel).getByText("Enter the calendar's address")).toBeInTheDocument();
  await waitFor(() => expect(within(panel).getByLabelText('Calendar address (URL)')).toHaveFocus());
  expect(network.requestsTo('POST', '/calendars')).toHaveLength(0);
});

it('says under the form what names no field: the limit of subscriptions', async () => {
  const user = userEvent.setup();
  calendarServer({
    routes: {
      'POST /calendars': { status: 409, body: { message: 'You can subscribe to at most 20 calendars' } },
    },
  });
  renderPanel();
  const panel = await openPanel(user);
  await user.type(within(panel).getByLabelText('Calendar address (URL)'), 'webcal://example.com/a.ics');
  await user.click(within(panel).getByRole('button', { name: 'Add' }));
  expect(await within(panel).findByRole('alert')).toHaveTextContent(
    'You can subscribe to at most 20 calendars',
  );
});

it('adds a calendar by its address and name, then lists it', async () => {
  const user = userEvent.setup();
  const added = aSubscription({ id: 'calendar-sub-9', name: 'Team rota', eventCount: 3 });
  let subscribed = false;
  const network = calendarServer({
    routes: {
      'POST /calendars': () => {
        subscribed = true;
        return { status: 201, body: added };
      },
      'GET /calendars': () => ({ body: { calendars: [anOwnCalendar(), ...(subscribed ? [added] : [])] } }),
    },
  });
  renderPanel();
  const panel = await openPanel(user);
  await user.type(within(panel).getByLabelText('Calendar address (URL)'), 'webcal://example.com/rota.ics');
  await user.type(within(panel).getByLabelText('Name (optional)'), 'Team rota');
  await user.click(within(panel).getByRole('button', { name: 'Add' }));

  expect(await screen.findByText('Added "Team rota": 3 events')).toBeInTheDocument();
  expect(network.requestsTo('POST', '/calendars')[0].body).toEqual({
    url: 'webcal://example.com/rota.ics',
    name: 'Team rota',
  });
  expect(await within(panel).findByRole('button', { name: 'Refresh Team rota' })).toBeInTheDocument();
  expect(within(panel).getByLabelText('Calendar address (URL)')).toHaveValue('');
});

it('refreshes a subscription with a spinner while it runs and says what changed', async () => {
  const user = userEvent.setup();
  const answer = deferred<MockReply>();
  calendarServer({ routes: { 'POST /calendars/calendar-sub-1/refresh': () => answer.promise } });
  renderPanel();
  const panel = await openPanel(user);
  await user.click(await within(panel).findByRole('button', { name: 'Refresh Holidays' }));

  const pending = within(panel).getByRole('button', { name: /Refreshing Holidays/ });
  expect(pending).toHaveAttribute('aria-busy', 'true');
  expect(pending).toBeDisabled();
  answer.resolve({ body: { created: 3, updated: 1, deleted: 2, unchanged: false } });
  expect(await screen.findByText('3 new, 1 changed, 2 removed')).toBeInTheDocument();
  expect(await within(panel).findByRole('button', { name: 'Refresh Holidays' })).toBeEnabled();
});

it('says "Up to date" when the source had not changed', async () => {
  const user = userEvent.setup();
  calendarServer({
    routes: {
      'POST /calendars/calendar-sub-1/refresh': {
        body: { created: 0, updated: 0, deleted: 0, unchanged: true },
      },
    },
  });
  renderPanel();
  const panel = await openPanel(user);
  await user.click(await within(panel).findByRole('button', { name: 'Refresh Holidays' }));
  expect(await screen.findByText('Up to date')).toBeInTheDocument();
});

it('shows a failed refresh and the reason it keeps as lastError', async () => {
  const user = userEvent.setup();
  const reason = 'The calendar server did not answer within 15 s';
  let failed = false;
  calendarServer({
    routes: {
      'POST /calendars/calendar-sub-1/refresh': () => {
        failed = true;
        return { status: 422, body: { message: reason } };
      },
      'GET /calendars': () => ({
        body: { calendars: [anOwnCalendar(), aSubscription(failed ? { lastError: reason } : {})] },
      }),
    },
  });
  renderPanel();
  const panel = await openPanel(user);
  await user.click(await within(panel).findByRole('button', { name: 'Refresh Holidays' }));
  expect(await within(panel).findByRole('alert')).toHaveTextContent(reason);
  expect(screen.getAllByText(reason)).toHaveLength(2);
});

it('removes a subscription and brings it back with Undo', async () => {
  const user = userEvent.setup();
  const network = calendarServer();
  renderPanel();
  const panel = await openPanel(user);
  await user.click(await within(panel).findByRole('button', { name: 'Remove Holidays' }));

  expect(await screen.findByText('Calendar "Holidays" removed')).toBeInTheDocument();
  await waitFor(() =>
    expect(within(panel).queryByRole('button', { name: 'Refresh Holidays' })).not.toBeInTheDocument(),
  );
  expect(within(panel).getByRole('heading', { name: 'Calendars' })).toHaveFocus();
  expect(network.requestsTo('DELETE', '/calendars/calendar-sub-1')).toHaveLength(1);

  await user.click(screen.getByRole('button', { name: 'Undo' }));
  expect(await screen.findByText('Calendar "Holidays" restored')).toBeInTheDocument();
  expect(network.requestsTo('POST', '/calendars/calendar-sub-1/restore')).toHaveLength(1);
  expect(await within(panel).findByRole('button', { name: 'Refresh Holidays' })).toBeInTheDocument();
});

describe('Publish my plan', () => {
  it('publishes the plan and shows its address, read-only, with the note on refresh delays', async () => {
    const user = userEvent.setup();
    const network = calendarServer();
    renderPanel();
    const panel = await openPanel(user);
    expect(
      within(panel).getByText(
        'Google Calendar refreshes a subscribed address about every 12-24 hours; Apple Calendar within minutes.',
      ),
    ).toBeInTheDocument();
    await user.click(await within(panel).findByRole('button', { name: 'Publish' }));

    const address = await within(panel).findByLabelText('Address of your plan');
    expect(address).toHaveValue(FEED_URL);
    expect(address).toHaveAttribute('readonly');
    await waitFor(() => expect(address).toHaveFocus());
    expect(network.requestsTo('POST', '/calendars/feed')).toHaveLength(1);
  });

  it('copies the address to the clipboard', async () => {
    const user = userEvent.setup();
    const writeText = jest.spyOn(navigator.clipboard, 'writeText');
    calendarServer({ feedUrl: FEED_URL });
    renderPanel();
    const panel = await openPanel(user);
    await within(panel).findByLabelText('Address of your plan');
    await user.click(within(panel).getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Address copied')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(FEED_URL);
  });

  it('selects the address when the clipboard refuses', async () => {
    const user = userEvent.setup();
    jest
      .spyOn(navigator.clipboard, 'writeText')
      .mockRejectedValue(new DOMException('Denied', 'NotAllowedError'));
    calendarServer({ feedUrl: FEED_URL });
    renderPanel();
    const panel = await openPanel(user);
    const address = await within(panel).findByLabelText<HTMLInputElement>('Address of your plan');
    await user.click(within(panel).getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText(/The address is selected/)).toBeInTheDocument();
    expect(address).toHaveFocus();
    expect([address.selectionStart, address.selectionEnd]).toEqual([0, FEED_URL.length]);
  });

  it('regenerates the address only after saying the old one stops working', async () => {
    const user = userEvent.setup();
    const network = calendarServer({ feedUrl: FEED_URL });
    renderPanel();
    const panel = await openPanel(user);
    await within(panel).findByLabelText('Address of your plan');
    await user.click(within(panel).getByRole('button', { name: 'Regenerate' }));

    const confirm = screen.getByRole('alertdialog', { name: 'Regenerate the address?' });
    expect(confirm).toHaveTextContent('The old address will stop working');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(network.requestsTo('POST', '/calendars/feed')).toHaveLength(0);

    await user.click(within(panel).getByRole('button', { name: 'Regenerate' }));
    await user.click(
      within(screen.getByRole('alertdialog', { name: 'Regenerate the address?' })).getByRole('button', {
        name: 'Regenerate',
      }),
    );
    await waitFor(() =>
      expect(within(panel).getByLabelText('Address of your plan')).toHaveValue(NEW_FEED_URL),
    );
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(network.requestsTo('POST', '/calendars/feed')).toHaveLength(1);
  });

  it('revokes the address after asking, and offers Publish again', async () => {
    const user = userEvent.setup();
    const network = calendarServer({ feedUrl: FEED_URL });
    renderPanel();
    const panel = await openPanel(user);
    await within(panel).findByLabelText('Address of your plan');
    await user.click(within(panel).getByRole('button', { name: 'Revoke' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Revoke the address?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));

    const publish = await within(panel).findByRole('button', { name: 'Publish' });
    await waitFor(() => expect(publish).toHaveFocus());
    expect(within(panel).queryByLabelText('Address of your plan')).not.toBeInTheDocument();
    expect(network.requestsTo('DELETE', '/calendars/feed')).toHaveLength(1);
  });
});
