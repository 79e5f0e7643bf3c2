import { act, screen, within } from '@testing-library/react';
import { addDays } from '@time-wallet/shared-ui/lib';
import {
  aWeek,
  deferred,
  mockApi,
  type MockReply,
  NETWORK_FAILURE,
  renderPage,
  signedInStore,
  usePageTestEnvironment,
} from '@time-wallet/api/testing';
import { AnalyticsPage } from './analytics-page';

const TODAY = '2026-11-21';
const SAME_DAY_LAST_WEEK = '2026-11-14';

type Day = ReturnType<typeof aWeek>['daily'][number];

/**
 * The seven days from Sunday weekStart, empty but for a budget by weekday (3 h weekends, 8 h weekdays), all of it
 * remaining; a day with time gives its own over and remaining figures, as the server sends them.
 */
function daysFrom(weekStart: string, figures: Record<string, Partial<Day>> = {}): Day[] {
  return aWeek().daily.map((day, index) => {
    const date = addDays(weekStart, index);
    const budgetMinutes = index === 0 || index === 6 ? 180 : 480;
    return { ...day, date, budgetMinutes, overMinutes: 0, remainingMinutes: budgetMinutes, ...figures[date] };
  });
}

const THIS_WEEK = aWeek({
  weekStart: '2026-11-15',
  weekEnd: '2026-11-21',
  totalMinutes: 885,
  byCategory: [
    { categoryId: 'work', name: 'Work', color: '#2F80ED', minutes: 480, percent: 54 },
    { categoryId: 'study', name: 'Study', color: '#D9468F', minutes: 210, percent: 24 },
    { categoryId: '', name: 'No category', color: '#8A94A6', minutes: 120, percent: 14 },
    { categoryId: 'health', name: 'Health', color: '#5E9E2B', minutes: 45, percent: 5 },
    { categoryId: 'chores', name: 'Chores', color: '#D97706', minutes: 30, percent: 3 },
  ],
  averageProductiveHours: 0.9,
  streak: 1,
  daily: daysFrom('2026-11-15', {
    // Friday: planned exactly its budget, tracked past it.
    '2026-11-20': {
      minutes: 480,
      plannedMinutes: 480,
      trackedMinutes: 510,
      productiveMinutes: 0,
      overMinutes: 0,
      remainingMinutes: 0,
    },
    // Saturday: 405 minutes planned against a 3-hour budget, 225 over.
    '2026-11-21': {
      minutes: 405,
      plannedMinutes: 405,
      trackedMinutes: 300,
      productiveMinutes: 360,
      overMinutes: 225,
      remainingMinutes: 0,
    },
  }),
});
const LAST_WEEK = aWeek({
  weekStart: '2026-11-08',
  weekEnd: '2026-11-14',
  totalMinutes: 630,
  byCategory: [{ categoryId: 'work', name: 'Work', color: '#2F80ED', minutes: 630, percent: 100 }],
  averageProductiveHours: 1.2,
  streak: 3,
  daily: daysFrom('2026-11-08'),
});

const weeklyPath = (date: string) => `GET /aggregation/analytics/weekly?date=${date}`;
// The store batches its notifications to the next animation frame.
const flush = () => act(() => jest.advanceTimersByTimeAsync(50));
const card = (title: string) => screen.getByRole('region', { name: title });
const figure = (cardTitle: string, label: string) => within(card(cardTitle)).getByText(label).nextSibling;
const texts = (elements: HTMLElement[]) => elements.map((element) => element.textContent?.trim());

function renderAnalytics({ tokenKept = true }: { tokenKept?: boolean } = {}) {
  const store = signedInStore();
  if (!tokenKept) window.localStorage.removeItem('token');
  return renderPage(<AnalyticsPage />, { path: '/app/analytics', store });
}

function serveBothWeeks() {
  return mockApi({
    [weeklyPath(TODAY)]: { body: THIS_WEEK },
    [weeklyPath(SAME_DAY_LAST_WEEK)]: { body: LAST_WEEK },
  });
}

