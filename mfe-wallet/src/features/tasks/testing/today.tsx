import { screen } from '@testing-library/react';
import { aLedgerDay, aTask, mockApi, type MockHandler, renderPage } from '@time-wallet/api/testing';
import { addDays, toLocalDateKey } from '@time-wallet/shared-ui/lib';
import { TodayPage } from '../components/today-page';
import { instantAt, type Task } from '../lib/task';

// What the Today page's tests share: a task of a local day at local clock times, and the page on its route with the
// calls it makes answered.

export const CATEGORIES = [{ _id: 'c1', name: 'Health', color: '#E0533D' }];

/** A scheduled task of `date` (today unless told) from 09:00 to 10:30 local time, unless told otherwise. */
export function dayTask(changes: Partial<Task> = {}): Task {
  const date = changes.date ?? toLocalDateKey();
  const startHHMM = changes.startHHMM ?? '09:00';
  const endHHMM = changes.endHHMM ?? '10:30';
  return aTask({
    _id: 't1',
    title: 'Gym',
    categoryId: 'c1',
    ...changes,
    date,
    startHHMM,
    endHHMM,
    start: instantAt(date, startHHMM),
    end: instantAt(date, endHHMM),
  });
}

/** The calls of the day's page: its scheduled and unscheduled tasks, its ledger and its time entries, keyed as mockApi routes them. */
export const dayRoutes = (day: string) => ({
  scheduled: `GET /tasks?date=${day}`,
  unscheduled: `GET /tasks?date=${day}&scheduled=false`,
  ledger: `GET /ledger?from=${day}&to=${addDays(day, 1)}`,
  entries: `GET /time-entries?from=${day}&to=${addDays(day, 1)}`,
});

/** Today's page at /app/today (with `search`, e.g. '?date=2026-11-21'), `tasks` listed for the day it shows. */
export function renderToday(
  routes: Record<string, MockHandler> = {},
  tasks: Task[] = [dayTask()],
  { search = '', day = toLocalDateKey() }: { search?: string; day?: string } = {},
) {
  const calls = dayRoutes(day);
  const server = mockApi({
    'GET /categories': { body: CATEGORIES },
    [calls.scheduled]: { body: { tasks } },
    [calls.unscheduled]: { body: { tasks: [] } },
    [calls.ledger]: { body: { days: [aLedgerDay({ date: day })] } },
    [calls.entries]: { body: { entries: [] } },
    ...routes,
  });
  return {
    server,
    ...renderPage(<TodayPage />, { path: '/app/today', initialEntries: [`/app/today${search}`] }),
  };
}

/** The row of a task in any of the page's lists, found by its done checkbox. */
export const taskRow = (title: string) =>
  screen.getByRole('checkbox', { name: `${title} done` }).closest('li') as HTMLElement;
