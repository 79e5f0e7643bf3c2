import { act, screen, within } from '@testing-library/react';
import { createAppStore, signedIn } from '@time-wallet/api';
import {
  deferred,
  mockApi,
  type MockReply,
  NETWORK_FAILURE,
  renderPage,
  TEST_USER,
  usePageTestEnvironment,
} from '@time-wallet/api/testing';
import { AnalyticsPage } from './analytics-page';

const TODAY = '2026-11-21';
const SAME_DAY_LAST_WEEK = '2026-11-14';

const THIS_WEEK = {
  weekStart: '2026-11-15',
  weekEnd: '2026-11-21',
  totalMinutes: 405,
  byCategory: [
    { categoryId: 'work', name: 'Work', color: '#2F80ED', minutes: 180, percent: 52 },
    { categoryId: 'study', name: 'Study', color: '#D9468F', minutes: 90, percent: 26 },
    { categoryId: 'health', name: 'Health', color: '#5E9E2B', minutes: 45, percent: 13 },
    { categoryId: 'chores', name: 'Chores', color: '#D97706', minutes: 30, percent: 9 },
  ],
  averageProductiveHours: 0.9,
  streak: 1,
  daily: [
    { date: '2026-11-15', minutes: 0, productiveMinutes: 0 },
    { date: '2026-11-16', minutes: 0, productiveMinutes: 0 },
    { date: '2026-11-17', minutes: 0, productiveMinutes: 0 },
    { date: '2026-11-18', minutes: 0, productiveMinutes: 0 },
    { date: '2026-11-19', minutes: 0, productiveMinutes: 0 },
    { date: '2026-11-20', minutes: 0, productiveMinutes: 0 },
    { date: '2026-11-21', minutes: 405, productiveMinutes: 360 },
  ],
};
const LAST_WEEK = {
  weekStart: '2026-11-08',
  weekEnd: '2026-11-14',
  totalMinutes: 630,
  byCategory: [{ categoryId: 'work', name: 'Work', color: '#2F80ED', minutes: 300, percent: 100 }],
  averageProductiveHours: 1.2,
  streak: 3,
  daily: [],
};

const weeklyPath = (date: string) => `GET /aggregation/analytics/weekly?date=${date}`;
// The store batches its notifications to the next animation frame.
const flush = () => act(() => jest.advanceTimersByTimeAsync(50));
const card = (title: string) => screen.getByRole('region', { name: title });
const figure = (cardTitle: string, label: string) => within(card(cardTitle)).getByText(label).nextSibling;

function renderAnalytics({
  budgetHours,
  tokenKept = true,
}: { budgetHours?: number; tokenKept?: boolean } = {}) {
  const store = createAppStore();
  store.dispatch(
    signedIn({
      token: 'token-abc',
      user: { ...TEST_USER, budgetHours: budgetHours ?? TEST_USER.budgetHours },
    }),
  );
  if (!tokenKept) window.localStorage.removeItem('token');
  return renderPage(<AnalyticsPage />, { path: '/app/analytics', store });
}

