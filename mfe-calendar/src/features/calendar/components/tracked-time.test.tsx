import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TimeEntry } from '@time-wallet/api';
import { addDays, toLocalDateKey } from '@time-wallet/shared-ui/lib';
import {
  aTask,
  aTimeEntry,
  mockApi,
  renderPage,
  usePageTestEnvironment,
  type MockHandler,
  type RecordedRequest,
} from '@time-wallet/api/testing';
import { layOutWeekGrid } from '../../../testing/week-grid-layout';
import { CalendarPage } from './calendar-page';

// jsdom has no PointerEvent: a mouse event with a pointer id stands in, so a drag carries its coordinates.
class PointerEventStandIn extends MouseEvent {
  pointerId: number;
  constructor(type: string, init: PointerEventInit = {}) {
    super(type, init);
    this.pointerId = init.pointerId ?? 1;
  }
}
const windowWithPointers = window as unknown as { PointerEvent?: typeof PointerEvent };
const nativePointerEvent = windowWithPointers.PointerEvent;
beforeAll(() => {
  windowWithPointers.PointerEvent ??= PointerEventStandIn as unknown as typeof PointerEvent;
});
afterAll(() => {
  windowWithPointers.PointerEvent = nativePointerEvent;
});

describe('tracked time beside the plan', () => {
  usePageTestEnvironment();
  const now = new Date();
  const today = toLocalDateKey(now);
  const sunday = addDays(today, -now.getDay());
  // The entries sit on the week's Sunday at fixed times, whatever day the tests run on.
  const at = (day: string, hhmm: string) => {
    const [year, month, date] = day.split('-').map(Number);
    const [hours, minutes] = hhmm.split(':').map(Number);
    return new Date(year, month - 1, date, hours, minutes).toISOString();
  };
  const report = aTask({
    _id: 'task-1',
    title: 'Write report',
    date: sunday,
    start: at(sunday, '09:00'),
    end: at(sunday, '10:00'),
  });
  const morning = aTimeEntry({
    id: 'entry-1',
    taskId: 'task-1',
    start: at(sunday, '09:00'),
    end: at(sunday, '09:40'),
  });
  const running = aTimeEntry({
    id: 'entry-2',
    taskId: 'task-1',
    start: new Date(now.getTime() - 30 * 60_000).toISOString(),
    end: null,
  });

  function renderCalendar(
    path = '/app/calendar?tracked=1',
    {
      entries = [morning],
      routes = {},
    }: { entries?: TimeEntry[]; routes?: Record<string, MockHandler> } = {},
  ) {
    const network = mockApi({
      'GET /events': { body: [] },
      'GET /tasks/range': { body: { tasks: [report] } },
      'GET /ledger': { body: { days: [] } },
      'GET /categories': { body: [] },
      'GET /time-entries': { body: { entries } },
      'PATCH /time-entries/entry-1': (request: RecordedRequest) => ({
        body: { ...morning, ...(request.body as object), source: 'manual' },
      }),
      'POST /time-entries': (request: RecordedRequest) => ({
        status: 201,
        body: { id: 'entry-9', source: 'manual', ...(request.body as object) },
      }),
      'DELETE /time-entries/entry-1': { status: 204 },
      'POST /time-entries/entry-1/restore': { body: morning },
      ...routes,
    });
    const view = renderPage(<CalendarPage />, { path: '/app/calendar', initialEntries: [path] });
    return { ...view, network };
  }

  const column = (day: string) =>
    document.querySelector(`td.fc-timegrid-col[data-date="${day}"]`) as HTMLElement;
  const barOf = async (name: string | RegExp) => screen.findByRole('button', { name });
  const MORNING = 'Tracked: Write report, 09:00 to 09:40';

  it("is a labelled switch, off at first, that shows the week's entries in their day columns and stays on in the URL", async () => {
    const user = userEvent.setup();
    const { network } = renderCalendar('/app/calendar');
    await within(await screen.findByRole('region', { name: 'Week time grid' })).findByText('Write report');
    const toggle = screen.getByRole('switch', { name: 'Show tracked' });
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    expect(network.requestsTo('GET', '/time-entries')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: MORNING })).not.toBeInTheDocument();

    toggle.focus();
    await user.keyboard(' ');
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    const bar = await barOf(MORNING);
    expect(column(sunday)).toContainElement(bar);
    expect(network.requestsTo('GET', '/time-entries')[0].path).toBe(
      `/time-entries?from=${sunday}&to=${addDays(sunday, 8)}`,
    );
    // 09:00 is 37.5 % down the day's 24 hours; 40 minutes are 2.78 % of it.
    expect(bar.style.top).toBe('37.5%');
    expect(bar.style.height).toBe('2.7778%');

    await user.click(toggle);
    expect(screen.queryByRole('button', { name: MORNING })).not.toBeInTheDocument();
  });

  it('opens with the switch on from ?tracked=1, a running entry drawn up to now', async () => {
    renderCalendar('/app/calendar?tracked=1', { entries: [morning, running] });
    expect(screen.getByRole('switch', { name: 'Show tracked' })).toHaveAttribute('aria-checked', 'true');
    const bars = await screen.findAllByRole('button', { name: /to now \(running\)/ });
    expect(bars.length).toBeGreaterThan(0);
    expect(column(today)).toContainElement(bars.at(-1) as HTMLElement);
  });

  it('moves and trims an entry from the keyboard: a bar opens its dialog, which saves only what changed', async () => {
    const user = userEvent.setup();
    const { network } = renderCalendar();
    (await barOf(MORNING)).focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Edit Tracked Time' });
    expect(within(dialog).getByLabelText('Day')).toHaveValue(sunday);
    expect(within(dialog).getByLabelText('Start time')).toHaveValue('09:00');
    const end = within(dialog).getByLabelText('End time');
    expect(end).toHaveValue('09:40');
    fireEvent.change(end, { target: { value: '09:25' } });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(network.requestsTo('PATCH', '/time-entries/entry-1')[0].body).toEqual({
      end: at(sunday, '09:25'),
    });
    expect(await screen.findByText('Tracked time saved')).toBeInTheDocument();
  });

  it('says in the dialog, as the end is typed, that an end before the start is the next day, and saves it so', async () => {
    const user = userEvent.setup();
    const { network } = renderCalendar();
    await user.click(await barOf(MORNING));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Tracked Time' });
    expect(within(dialog).queryByText(/ends the next day/i)).not.toBeInTheDocument();
    // 23:00 to the 09:40 still in the End time field: the next morning.
    fireEvent.change(within(dialog).getByLabelText('Start time'), { target: { value: '23:00' } });
    expect(within(dialog).getByText(/ends the next day/i)).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText('End time'), { target: { value: '23:30' } });
    expect(within(dialog).queryByText(/ends the next day/i)).not.toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText('End time'), { target: { value: '00:30' } });
    expect(within(dialog).getByText(/ends the next day/i)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(network.requestsTo('PATCH', '/time-entries/entry-1')).toHaveLength(1));
    expect(network.requestsTo('PATCH', '/time-entries/entry-1')[0].body).toEqual({
      start: at(sunday, '23:00'),
      end: at(addDays(sunday, 1), '00:30'),
    });
  });

  it("shows the server's overlap message in the dialog, and a future end on the End time field", async () => {
    const user = userEvent.setup();
    const overlap =
      'This time overlaps the time tracked on "Call the bank" (09:10 to 09:30): one person\'s entries cannot overlap';
    let answer: { status: number; body: unknown } = { status: 409, body: { message: overlap } };
    renderCalendar(undefined, { routes: { 'PATCH /time-entries/entry-1': () => answer } });
    await user.click(await barOf(MORNING));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Tracked Time' });
    fireEvent.change(within(dialog).getByLabelText('Start time'), { target: { value: '08:30' } });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(overlap)).toBeInTheDocument();

    const future = 'Tracked time cannot end in the future';
    answer = { status: 400, body: { message: future, errors: [{ field: 'end', message: future }] } };
    fireEvent.change(within(dialog).getByLabelText('End time'), { target: { value: '11:00' } });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText('End time')).toHaveAccessibleDescription(
        expect.stringContaining(future),
      ),
    );
    expect(within(dialog).queryByText(overlap)).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Edit Tracked Time' })).toBeInTheDocument();
  });

  it('deletes an entry from its dialog, and Undo brings it back', async () => {
    const user = userEvent.setup();
    const { network } = renderCalendar();
    await user.click(await barOf(MORNING));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Tracked Time' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(network.requestsTo('DELETE', '/time-entries/entry-1')).toHaveLength(1));
    expect(await screen.findByText('Tracked time on "Write report" deleted')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(network.requestsTo('POST', '/time-entries/entry-1/restore')).toHaveLength(1));
    expect(await screen.findByText('Tracked time restored')).toBeInTheDocument();
  });

  it('adds tracked time for a task from its dialog', async () => {
    const user = userEvent.setup();
    const { network } = renderCalendar();
    const grid = await screen.findByRole('region', { name: 'Week time grid' });
    await user.click(await within(grid).findByText('Write report'));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Move Task' })).getByRole('button', {
        name: 'Add tracked time…',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Add Tracked Time' });
    expect(within(dialog).getByText('Write report')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText('Day'), { target: { value: sunday } });
    fireEvent.change(within(dialog).getByLabelText('Start time'), { target: { value: '13:00' } });
    fireEvent.change(within(dialog).getByLabelText('End time'), { target: { value: '13:45' } });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(network.requestsTo('POST', '/time-entries')[0].body).toEqual({
      taskId: 'task-1',
      start: at(sunday, '13:00'),
      end: at(sunday, '13:45'),
    });
  });

  describe('with a pointer', () => {
    let restoreLayout: () => void;
    beforeEach(() => {
      restoreLayout = layOutWeekGrid();
    });
    afterEach(() => restoreLayout());

    // The lane is laid out 720 px high for the day's 1440 minutes: 2 minutes a pixel.
    const drag = (element: Element, fromY: number, byPx: number) => {
      fireEvent.pointerDown(element, { button: 0, clientY: fromY });
      fireEvent.pointerMove(window, { clientY: fromY + byPx / 2 });
      fireEvent.pointerMove(window, { clientY: fromY + byPx });
      fireEvent.pointerUp(window, { clientY: fromY + byPx });
    };

    it('moves an entry by dragging its bar, opening no dialog', async () => {
      const { network } = renderCalendar();
      const bar = await barOf(MORNING);
      drag(bar, 275, 30);
      fireEvent.click(bar);
      await waitFor(() => expect(network.requestsTo('PATCH', '/time-entries/entry-1')).toHaveLength(1));
      expect(network.requestsTo('PATCH', '/time-entries/entry-1')[0].body).toEqual({
        start: at(sunday, '10:00'),
        end: at(sunday, '10:40'),
      });
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });

    it('trims an entry by dragging the bottom edge of its bar', async () => {
      const { network } = renderCalendar();
      const bar = await barOf(MORNING);
      drag(bar.querySelector('[data-edge="end"]') as Element, 290, -10);
      await waitFor(() => expect(network.requestsTo('PATCH', '/time-entries/entry-1')).toHaveLength(1));
      expect(network.requestsTo('PATCH', '/time-entries/entry-1')[0].body).toEqual({
        start: at(sunday, '09:00'),
        end: at(sunday, '09:20'),
      });
    });

    it("puts a refused drag back and says the server's reason", async () => {
      const future = 'Tracked time cannot end in the future';
      renderCalendar(undefined, {
        routes: {
          'PATCH /time-entries/entry-1': {
            status: 400,
            body: { message: future, errors: [{ field: 'end', message: future }] },
          },
        },
      });
      const bar = await barOf(MORNING);
      drag(bar, 275, 30);
      expect(
        await screen.findByText(
          /Could not change the time tracked on "Write report"\. Tracked time cannot end in the future\./,
        ),
      ).toBeInTheDocument();
      await waitFor(() => expect(bar.style.top).toBe('37.5%'));
    });
  });
});
