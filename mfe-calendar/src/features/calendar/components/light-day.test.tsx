import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  aLedgerDay,
  aTask,
  anEvent,
  mockApi,
  renderPage,
  resetTestEnvironment,
  stubMatchMedia,
} from '@time-wallet/api/testing';
import { addDays, toLocalDateKey } from '@time-wallet/shared-ui/lib';
import { lightBlocksOf } from '../lib/light-day';
import { CalendarPage } from './calendar-page';
import { LightDay } from './light-day';

// Alone in its file: FullCalendar, once loaded, stays loaded for the page's later renders (as in a browser), so only
// a first visit on a phone draws the light day view.

const today = toLocalDateKey();
const at = (day: string, hhmm: string) => new Date(`${day}T${hhmm}:00`).toISOString();

/** Long enough for FullCalendar to load had the page asked for it (it asks one frame after the first paint). */
const aFewFrames = () => new Promise((resolve) => setTimeout(resolve, 200));

beforeEach(() => {
  resetTestEnvironment();
  // A phone: the page's one-day grid.
  stubMatchMedia((query) => query === '(max-width: 640px)');
});

it("draws a phone's day without FullCalendar until the grid is used: blocks, figure, days; a tap opens the block", async () => {
  const network = mockApi({
    'GET /events': ({ url }) => ({
      body:
        new URL(url).searchParams.get('from') === today
          ? [
              anEvent({
                _id: 'event-1',
                title: 'Team standup',
                start: at(today, '09:00'),
                end: at(today, '10:00'),
              }),
            ]
          : [],
    }),
    'GET /tasks/range': {
      body: {
        tasks: [
          aTask({
            _id: 'task-1',
            title: 'Write report',
            date: today,
            start: at(today, '09:30'),
            end: at(today, '11:00'),
          }),
        ],
      },
    },
    'GET /ledger': { body: { days: [aLedgerDay({ date: today, remainingMinutes: 600, overMinutes: 0 })] } },
    'GET /categories': { body: [] },
  });
  const user = userEvent.setup();
  renderPage(<CalendarPage />, { path: '/app/calendar' });
  const grid = screen.getByRole('region', { name: 'Week time grid' });

  const standup = await within(grid).findByRole('button', { name: /Team standup/ });
  expect(standup).toHaveTextContent('09:00 - 10:00');
  // Overlapping blocks side by side, each half the column.
  const report = within(grid).getByRole('button', { name: /Write report/ });
  expect([standup.style.width, report.style.width]).toEqual(['50%', '50%']);
  expect(grid).toHaveTextContent('10 h left');
  await aFewFrames();
  expect(grid.querySelector('.fc')).toBeNull();

  // A day further: the frame asks for that day, still without FullCalendar.
  await user.click(within(grid).getByRole('button', { name: 'Next day' }));
  await waitFor(() =>
    expect(
      network.requestsTo('GET', '/events').map((request) => new URL(request.url).searchParams.get('from')),
    ).toContain(addDays(today, 1)),
  );
  await waitFor(() => expect(within(grid).queryByRole('button', { name: /Team standup/ })).toBeNull());
  await user.click(within(grid).getByRole('button', { name: 'today' }));
  await user.click(await within(grid).findByRole('button', { name: /Team standup/ }));

  const dialog = await screen.findByRole('dialog', { name: 'Edit Event' });
  expect(within(dialog).getByLabelText('Title')).toHaveValue('Team standup');
  // The grid was used: FullCalendar takes over behind the dialog, and focus comes back to the grid from it.
  await waitFor(() => expect(grid.querySelector('.fc')).not.toBeNull());
  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  expect(grid).toHaveFocus();
});

it('tells the half hour tapped on an empty slot, not a tap on a block', () => {
  const onTapSlot = jest.fn();
  const onOpenBlock = jest.fn();
  render(
    <LightDay
      day={today}
      blocks={lightBlocksOf({
        day: today,
        events: [
          anEvent({ _id: 'event-1', title: 'Gym', start: at(today, '18:00'), end: at(today, '19:00') }),
        ],
        tasks: [],
        categoryColors: new Map(),
        calendarLooks: new Map(),
      })}
      onOpenBlock={onOpenBlock}
      onTapSlot={onTapSlot}
    />,
  );
  const column = document.querySelector<HTMLElement>(`[data-light-day="${today}"]`);
  if (!column) throw new Error('no light day column');
  // jsdom lays nothing out: the column is given a minute per pixel.
  jest.spyOn(column, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 0, 300, 1440));
  fireEvent.click(column, { clientY: 7 * 60 + 20 });
  expect(onTapSlot).toHaveBeenCalledWith(new Date(`${today}T07:00:00`));

  fireEvent.click(screen.getByRole('button', { name: /Gym/ }));
  expect(onOpenBlock).toHaveBeenCalledWith(expect.objectContaining({ kind: 'event', itemId: 'event-1' }));
  expect(onTapSlot).toHaveBeenCalledTimes(1);
});
