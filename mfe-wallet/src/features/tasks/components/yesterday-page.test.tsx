import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { addDays, toLocalDateKey } from '@time-wallet/shared-ui/lib';
import {
  aTask,
  deferred,
  mockApi,
  type MockReply,
  renderPage,
  usePageTestEnvironment,
} from '@time-wallet/api/testing';
import { instantAt, type Task } from '../lib/task';
import { YesterdayPage } from './yesterday-page';

const user = userEvent.setup({ delay: null });
const today = toLocalDateKey();
const yesterday = addDays(today, -1);
const PENDING = `GET /tasks?date=${yesterday}&done=false`;

const pendingTask = (id: string, title: string, startHHMM: string, endHHMM: string): Task =>
  aTask({
    _id: id,
    title,
    categoryId: 'c1',
    startHHMM,
    endHHMM,
    date: yesterday,
    start: instantAt(yesterday, startHHMM),
    end: instantAt(yesterday, endHHMM),
  });

describe('YesterdayPage', () => {
  usePageTestEnvironment({ token: 'token-1' });

  it("never says 'Well done' for a list that failed to load, and loads it again on request", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let fail = true;
    mockApi({
      'GET /categories': { body: [] },
      [PENDING]: () =>
        fail
          ? { status: 500, body: { message: 'boom' } }
          : { body: { tasks: [pendingTask('t1', 'Report', '09:00', '10:30')] } },
    });
    renderPage(<YesterdayPage />, { path: '/app/yesterday' });

    expect(await screen.findByText("Yesterday's tasks are not available right now.")).toBeInTheDocument();
    expect(screen.queryByText('No pending tasks. Well done.')).not.toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Report')).toBeInTheDocument();
  });

  it("lists exactly yesterday's undone tasks with 12-hour times", async () => {
    mockApi({
      'GET /categories': { body: [{ _id: 'c1', name: 'Work', color: '#2F80ED' }] },
      [PENDING]: {
        body: {
          tasks: [pendingTask('t1', 'Report', '09:00', '10:30'), pendingTask('t2', 'Gym', '18:00', '19:15')],
        },
      },
    });
    renderPage(<YesterdayPage />, { path: '/app/yesterday' });

    expect(screen.getByRole('heading', { level: 1, name: 'Pick Up Where You Left Off' })).toBeInTheDocument();
    expect(screen.getByText('Unfinished tasks you can bring forward into today')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Pending Tasks' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: "Yesterday's pending tasks" });
    const [report, gym] = within(list).getAllByRole('listitem');
    expect(report).toHaveTextContent('Report');
    expect(report).toHaveTextContent('Work');
    expect(report).toHaveTextContent('9:00 AM – 10:30 AM');
    expect(gym).toHaveTextContent('6:00 PM – 7:15 PM');
    expect(screen.getByRole('button', { name: 'Put Back' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();
  });

  it('shows two placeholder rows while loading', async () => {
    const answer = deferred<MockReply>();
    mockApi({ 'GET /categories': { body: [] }, [PENDING]: () => answer.promise });
    const { container } = renderPage(<YesterdayPage />, { path: '/app/yesterday' });

    expect(screen.getByRole('status')).toHaveTextContent('Loading tasks');
    expect(container.querySelectorAll('ul[aria-hidden="true"] > li')).toHaveLength(2);
    await act(async () => answer.resolve({ body: { tasks: [] } }));
    expect(await screen.findByText('No pending tasks. Well done.')).toBeInTheDocument();
  });

  it('puts the selected tasks back into today in one request, then reloads', async () => {
    let pending = [pendingTask('t1', 'Report', '09:00', '10:30'), pendingTask('t2', 'Gym', '18:00', '19:15')];
    const server = mockApi({
      'GET /categories': { body: [] },
      [PENDING]: () => ({ body: { tasks: pending } }),
      'POST /tasks/put-back': () => {
        pending = pending.filter((task) => task._id !== 't1');
        return { body: { tasks: [] } };
      },
    });
    renderPage(<YesterdayPage />, { path: '/app/yesterday' });

    await user.click(await screen.findByRole('checkbox', { name: 'Select Report' }));
    expect(screen.getByText('1 selected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Put Back' }));

    await waitFor(() =>
      expect(screen.queryByRole('checkbox', { name: 'Select Report' })).not.toBeInTheDocument(),
    );
    // The server moves it to today at the same clock times, not done, in one transaction.
    expect(server.requestsTo('POST', '/tasks/put-back').map((request) => request.body)).toEqual([
      { ids: ['t1'], date: today },
    ]);
    expect(server.requests.filter((request) => request.method !== 'GET')).toHaveLength(1);
    expect(server.requestsTo('GET', '/tasks')).toHaveLength(2);
    expect(screen.getByRole('checkbox', { name: 'Select Gym' })).not.toBeChecked();
  });

  it("sends a repeating task's occurrence the same way: the server replaces today's own", async () => {
    const stretch = (id: string, day: string) =>
      aTask({
        _id: id,
        title: 'Stretch',
        seriesId: 'series-1',
        rrule: 'FREQ=DAILY',
        startHHMM: '07:00',
        endHHMM: '07:30',
        date: day,
        start: instantAt(day, '07:00'),
        end: instantAt(day, '07:30'),
        recurrenceId: instantAt(day, '07:00'),
      });
    let pending = [stretch('s-yesterday', yesterday), pendingTask('t1', 'Report', '09:00', '10:30')];
    const server = mockApi({
      'GET /categories': { body: [] },
      [PENDING]: () => ({ body: { tasks: pending } }),
      'POST /tasks/put-back': () => {
        pending = [];
        return { body: { tasks: [stretch('s-yesterday', today)] } };
      },
    });
    renderPage(<YesterdayPage />, { path: '/app/yesterday' });

    await user.click(await screen.findByRole('checkbox', { name: 'Select Stretch' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Report' }));
    await user.click(screen.getByRole('button', { name: 'Put Back' }));
    await screen.findByText('No pending tasks. Well done.');

    expect(server.requests.map((request) => `${request.method} ${request.path}`)).not.toContain(
      `GET /tasks?date=${today}`,
    );
    expect(
      server.requests
        .filter((request) => request.method !== 'GET')
        .map((request) => [request.method, request.path, request.body]),
    ).toEqual([['POST', '/tasks/put-back', { ids: ['s-yesterday', 't1'], date: today }]]);
  });

  it('keeps the selection when Put Back fails, so it can be tried again', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const server = mockApi({
      'GET /categories': { body: [] },
      [PENDING]: { body: { tasks: [pendingTask('t1', 'Report', '09:00', '10:30')] } },
      'POST /tasks/put-back': { status: 500, body: { message: 'down' } },
    });
    renderPage(<YesterdayPage />, { path: '/app/yesterday' });

    await user.click(await screen.findByRole('checkbox', { name: 'Select Report' }));
    await user.click(screen.getByRole('button', { name: 'Put Back' }));

    await waitFor(() =>
      expect(consoleError).toHaveBeenCalledWith('Failed to put back tasks', expect.anything()),
    );
    expect(server.requestsTo('POST', '/tasks/put-back')).toHaveLength(1);
    expect(screen.getByRole('checkbox', { name: 'Select Report' })).toBeChecked();
    expect(screen.getByText('1 selected')).toBeInTheDocument();
  });

  it("puts the selected tasks aside on Delete, sending SPEC's done: true with dismissed, down to the sleepy empty state", async () => {
    let pending = [pendingTask('t1', 'Report', '09:00', '10:30'), pendingTask('t2', 'Gym', '18:00', '19:15')];
    const dismiss = (id: string) => () => {
      pending = pending.filter((task) => task._id !== id);
      return { body: {} };
    };
    const server = mockApi({
      'GET /categories': { body: [] },
      [PENDING]: () => ({ body: { tasks: pending } }),
      'PATCH /tasks/t1': dismiss('t1'),
      'PATCH /tasks/t2': dismiss('t2'),
    });
    renderPage(<YesterdayPage />, { path: '/app/yesterday' });

    await user.click(await screen.findByRole('checkbox', { name: 'Select Report' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Gym' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('No pending tasks. Well done.')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Mascot looking sleepy' })).toBeInTheDocument();
    // Put aside is not done: done: true would bring them back ticked in the day's lists.
    expect(server.requestsTo('PATCH', '/tasks/t1')[0].body).toEqual({ done: true, dismissed: true });
    expect(server.requestsTo('PATCH', '/tasks/t2')[0].body).toEqual({ done: true, dismissed: true });
    expect(screen.getByText('2 tasks put aside')).toBeInTheDocument();
  });

  it('offers Undo after Delete, which sends done and dismissed false and brings the task back', async () => {
    const report = pendingTask('t1', 'Report', '09:00', '10:30');
    let pending = [report];
    const server = mockApi({
      'GET /categories': { body: [] },
      [PENDING]: () => ({ body: { tasks: pending } }),
      'PATCH /tasks/t1': (request) => {
        pending = (request.body as { dismissed: boolean }).dismissed ? [] : [report];
        return { body: report };
      },
    });
    renderPage(<YesterdayPage />, { path: '/app/yesterday' });

    await user.click(await screen.findByRole('checkbox', { name: 'Select Report' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Task "Report" put aside')).toBeInTheDocument();
    await screen.findByText('No pending tasks. Well done.');

    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Task restored')).toBeInTheDocument();
    expect(await screen.findByRole('checkbox', { name: 'Select Report' })).not.toBeChecked();
    expect(server.requestsTo('PATCH', '/tasks/t1').map((request) => request.body)).toEqual([
      { done: true, dismissed: true },
      { done: false, dismissed: false },
    ]);
  });
});
