import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TimeEntry } from '@time-wallet/api';
import { aTimeEntry, anUnscheduledTask, usePageTestEnvironment } from '@time-wallet/api/testing';
import type { Task } from '../lib/task';
import { dayRoutes, dayTask, renderToday, taskRow } from '../testing/today';

const NOW = new Date(2026, 10, 20, 10, 0, 0);
const TODAY = '2026-11-20';
const PAGE_TITLE = 'Time Wallet';
const user = userEvent.setup({ delay: null, advanceTimers: (ms) => jest.advanceTimersByTime(ms) });

const secondsAgo = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();
const tick = (seconds: number) => act(() => jest.advanceTimersByTime(seconds * 1000));

const SECOND_MS = 1000;
const toSecond = (ms: number) => Math.floor(ms / SECOND_MS) * SECOND_MS;

/** An ended entry of `taskId` of `seconds`, ending `endedSecondsAgo` before now. */
const entryOf = (taskId: string, seconds: number, endedSecondsAgo = 3600): TimeEntry =>
  aTimeEntry({
    id: `done-${taskId}-${seconds}`,
    taskId,
    start: new Date(Date.now() - (endedSecondsAgo + seconds) * SECOND_MS).toISOString(),
    end: new Date(Date.now() - endedSecondsAgo * SECOND_MS).toISOString(),
    source: 'timer',
  });

/**
 * The server's one timer per person, as time entries: starting a task's timer opens an entry (and stops any other),
 * stopping closes it to the second (a run under a second records nothing), and trackedMinutes is the whole minutes
 * of a task's ended entries. A task running on arrival has its open entry.
 */
function timerServer(initial: Task[], initialEntries: TimeEntry[] = []) {
  let tasks = initial;
  let entries = [
    ...initialEntries,
    ...initial
      .filter((task) => task.timerStartedAt !== null)
      .map((task) =>
        aTimeEntry({ id: `open-${task._id}`, taskId: task._id, start: task.timerStartedAt!, end: null }),
      ),
  ];
  const minutesOf = (id: string) =>
    Math.floor(
      entries
        .filter((entry) => entry.taskId === id && entry.end !== null)
        .reduce((sum, entry) => sum + Date.parse(entry.end!) - Date.parse(entry.start), 0) / 60_000,
    );
  const answer = (id: string) => ({ body: tasks.find((task) => task._id === id) });
  const stop = (task: Task): Task => {
    if (task.timerStartedAt === null) return task;
    const end = toSecond(Date.now());
    entries = entries.flatMap((entry) =>
      entry.taskId !== task._id || entry.end !== null
        ? [entry]
        : end - Date.parse(entry.start) < SECOND_MS
          ? []
          : [{ ...entry, end: new Date(end).toISOString() }],
    );
    return { ...task, timerStartedAt: null, trackedMinutes: minutesOf(task._id) };
  };
  const startOn = (id: string) => () => {
    const start = new Date(toSecond(Date.now())).toISOString();
    tasks = tasks.map((task) => (task._id === id ? task : stop(task)));
    entries = [...entries, aTimeEntry({ id: `run-${entries.length}`, taskId: id, start, end: null })];
    tasks = tasks.map((task) => (task._id === id ? { ...task, timerStartedAt: start } : task));
    return answer(id);
  };
  return {
    [dayRoutes(TODAY).scheduled]: () => ({ body: { tasks } }),
    [dayRoutes(TODAY).entries]: () => ({ body: { entries } }),
    'POST /tasks/t1/timer/start': startOn('t1'),
    'POST /tasks/t2/timer/start': startOn('t2'),
    'POST /tasks/t1/timer/stop': () => {
      tasks = tasks.map((task) => (task._id === 't1' ? stop(task) : task));
      return answer('t1');
    },
  };
}

const startButton = (title: string) => screen.findByRole('button', { name: `Start timer for ${title}` });
const stopButton = (title: string) => screen.findByRole('button', { name: `Stop timer for ${title}` });

