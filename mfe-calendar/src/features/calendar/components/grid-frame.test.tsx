import { screen } from '@testing-library/react';
import { anEvent, mockApi, renderPage, resetTestEnvironment } from '@time-wallet/api/testing';
import { CalendarPage } from './calendar-page';

// Alone in its file: FullCalendar, once loaded, stays loaded for the page's later renders (as in a browser), so
// only a first render draws the frame.

function atToday(hours: number): string {
  const date = new Date();
  date.setHours(hours, 0, 0, 0);
  return date.toISOString();
}

beforeEach(() => resetTestEnvironment());

it("draws the week grid's frame, inert and busy, until FullCalendar replaces it; both show the same days", async () => {
  const network = mockApi({
    'GET /events': {
      body: [anEvent({ _id: 'event-1', title: 'Team standup', start: atToday(9), end: atToday(10) })],
    },
    'GET /tasks/range': { body: { tasks: [] } },
    'GET /ledger': { body: { days: [] } },
    'GET /categories': { body: [] },
  });
  renderPage(<CalendarPage />, { path: '/app/calendar' });
  const grid = screen.getByRole('region', { name: 'Week time grid' });
  const frame = grid.querySelector('[inert]');
  expect(frame).toHaveAttribute('aria-busy', 'true');
  expect(frame).toHaveTextContent('06:00');
  expect(frame).toHaveTextContent(String(new Date().getDate()));

  expect(await screen.findByText('Team standup')).toBeInTheDocument();
  expect(grid.querySelector('[inert]')).toBeNull();
  // The frame asked for the days FullCalendar then showed: one request, not a second when the grid arrived.
  expect(network.requestsTo('GET', '/events')).toHaveLength(1);
});