describe('AnalyticsPage', () => {
  usePageTestEnvironment({ fakeTimers: new Date(2026, 10, 21, 15, 30) });

  it('asks for the week of today and of seven days earlier and shows the four cards', async () => {
    const server = mockApi({
      [weeklyPath(TODAY)]: { body: THIS_WEEK },
      [weeklyPath(SAME_DAY_LAST_WEEK)]: { body: LAST_WEEK },
    });
    renderAnalytics();
    await flush();

    expect(server.requests.map((request) => request.path).sort()).toEqual([
      `/aggregation/analytics/weekly?date=${SAME_DAY_LAST_WEEK}`,
      `/aggregation/analytics/weekly?date=${TODAY}`,
    ]);
    expect(server.requests[0].headers.get('Authorization')).toBe('Bearer token-abc');
    expect(screen.getByRole('heading', { level: 1, name: 'Time Wallet Analytics' })).toBeInTheDocument();
    expect(screen.getByText('See how you progress this week')).toBeInTheDocument();

    const shares = within(card('Category Time Share')).getAllByRole('listitem');
    expect(shares.map((share) => share.textContent)).toEqual(['Work52%', 'Study26%', 'Health13%']);

    const average = card('Average Productive Hours');
    expect(within(average).getByText('Last week').nextSibling).toHaveTextContent('1.2 hours');
    expect(within(average).getByText('This week').nextSibling).toHaveTextContent('0.9 hours');

    const spend = card('Daily Spend Comparison');
    expect(within(spend).getByText('active time').nextSibling).toHaveTextContent('0.9 hours');
    expect(within(spend).getByText('rest and self care').nextSibling).toHaveTextContent('12.0 hours');

    const streak = card('Consistence Streak');
    expect(within(streak).getByText('Last week').nextSibling).toHaveTextContent('3 days');
    expect(within(streak).getByText('This week').nextSibling).toHaveTextContent('1 day');
  });

  it("charts this week's hours per day against the budget, with a table of the same figures", async () => {
    mockApi({
      [weeklyPath(TODAY)]: { body: THIS_WEEK },
      [weeklyPath(SAME_DAY_LAST_WEEK)]: { body: LAST_WEEK },
    });
    renderAnalytics({ budgetHours: 6 });
    await flush();

    const table = screen.getByRole('table', {
      name: 'Hours spent per day this week, against a daily budget of 6.0 hours',
    });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(7);
    expect(rows[6]).toHaveTextContent('Saturday 2026-11-21 (today)6.86.0');
    expect(rows[0]).toHaveTextContent('Sunday 2026-11-150.00.0');
    // 6.8 hours is over a 6-hour budget: that bar is drawn in the warning colour.
    expect(screen.getByTestId('bar-2026-11-21')).toHaveClass('barOverBudget');
    expect(screen.getByTestId('bar-2026-11-20')).toHaveClass('bar');

    const legend = screen.getByRole('list', { name: 'Time per category this week' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Work3.0 h · 52%', 'Study1.5 h · 26%', 'Health0.8 h · 13%', 'Chores0.5 h · 9%']);
  });

  it('shows skeletons in busy cards while the figures load', async () => {
    const answer = deferred<MockReply>();
    mockApi({
      [weeklyPath(TODAY)]: () => answer.promise,
      [weeklyPath(SAME_DAY_LAST_WEEK)]: { body: LAST_WEEK },
    });
    renderAnalytics();
    await flush();

    for (const title of ['Category Time Share', 'Average Productive Hours', 'Consistence Streak']) {
      expect(card(title)).toHaveAttribute('aria-busy', 'true');
    }
    expect(screen.queryByText('No data')).not.toBeInTheDocument();
    expect(screen.queryByText('hours')).not.toBeInTheDocument();

    await act(async () => answer.resolve({ body: THIS_WEEK }));
    await flush();
    expect(card('Category Time Share')).not.toHaveAttribute('aria-busy');
    expect(figure('Consistence Streak', 'This week')).toHaveTextContent('1 day');
  });

  it('shows three No data 0% rows and 12 hours of rest for a week without time', async () => {
    const empty = { ...THIS_WEEK, totalMinutes: 0, byCategory: [], averageProductiveHours: 0, streak: 0 };
    mockApi({
      [weeklyPath(TODAY)]: { body: empty },
      [weeklyPath(SAME_DAY_LAST_WEEK)]: { body: { ...empty, daily: [] } },
    });
    renderAnalytics();
    await flush();

    const shares = within(card('Category Time Share')).getAllByRole('listitem');
    expect(shares.map((share) => share.textContent)).toEqual(['No data0%', 'No data0%', 'No data0%']);
    expect(figure('Daily Spend Comparison', 'rest and self care')).toHaveTextContent('12.0 hours');
    expect(figure('Consistence Streak', 'Last week')).toHaveTextContent('0 days');
    expect(figure('Consistence Streak', 'This week')).toHaveTextContent('0 days');
    expect(screen.getByText('No time in a category this week yet.')).toBeInTheDocument();
  });

  it("says 'Failed to fetch analytics data' when either week answers with an error", async () => {
    mockApi({
      [weeklyPath(TODAY)]: { body: THIS_WEEK },
      [weeklyPath(SAME_DAY_LAST_WEEK)]: { status: 500, body: { message: 'Internal Server Error' } },
    });
    renderAnalytics();
    await flush();

    expect(screen.getByRole('alert')).toHaveTextContent('Error: Failed to fetch analytics data');
    expect(screen.queryByRole('region', { name: 'Category Time Share' })).not.toBeInTheDocument();
  });

  it('shows the failure message when the server cannot be reached, and tries again on request', async () => {
    let reachable = false;
    const server = mockApi({
      [weeklyPath(TODAY)]: () => (reachable ? { body: THIS_WEEK } : NETWORK_FAILURE),
      [weeklyPath(SAME_DAY_LAST_WEEK)]: { body: LAST_WEEK },
    });
    renderAnalytics();
    await flush();
    expect(screen.getByRole('alert')).toHaveTextContent('Error: Failed to fetch');

    reachable = true;
    await act(async () => screen.getByRole('button', { name: 'Try again' }).click());
    await flush();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(figure('Consistence Streak', 'Last week')).toHaveTextContent('3 days');
    expect(server.requests).toHaveLength(4);
  });

  it('asks nothing without a stored token and says so', async () => {
    const server = mockApi({});
    renderAnalytics({ tokenKept: false });
    await flush();

    expect(screen.getByRole('alert')).toHaveTextContent('Error: No authentication token found');
    expect(server.requests).toHaveLength(0);
  });
});