describe('the timer of a task on Today', () => {
  usePageTestEnvironment({ token: 'token-1', fakeTimers: NOW });
  beforeEach(() => {
    document.title = PAGE_TITLE;
  });

  it('starts, shows it is running, and counts the tracked time every second', async () => {
    const { server } = renderToday(timerServer([dayTask({ trackedMinutes: 30 })], [entryOf('t1', 1800)]));
    const start = await startButton('Gym');
    expect(start).toHaveAttribute('aria-pressed', 'false');
    expect(taskRow('Gym')).toHaveTextContent('Tracked 0:30:00');

    await user.click(start);

    const stop = await stopButton('Gym');
    expect(stop).toHaveAttribute('aria-pressed', 'true');
    expect(server.requestsTo('POST', '/tasks/t1/timer/start')).toHaveLength(1);
    expect(taskRow('Gym')).toHaveTextContent(/Tracked 0:30:0[0-2]/);
    await tick(5);
    expect(taskRow('Gym')).toHaveTextContent(/Tracked 0:30:0[5-7]/);
  });

  it('puts the running timer in the page title and gives the title back when it stops', async () => {
    renderToday(
      timerServer([dayTask({ trackedMinutes: 12, timerStartedAt: secondsAgo(5) })], [entryOf('t1', 720)]),
    );
    await stopButton('Gym');
    await waitFor(() => expect(document.title).toBe(`▶ 0:12:05 Gym – ${PAGE_TITLE}`));
    await tick(2);
    expect(document.title).toBe(`▶ 0:12:07 Gym – ${PAGE_TITLE}`);

    await user.click(await stopButton('Gym'));

    await startButton('Gym');
    expect(document.title).toBe(PAGE_TITLE);
    // The stop records the run to the second: the row keeps what the counter showed.
    await waitFor(() => expect(taskRow('Gym')).toHaveTextContent('Tracked 0:12:07'));
    await tick(3);
    expect(taskRow('Gym')).toHaveTextContent('Tracked 0:12:07');
  });

  it.each([
    [64, '0:01:04'],
    [40, '0:00:40'],
  ])('after a run of %i seconds shows what the counter showed, %s', async (seconds, shown) => {
    renderToday(timerServer([dayTask()]));
    await user.click(await startButton('Gym'));
    await stopButton('Gym');
    await tick(seconds);
    expect(taskRow('Gym')).toHaveTextContent(`Tracked ${shown}`);

    await user.click(await stopButton('Gym'));

    await startButton('Gym');
    await waitFor(() => expect(taskRow('Gym')).toHaveTextContent(`Tracked ${shown}`));
    await tick(5);
    expect(taskRow('Gym')).toHaveTextContent(`Tracked ${shown}`);
  });

  it('asks the server again when the timer reaches 12 hours, and shows the run it recorded', async () => {
    const startedAt = secondsAgo(12 * 3600 - 5);
    let settled = false;
    const running = dayTask({ timerStartedAt: startedAt });
    const stopped = dayTask({ trackedMinutes: 720, timerAutoStopped: true });
    const twelveHours = aTimeEntry({
      taskId: 't1',
      start: startedAt,
      end: new Date(Date.parse(startedAt) + 12 * 3600 * 1000).toISOString(),
    });
    renderToday({
      // Every request settles a timer past its limit; until then it runs.
      [dayRoutes(TODAY).scheduled]: () => {
        settled = Date.now() >= Date.parse(twelveHours.end!);
        return { body: { tasks: [settled ? stopped : running] } };
      },
      [dayRoutes(TODAY).entries]: () => ({
        body: { entries: [settled ? twelveHours : { ...twelveHours, end: null }] },
      }),
    });
    await stopButton('Gym');
    expect(taskRow('Gym')).toHaveTextContent('Tracked 11:59:55');

    await tick(7);

    expect(await startButton('Gym')).toHaveAttribute('aria-pressed', 'false');
    await waitFor(() => expect(taskRow('Gym')).toHaveTextContent('Tracked 12:00:00'));
    expect(taskRow('Gym')).toHaveTextContent('Timer stopped itself after 12 h');
  });

  it('gives the title back when the page goes', async () => {
    const { unmount } = renderToday(timerServer([dayTask({ timerStartedAt: secondsAgo(1) })]));
    await waitFor(() => expect(document.title).toMatch(/^▶ 0:00:0\d Gym – Time Wallet$/));
    unmount();
    expect(document.title).toBe(PAGE_TITLE);
  });

  it('keeps a title the shell sets while the timer runs', async () => {
    const { unmount } = renderToday(timerServer([dayTask({ timerStartedAt: secondsAgo(1) })]));
    await waitFor(() => expect(document.title).toMatch(/^▶/));
    document.title = 'Today · Time Wallet';
    await tick(1);
    expect(document.title).toMatch(/^▶ 0:00:0\d Gym – Today · Time Wallet$/);
    unmount();
    expect(document.title).toBe('Today · Time Wallet');
  });

  it('follows the server when starting one timer stops the other', async () => {
    renderToday(
      timerServer([
        dayTask({ timerStartedAt: secondsAgo(120) }),
        dayTask({ _id: 't2', title: 'Read', startHHMM: '11:00', endHHMM: '12:00' }),
      ]),
    );
    await stopButton('Gym');
    await user.click(await startButton('Read'));

    expect(await stopButton('Read')).toHaveAttribute('aria-pressed', 'true');
    expect(await startButton('Gym')).toHaveAttribute('aria-pressed', 'false');
    expect(taskRow('Gym')).toHaveTextContent('Tracked 0:02:00');
    await waitFor(() => expect(document.title).toMatch(/^▶ 0:00:0\d Read – Time Wallet$/));
  });

  it('runs on an unscheduled task too', async () => {
    renderToday({
      [dayRoutes(TODAY).unscheduled]: {
        body: { tasks: [anUnscheduledTask({ _id: 'u1', date: TODAY, timerStartedAt: secondsAgo(30) })] },
      },
    });
    expect(await stopButton('Read chapter')).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(document.title).toBe(`▶ 0:00:30 Read chapter – ${PAGE_TITLE}`));
  });

  it('says on the task when its timer stopped itself after 12 hours', async () => {
    renderToday(
      timerServer([dayTask({ trackedMinutes: 720, timerAutoStopped: true })], [entryOf('t1', 12 * 3600, 60)]),
    );
    await startButton('Gym');
    expect(taskRow('Gym')).toHaveTextContent('Timer stopped itself after 12 h');
    expect(taskRow('Gym')).toHaveTextContent('Tracked 12:00:00');
  });

  it('says so when the timer cannot start', async () => {
    renderToday({ 'POST /tasks/t1/timer/start': { status: 500 } });
    await user.click(await startButton('Gym'));
    expect(await screen.findByText('Failed to start the timer.')).toBeInTheDocument();
    expect(document.title).toBe(PAGE_TITLE);
  });
});
