import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type LedgerDay, type ResponseOf, type User, WALLET_STORE_KEY } from '@time-wallet/api';
import { addDays, toLocalDateKey } from '@time-wallet/shared-ui/lib';
import {
  aLedgerDay,
  deferred,
  mockApi,
  type MockHandler,
  type MockReply,
  NETWORK_FAILURE,
  renderPage,
  signedInStore,
  TEST_USER,
  usePageTestEnvironment,
} from '@time-wallet/api/testing';
import { WalletPage } from './wallet-page';

const user = userEvent.setup({ delay: null });

type WalletAnswer = ResponseOf<'/api/tasks/today', 'get'>;

/**
 * GET /tasks/today: spentHours as given (even a wrong one), remaining as the server works it out (from whole minutes,
 * so budget - spent here), the other ledger figures 0 unless told.
 */
const wallet = (spentHours: unknown, budgetHours = 15, ledger: Partial<WalletAnswer> = {}): MockReply => ({
  body: {
    date: '2026-11-20',
    spentHours,
    plannedHours: spentHours,
    trackedHours: 0,
    unscheduledHours: 0,
    budgetHours,
    remainingHours:
      typeof spentHours === 'number' && spentHours >= 0
        ? Math.round(Math.max(0, budgetHours - spentHours) * 10) / 10
        : budgetHours,
    overHours: 0,
    tasks: [],
    ...ledger,
  },
});

const today = toLocalDateKey();
/** GET /ledger for today, as the wallet reads it for how far the day runs over. */
const LEDGER = `GET /ledger?from=${today}&to=${addDays(today, 1)}`;
const ledgerOf = (changes: Partial<LedgerDay> = {}): MockReply => ({
  body: { days: [aLedgerDay({ date: today, ...changes })] },
});

/** An event of today ending at a local clock time, so the expected 'Due At:' does not depend on the time zone. */
const eventEndingAt = (id: string, title: string, hours: number, minutes: number) => {
  const end = new Date();
  end.setHours(hours, minutes, 0, 0);
  const start = new Date(end.getTime() - 30 * 60_000);
  return {
    _id: id,
    title,
    start: start.toISOString(),
    end: end.toISOString(),
    allDay: false,
    source: 'manual',
  };
};

function renderWallet(routes: Record<string, MockHandler> = {}, user?: User) {
  const server = mockApi({
    'GET /tasks/today': wallet(2),
    'GET /events/today': { body: [] },
    [LEDGER]: ledgerOf({ plannedMinutes: 120 }),
    ...routes,
  });
  const view = renderPage(<WalletPage />, {
    path: '/app/wallet',
    store: user ? signedInStore(user) : undefined,
  });
  return { server, ...view };
}

const figureOf = (cardTitle: string) =>
  screen.getByRole('heading', { level: 3, name: cardTitle }).parentElement as HTMLElement;