describe('AnalyticsPage', () => {
  usePageTestEnvironment({ fakeTimers: new Date(2026, 10, 21, 15, 30) });

  it('asks for the week of today and of seven days earlier and shows the four cards', async () => {
    const server = serveBothWeeks();
    renderAnalytics();
    await flush();

    expect(server.requests.map((request) => request.path).sort()).toEqual([
      `/aggregation/analytics/weekly?date=${SAME_DAY_LAST_WEEK}`,
      `/aggregation/analytics/weekly?date=${TODAY}`,
    ]);
    expect(server.requests[0].headers.get('Authorization')).toBe('Bearer token-abc');
    expect(screen.getByRole('heading', { level: 1, name: 'Time Wallet Analytics' })).toBeInTheDocument();
    expect(screen.getByText('See how you progress this week')).toBeInTheDocument();

    // The server's shares of the week's planned time: of the categorised time alone Work would be 63%.
    const shares = within(card('Category Time Share')).getAllByRole('listitem');
    expect(texts(shares)).toEqual(['Work54%', 'Study24%', 'No category14%']);

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

  it('says on every card, in a line, what it counts', async () => {
    serveBothWeeks();
    renderAnalytics();
    await flush();

    expect(card('Category Time Share')).toHaveAccessibleDescription(/planned time per category/i);
    expect(card('Average Productive Hours')).toHaveAccessibleDescription(
      /tracked time, done tasks’ blocks and ended events, each hour once/,
    );
    expect(card('Daily Spend Comparison')).toHaveAccessibleDescription(/active time is productive hours/i);
    expect(card('Consistence Streak')).toHaveAccessibleDescription(/at least one done task/);
    expect(card('Hours per Day This Week')).toHaveAccessibleDescription(
      'Planned: scheduled tasks and timed events, overlaps once, all-day events free. Tracked: time entries, from the timer or added by hand.',
    );
    expect(card('Where Your Time Went')).toHaveAccessibleDescription(/without one is No category/);
    expect(screen.getByText('Dismissed tasks count in no figure.')).toBeInTheDocument();
  });

  it("charts each day's planned and tracked hours against that day's budget, with a table of the same figures", async () => {
    serveBothWeeks();
    renderAnalytics();
    await flush();

    const chart = card('Hours per Day This Week');
    const table = within(chart).getByRole('table', {
      name: 'Planned, tracked and budget hours per day this week',
    });
    expect(texts(within(table).getAllByRole('columnheader'))).toEqual([
      'Day',
      'Planned hours',
      'Tracked hours',
      'Budget hours',
      'Hours left',
    ]);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(texts(rows)).toEqual([
      'Sunday 2026-11-150.00.03.03.0',
      'Monday 2026-11-160.00.08.08.0',
      'Tuesday 2026-11-170.00.08.08.0',
      'Wednesday 2026-11-180.00.08.08.0',
      'Thursday 2026-11-190.00.08.08.0',
      'Friday 2026-11-208.08.58.00.0',
      'Saturday 2026-11-21 (today)6.8 (over budget by 3.8 h)5.03.00.0',
    ]);

    // The axis reaches 12 h (8.5 tracked, rounded up to a whole tick): each day's budget marker sits at its own budget.
    const day = (date: string) => screen.getByTestId(`day-${date}`);
    expect(day('2026-11-15').style.getPropertyValue('--budget')).toBe('25%');
    expect(day('2026-11-21').style.getPropertyValue('--budget')).toBe('25%');
    expect(day('2026-11-20').style.getPropertyValue('--budget')).toBe(`${(8 / 12) * 100}%`);
    expect(day('2026-11-21').style.getPropertyValue('--planned')).toBe('56.25%');
    expect(day('2026-11-21').style.getPropertyValue('--tracked')).toBe(`${(5 / 12) * 100}%`);
    // Only Saturday's plan passes its budget; Friday's meets it exactly.
    expect(screen.getByTestId('over-budget-2026-11-21')).toBeInTheDocument();
    expect(screen.queryByTestId('over-budget-2026-11-20')).not.toBeInTheDocument();

    const legend = within(chart).getByRole('list', { name: 'Legend' });
    expect(texts(within(legend).getAllByRole('listitem'))).toEqual([
      'Planned',
      'Tracked',
      'Budget',
      'Over budget',
    ]);
  });

  it('puts each value on its own bar, planned and tracked, whatever the budget or the bar beside it', async () => {
    serveBothWeeks();
    renderAnalytics();
    await flush();

    const bar = (kind: string, date: string) => screen.getByTestId(`${kind}-${date}`);
    // The value is the bar's own child, so it is placed from that bar's top, not from the budget or the pair's highest.
    const valueOf = (element: HTMLElement) => {
      const values = element.querySelectorAll(':scope > .value');
      expect(values).toHaveLength(1);
      return values[0].textContent;
    };
    expect(valueOf(bar('planned', '2026-11-20'))).toBe('8.0');
    expect(valueOf(bar('tracked', '2026-11-20'))).toBe('8.5');
    expect(valueOf(bar('planned', '2026-11-21'))).toBe('6.8');
    expect(valueOf(bar('tracked', '2026-11-21'))).toBe('5.0');
    expect(bar('planned', '2026-11-21')).toHaveClass('planned');
    expect(bar('tracked', '2026-11-21')).toHaveClass('tracked');
    // Each bar sits in its own column of its day, planned first, and the budget marker is the day's own.
    const saturday = screen.getByTestId('day-2026-11-21');
    expect(bar('planned', '2026-11-21').parentElement).toBe(saturday.children[0]);
    expect(bar('tracked', '2026-11-21').parentElement).toBe(saturday.children[1]);
    expect(saturday.querySelector(':scope > .budget')).not.toBeNull();
    // No bar and so no value for a day with no time; the table still says 0.0.
    expect(screen.queryByTestId('planned-2026-11-15')).not.toBeInTheDocument();
    expect(screen.queryByTestId('tracked-2026-11-15')).not.toBeInTheDocument();
    // Every value on the plot is one of a bar's.
    const plot = screen.getByTestId('hours-per-day-plot');
    const values = [...plot.querySelectorAll('.value')];
    expect(values.map((value) => value.parentElement?.dataset.testid)).toEqual([
      'planned-2026-11-20',
      'tracked-2026-11-20',
      'planned-2026-11-21',
      'tracked-2026-11-21',
    ]);
    // Below 85% of the axis (12 h) a value sits above its bar.
    expect(values.map((value) => value.parentElement?.dataset.label)).toEqual([
      'above',
      'above',
      'above',
      'above',
    ]);
    // The part above the budget is the top of the plan's own bar, sized by the server's over: 225 of 405 minutes.
    const over = screen.getByTestId('over-budget-2026-11-21');
    expect(over.parentElement).toBe(bar('planned', '2026-11-21'));
    expect(over.style.height).toBe(`${(225 / 405) * 100}%`);
  });

  it("writes the value inside a tall bar and takes over budget from the server's overMinutes alone", async () => {
    mockApi({
      [weeklyPath(TODAY)]: {
        body: aWeek({
          ...THIS_WEEK,
          daily: daysFrom('2026-11-15', {
            // 12 h planned against 8: the top of the axis.
            '2026-11-16': { plannedMinutes: 720, trackedMinutes: 360, overMinutes: 240, remainingMinutes: 0 },
            // Past its 3 h budget by the day's fields, but the server counts no over: its figure stands.
            '2026-11-21': { plannedMinutes: 240, trackedMinutes: 0, overMinutes: 0, remainingMinutes: 0 },
          }),
        }),
      },
      [weeklyPath(SAME_DAY_LAST_WEEK)]: { body: LAST_WEEK },
    });
    renderAnalytics();
    await flush();

    expect(screen.getByTestId('planned-2026-11-16')).toHaveAttribute('data-label', 'inside');
    expect(screen.getByTestId('planned-2026-11-16')).toHaveTextContent('12.0');
    expect(screen.getByTestId('tracked-2026-11-16')).toHaveAttribute('data-label', 'above');
    expect(screen.getByTestId('over-budget-2026-11-16').style.height).toBe(`${(240 / 720) * 100}%`);
    expect(screen.queryByTestId('over-budget-2026-11-21')).not.toBeInTheDocument();
    const table = within(card('Hours per Day This Week')).getByRole('table');
    expect(texts(within(table).getAllByRole('row').slice(1))).toEqual([
      'Sunday 2026-11-150.00.03.03.0',
      'Monday 2026-11-1612.0 (over budget by 4 h)6.08.00.0',
      'Tuesday 2026-11-170.00.08.08.0',
      'Wednesday 2026-11-180.00.08.08.0',
      'Thursday 2026-11-190.00.08.08.0',
      'Friday 2026-11-200.00.08.08.0',
      // The server says no day but Monday is over and none has time left: the page shows what it says.
      'Saturday 2026-11-21 (today)4.00.03.00.0',
    ]);
  });

  it("shows the week's planned time per category, uncategorised time as No category in its colour and not as a link", async () => {
    serveBothWeeks();
    renderAnalytics();
    await flush();

    const where = card('Where Your Time Went');
    expect(where).toHaveTextContent('14.8hours planned');
    const legend = within(where).getByRole('list', { name: 'Time per category this week' });
    expect(texts(within(legend).getAllByRole('listitem'))).toEqual([
      'Work8.0 h · 54%',
      'Study3.5 h · 24%',
      'No category2.0 h · 14%',
      'Health0.8 h · 5%',
      'Chores0.5 h · 3%',
    ]);
    for (const region of [where, card('Category Time Share')]) {
      const swatch = within(region).getByText('No category').previousSibling as HTMLElement;
      expect(swatch.style.background).toBe('rgb(138, 148, 166)');
    }
    expect(screen.queryAllByRole('link')).toEqual([]);
  });

  it('shows skeletons in busy cards while the figures load', async () => {
    const answer = deferred<MockReply>();
    mockApi({
      [weeklyPath(TODAY)]: () => answer.promise,
      [weeklyPath(SAME_DAY_LAST_WEEK)]: { body: LAST_WEEK },
    });
    renderAnalytics();
    await flush();

    for (const title of [
      'Category Time Share',
      'Average Productive Hours',
      'Consistence Streak',
      'Hours per Day This Week',
      'Where Your Time Went',
    ]) {
      expect(card(title)).toHaveAttribute('aria-busy', 'true');
    }
    expect(screen.queryByText('No data')).not.toBeInTheDocument();
    expect(screen.queryByText('hours')).not.toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    // The chart's frame is drawn already, the week's days on its axis, so the bars fill it in place.
    const plot = screen.getByTestId('hours-per-day-plot');
    expect(plot).toHaveTextContent('SunMonTueWedThuFriSat');
    expect(within(plot).queryByTestId(/^day-/)).not.toBeInTheDocument();

    await act(async () => answer.resolve({ body: THIS_WEEK }));
    await flush();
    expect(card('Category Time Share')).not.toHaveAttribute('aria-busy');
    expect(figure('Consistence Streak', 'This week')).toHaveTextContent('1 day');
    expect(screen.getByRole('table')).toBeInTheDocument();
    expect(screen.getByTestId('hours-per-day-plot')).toBe(plot);
    expect(within(plot).getAllByTestId(/^day-/)).toHaveLength(7);
  });

  it('shows three No data 0% rows and 12 hours of rest for a week without time', async () => {
    const empty = aWeek({ weekStart: '2026-11-15', weekEnd: '2026-11-21', daily: daysFrom('2026-11-15') });
    mockApi({
      [weeklyPath(TODAY)]: { body: empty },
      [weeklyPath(SAME_DAY_LAST_WEEK)]: { body: { ...empty, daily: [] } },
    });
    renderAnalytics();
    await flush();

    const shares = within(card('Category Time Share')).getAllByRole('listitem');
    expect(texts(shares)).toEqual(['No data0%', 'No data0%', 'No data0%']);
    expect(figure('Daily Spend Comparison', 'rest and self care')).toHaveTextContent('12.0 hours');
    expect(figure('Consistence Streak', 'Last week')).toHaveTextContent('0 days');
    expect(figure('Consistence Streak', 'This week')).toHaveTextContent('0 days');
    expect(
      within(card('Where Your Time Went')).getByText('No planned time this week yet.'),
    ).toBeInTheDocument();
    expect(screen.queryByTestId(/^over-budget-/)).not.toBeInTheDocument();
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