describe('WalletPage', () => {
  usePageTestEnvironment({ token: 'token-1' });

  it('shows its title, subtitle and the three wallet cards in hours', async () => {
    const { server } = renderWallet({ 'GET /tasks/today': wallet(6.5, 10) });

    expect(screen.getByRole('heading', { level: 1, name: 'Manage Time Wallet' })).toBeInTheDocument();
    expect(screen.getByText('Balance habits, reminders, events, activites')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Your Wallet' })).toBeInTheDocument();
    await waitFor(() => expect(figureOf('Spent Hours')).toHaveTextContent('6.5 hours'));
    expect(figureOf('Budget Hours')).toHaveTextContent('10 hours');
    expect(figureOf('Remaining')).toHaveTextContent('3.5 hours');
    expect(server.requestsTo('GET', '/tasks/today')[0].headers.get('Authorization')).toBe('Bearer token-1');
  });

  it("shows the server's remaining, not the budget less the rounded spent hours", async () => {
    // 5 h 15 min planned of 15 h: the server says 5.3 spent and 9.75 -> 9.8 remaining (15 - 5.3 would say 9.7).
    renderWallet({ 'GET /tasks/today': wallet(5.3, 15, { remainingHours: 9.8 }) });
    await waitFor(() => expect(figureOf('Spent Hours')).toHaveTextContent('5.3 hours'));
    expect(figureOf('Remaining')).toHaveTextContent('9.8 hours');
  });

  it('says once how far the plan runs over the budget, as the server counts it, Remaining staying at 0', async () => {
    renderWallet({
      'GET /tasks/today': wallet(9.3, 8, { overHours: 1.3 }),
      [LEDGER]: ledgerOf({ plannedMinutes: 558, budgetMinutes: 480, overMinutes: 78 }),
    });
    await waitFor(() => expect(figureOf('Spent Hours')).toHaveTextContent('9.3 hours'));
    expect(figureOf('Remaining')).toHaveTextContent('0 hours');
    expect(await within(figureOf('Remaining')).findByText('Over budget by 1.3 h')).toHaveClass('over');
    expect(screen.getAllByText(/Over budget/)).toHaveLength(1);
  });

  it("says a plan a minute over is over, from the ledger's minutes, where overHours reads 0", async () => {
    renderWallet({
      'GET /tasks/today': wallet(8, 8, { overHours: 0 }),
      [LEDGER]: ledgerOf({ plannedMinutes: 481, budgetMinutes: 480, overMinutes: 1 }),
    });
    expect(await within(figureOf('Remaining')).findByText('Over budget by 1 min')).toHaveClass('over');
    expect(figureOf('Remaining')).toHaveTextContent('0 hours');
  });

  it("says how far over from the wallet's overHours while the ledger is not there", async () => {
    renderWallet({
      'GET /tasks/today': wallet(9.3, 8, { overHours: 1.3 }),
      [LEDGER]: { status: 500 },
    });
    expect(await within(figureOf('Remaining')).findByText('Over budget by 1.3 h')).toBeInTheDocument();
  });

  it('says nothing of going over within the budget', async () => {
    renderWallet({
      'GET /tasks/today': wallet(8, 8),
      [LEDGER]: ledgerOf({ plannedMinutes: 480, budgetMinutes: 480 }),
    });
    await waitFor(() => expect(figureOf('Spent Hours')).toHaveTextContent('8 hours'));
    expect(screen.queryByText(/Over budget/)).not.toBeInTheDocument();
  });

  it('shows the spent hours as planned, with the hours tracked and the estimates not yet planned', async () => {
    renderWallet({ 'GET /tasks/today': wallet(6.5, 10, { trackedHours: 2.3, unscheduledHours: 1.5 }) });
    await waitFor(() => expect(figureOf('Spent Hours')).toHaveTextContent('6.5 hours'));
    expect(figureOf('Spent Hours')).toHaveTextContent('Planned for today');
    const detail = (label: string) =>
      within(within(figureOf('Spent Hours')).getByText(label).parentElement as HTMLElement).getByRole(
        'definition',
      );
    expect(detail('Tracked')).toHaveTextContent('2.3 h');
    expect(detail('Unscheduled estimates')).toHaveTextContent('1.5 h');
  });

  it('paints the last known wallet from wallet-store while the fetch runs, then stores the new one', async () => {
    window.localStorage.setItem(
      WALLET_STORE_KEY,
      JSON.stringify({
        spentHours: 4,
        budgetHours: 12,
        remainingHours: 8,
        lastUpdated: '2026-11-19T20:00:00Z',
      }),
    );
    const answer = deferred<MockReply>();
    renderWallet({ 'GET /tasks/today': () => answer.promise });

    expect(figureOf('Spent Hours')).toHaveTextContent('4 hours');
    expect(figureOf('Remaining')).toHaveTextContent('8 hours');

    await act(async () => answer.resolve(wallet(9, 12)));
    await waitFor(() => expect(figureOf('Spent Hours')).toHaveTextContent('9 hours'));
    expect(figureOf('Remaining')).toHaveTextContent('3 hours');
    const stored = JSON.parse(window.localStorage.getItem(WALLET_STORE_KEY) ?? '{}');
    expect(stored).toMatchObject({ spentHours: 9, budgetHours: 12, remainingHours: 3 });
    expect(Date.parse(stored.lastUpdated)).not.toBeNaN();
  });

  it.each([
    ['a text', 'lots'],
    ['a negative number', -3],
  ])('counts a spentHours that is %s as 0, without an error', async (_case, spentHours) => {
    renderWallet({ 'GET /tasks/today': wallet(spentHours) });

    await waitFor(() => expect(figureOf('Budget Hours')).toHaveTextContent('15 hours'));
    expect(figureOf('Spent Hours')).toHaveTextContent('0 hours');
    expect(figureOf('Remaining')).toHaveTextContent('15 hours');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it.each<[string, MockHandler]>([
    ['a server error', { status: 500, body: { message: 'Boom' } }],
    ['no network', NETWORK_FAILURE],
  ])('shows a dismissible banner when the fetch fails with %s', async (_case, failure) => {
    renderWallet({ 'GET /tasks/today': failure });

    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch wallet data');
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('clears the error while fetching again and shows it again on a new failure', async () => {
    let calls = 0;
    const { server } = renderWallet({
      'GET /tasks/today': () => {
        calls += 1;
        return calls === 2 ? wallet(3) : { status: 503 };
      },
    });
    await screen.findByRole('alert');

    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(figureOf('Spent Hours')).toHaveTextContent('3 hours'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch wallet data');
    expect(server.requestsTo('GET', '/tasks/today')).toHaveLength(3);
  });

  it('ignores a new fetch while one is in flight', async () => {
    const answer = deferred<MockReply>();
    const { server } = renderWallet({ 'GET /tasks/today': () => answer.promise });
    await waitFor(() => expect(server.requestsTo('GET', '/tasks/today')).toHaveLength(1));

    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(server.requestsTo('GET', '/tasks/today')).toHaveLength(1);

    await act(async () => answer.resolve(wallet(1)));
    await waitFor(() => expect(figureOf('Spent Hours')).toHaveTextContent('1 hours'));
    expect(server.requestsTo('GET', '/tasks/today')).toHaveLength(1);
  });

  describe('the daily budget', () => {
    it('saves a budget of 0 hours or more to the server and shows it', async () => {
      let budgetHours = 15;
      const { server, store } = renderWallet({
        'GET /tasks/today': () => wallet(2, budgetHours),
        'PATCH /users/me': (request) => {
          budgetHours = (request.body as { budgetHours: number }).budgetHours;
          return { body: { user: { ...TEST_USER, budgetHours } } };
        },
      });
      await waitFor(() => expect(figureOf('Budget Hours')).toHaveTextContent('15 hours'));

      await user.click(screen.getByRole('button', { name: 'Edit budget' }));
      const input = screen.getByRole('spinbutton', { name: 'Daily budget (hours)' });
      await user.clear(input);
      await user.type(input, '7.5');
      await user.click(screen.getByRole('button', { name: 'Save' }));

      await waitFor(() => expect(figureOf('Budget Hours')).toHaveTextContent('7.5 hours'));
      expect(figureOf('Remaining')).toHaveTextContent('5.5 hours');
      expect(server.requestsTo('PATCH', '/users/me')[0].body).toEqual({
        budgetHours: 7.5,
        budgetHoursByWeekday: null,
      });
      expect(store.getState().session.user?.budgetHours).toBe(7.5);
      expect(await screen.findByText('Daily budget saved.')).toBeInTheDocument();
    });

    it.each(['-1', 'abc', '25'])('refuses %p before any request', async (typed) => {
      const { server } = renderWallet();
      await waitFor(() => expect(figureOf('Budget Hours')).toHaveTextContent('15 hours'));

      await user.click(screen.getByRole('button', { name: 'Edit budget' }));
      const input = screen.getByRole('spinbutton', { name: 'Daily budget (hours)' });
      await user.clear(input);
      if (typed !== 'abc') await user.type(input, typed);
      await user.click(screen.getByRole('button', { name: 'Save' }));

      expect(input).toHaveAccessibleDescription('Enter a number of hours from 0 to 24.');
      expect(input).toHaveAttribute('aria-invalid', 'true');
      expect(server.requestsTo('PATCH', '/users/me')).toHaveLength(0);
    });

    it("shows the server's field reason, not 'Validation failed'", async () => {
      const reason = 'budgetHours must be a multiple of 0.1';
      renderWallet({
        'PATCH /users/me': {
          status: 400,
          body: { message: 'Validation failed', errors: [{ field: 'budgetHours', message: reason }] },
        },
      });
      await waitFor(() => expect(figureOf('Budget Hours')).toHaveTextContent('15 hours'));
      await user.click(screen.getByRole('button', { name: 'Edit budget' }));
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByRole('spinbutton', { description: reason })).toBeInTheDocument();
    });

    it('keeps the form open with the reason when the server refuses', async () => {
      renderWallet({ 'PATCH /users/me': { status: 400, body: { message: 'budgetHours must be <= 24' } } });
      await waitFor(() => expect(figureOf('Budget Hours')).toHaveTextContent('15 hours'));

      await user.click(screen.getByRole('button', { name: 'Edit budget' }));
      await user.click(screen.getByRole('button', { name: 'Save' }));

      expect(
        await screen.findByRole('spinbutton', { description: 'budgetHours must be <= 24' }),
      ).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Cancel' }));
      expect(screen.getByRole('button', { name: 'Edit budget' })).toBeInTheDocument();
    });
  });

  describe('the budget per weekday', () => {
    const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
    const weekdayInput = (weekday: string) => screen.getByRole('spinbutton', { name: weekday });

    async function openBudgetForm() {
      await waitFor(() => expect(figureOf('Budget Hours')).toHaveTextContent('hours'));
      await user.click(screen.getByRole('button', { name: 'Edit budget' }));
    }

    it('switches on seven budgets, Sunday to Saturday, starting from the one budget, and saves them', async () => {
      let user1 = { ...TEST_USER, budgetHours: 10 };
      const { server, store } = renderWallet(
        {
          'PATCH /users/me': (request) => {
            user1 = { ...user1, ...(request.body as Partial<User>) };
            return { body: { user: user1 } };
          },
        },
        user1,
      );
      await openBudgetForm();
      expect(screen.queryByRole('spinbutton', { name: 'Sunday' })).not.toBeInTheDocument();

      await user.click(screen.getByRole('checkbox', { name: 'Different budget per weekday' }));
      expect(screen.queryByRole('spinbutton', { name: 'Daily budget (hours)' })).not.toBeInTheDocument();
      expect(screen.getByRole('group', { name: 'Budget per weekday (hours)' })).toBeInTheDocument();
      for (const weekday of WEEKDAYS) expect(weekdayInput(weekday)).toHaveValue(10);

      await user.clear(weekdayInput('Monday'));
      await user.type(weekdayInput('Monday'), '8');
      await user.clear(weekdayInput('Saturday'));
      await user.type(weekdayInput('Saturday'), '0');
      await user.click(screen.getByRole('button', { name: 'Save' }));

      expect(await screen.findByText('Budgets per weekday saved.')).toBeInTheDocument();
      expect(server.requestsTo('PATCH', '/users/me')[0].body).toEqual({
        budgetHoursByWeekday: [10, 8, 10, 10, 10, 10, 0],
      });
      expect(store.getState().session.user?.budgetHoursByWeekday).toEqual([10, 8, 10, 10, 10, 10, 0]);
      expect(screen.getByText("Today's budget; it differs by weekday.")).toBeInTheDocument();
    });

    it("starts from the person's own budgets per weekday, and switching them off saves null", async () => {
      const { server } = renderWallet(
        { 'PATCH /users/me': { body: { user: TEST_USER } } },
        { ...TEST_USER, budgetHours: 9, budgetHoursByWeekday: [0, 8, 8, 8, 8, 6, 2] },
      );
      await openBudgetForm();
      const toggle = screen.getByRole('checkbox', { name: 'Different budget per weekday' });
      expect(toggle).toBeChecked();
      expect(weekdayInput('Sunday')).toHaveValue(0);
      expect(weekdayInput('Friday')).toHaveValue(6);

      await user.click(toggle);
      expect(screen.getByRole('spinbutton', { name: 'Daily budget (hours)' })).toHaveValue(9);
      await user.click(screen.getByRole('button', { name: 'Save' }));

      await waitFor(() => expect(server.requestsTo('PATCH', '/users/me')).toHaveLength(1));
      expect(server.requestsTo('PATCH', '/users/me')[0].body).toEqual({
        budgetHours: 9,
        budgetHoursByWeekday: null,
      });
    });

    it('refuses a weekday outside 0 to 24 hours before any request, on that weekday', async () => {
      const { server } = renderWallet({}, TEST_USER);
      await openBudgetForm();
      await user.click(screen.getByRole('checkbox', { name: 'Different budget per weekday' }));
      await user.clear(weekdayInput('Wednesday'));
      await user.type(weekdayInput('Wednesday'), '25');
      await user.click(screen.getByRole('button', { name: 'Save' }));

      expect(weekdayInput('Wednesday')).toHaveAccessibleDescription('Enter a number of hours from 0 to 24.');
      expect(weekdayInput('Tuesday')).not.toHaveAttribute('aria-invalid');
      expect(server.requestsTo('PATCH', '/users/me')).toHaveLength(0);
    });

    it("shows the server's refusal of the budgets and keeps the form open", async () => {
      const reason =
        'budgetHoursByWeekday must be seven numbers of hours from 0 to 24, Sunday first, or null';
      renderWallet(
        {
          'PATCH /users/me': {
            status: 400,
            body: {
              message: 'Validation failed',
              errors: [{ field: 'budgetHoursByWeekday', message: reason }],
            },
          },
        },
        TEST_USER,
      );
      await openBudgetForm();
      await user.click(screen.getByRole('checkbox', { name: 'Different budget per weekday' }));
      await user.click(screen.getByRole('button', { name: 'Save' }));

      expect(await screen.findByRole('alert')).toHaveTextContent(reason);
      expect(screen.getByRole('group', { name: 'Budget per weekday (hours)' })).toHaveAccessibleDescription(
        reason,
      );
    });
  });

  describe('reminders', () => {
    it.each([
      [0, 'neutral', "You're managing your time well!", 'Mascot looking calm'],
      [4.9, 'neutral', "You're managing your time well!", 'Mascot looking calm'],
      [5, 'happy', "You're working hard! Remember to take a break!", 'Mascot looking cheerful'],
      [7.9, 'happy', "You're working hard! Remember to take a break!", 'Mascot looking cheerful'],
      [8, 'angry', "You're overworking! Remember to rest well!", 'Mascot looking upset'],
      [12, 'angry', "You're overworking! Remember to rest well!", 'Mascot looking upset'],
    ])('at %s hours spent the mascot is %s', async (spentHours, _mood, message, picture) => {
      renderWallet({ 'GET /tasks/today': wallet(spentHours) });

      const reminders = screen.getByRole('region', { name: 'Reminders' });
      await waitFor(() => expect(within(reminders).getByText(message)).toBeInTheDocument());
      expect(within(reminders).getByRole('img', { name: picture })).toBeInTheDocument();
    });

    it('shows the mascot card first, then one calendar card per event with its end time in 24 hours', async () => {
      renderWallet({
        'GET /events/today': {
          body: [eventEndingAt('e1', 'Standup', 9, 30), eventEndingAt('e2', 'Dentist', 17, 5)],
        },
      });

      const row = await screen.findByRole('list', { name: 'Reminders' });
      await waitFor(() => expect(within(row).getAllByRole('listitem')).toHaveLength(3));
      const [mascot, standup, dentist] = within(row).getAllByRole('listitem');
      expect(mascot).toHaveTextContent("You're managing your time well!");
      expect(standup).toHaveTextContent('calendar');
      expect(within(standup).getByRole('heading', { name: 'Standup' })).toBeInTheDocument();
      expect(standup).toHaveTextContent('Due At: 09:30');
      expect(dentist).toHaveTextContent('Due At: 17:05');
      expect(screen.queryByRole('button', { name: 'Next reminder' })).not.toBeInTheDocument();
    });

    it('shows three placeholder cards after the mascot while there are no events', async () => {
      const { container } = renderWallet({ 'GET /events/today': { body: { not: 'a list' } } });

      expect(await screen.findByText('No calendar events today')).toBeInTheDocument();
      const row = screen.getByRole('list', { name: 'Reminders' });
      expect(within(row).getAllByRole('listitem')).toHaveLength(1);
      expect(container.querySelectorAll('li[aria-hidden="true"]')).toHaveLength(3);
      expect(row).toHaveAttribute('data-cards', '4');
    });

    it('shows the placeholders still once loaded, saying "No events today", and shimmering only while loading', async () => {
      const answer = deferred<MockReply>();
      const { container } = renderWallet({ 'GET /events/today': () => answer.promise });
      const placeholders = () => container.querySelectorAll('li[aria-hidden="true"]');
      expect(placeholders()).toHaveLength(3);
      expect(container.querySelectorAll('li[aria-hidden="true"] .still')).toHaveLength(0);
      expect(screen.queryByText('No events today')).not.toBeInTheDocument();

      await act(async () => answer.resolve({ body: [] }));
      expect(await screen.findByText('No events today')).toBeInTheDocument();
      expect(container.querySelectorAll('li[aria-hidden="true"] .still').length).toBeGreaterThanOrEqual(3);
    });

    it('turns into a carousel, operable by keyboard, above three cards in total', async () => {
      const scrollBy = jest.fn();
      Object.defineProperty(HTMLElement.prototype, 'scrollBy', { configurable: true, value: scrollBy });
      jest.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(1200);
      jest.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(600);
      renderWallet({
        'GET /events/today': {
          body: [
            eventEndingAt('e1', 'Standup', 9, 30),
            eventEndingAt('e2', 'Lunch', 13, 0),
            eventEndingAt('e3', 'Review', 16, 45),
          ],
        },
      });

      const carousel = await screen.findByRole('region', { name: 'Reminder cards' });
      await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(4));
      expect(carousel).toHaveAttribute('aria-roledescription', 'carousel');
      const slides = screen.getAllByRole('listitem');
      expect(slides[0]).toHaveAccessibleName('1 of 4');
      expect(slides[3]).toHaveTextContent('Review');
      expect(screen.getByRole('button', { name: 'Previous reminder' })).toHaveAttribute(
        'aria-disabled',
        'true',
      );

      screen.getByRole('button', { name: 'Next reminder' }).focus();
      await user.keyboard('{Enter}');
      expect(scrollBy).toHaveBeenCalledWith(expect.objectContaining({ left: expect.any(Number) }));
      expect(screen.getByRole('list', { name: 'Reminder cards' })).toHaveAttribute('tabindex', '0');
      delete (HTMLElement.prototype as Partial<HTMLElement>).scrollBy;
    });
  });
});
