import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Task } from '@time-wallet/api';
import { addDays, toLocalDateKey } from '@time-wallet/shared-ui/lib';
import {
  aCategory,
  aLedgerDay,
  aTask,
  anEvent,
  anUnscheduledTask,
  mockApi,
  renderPage,
  usePageTestEnvironment,
  type MockHandler,
  type RecordedRequest,
} from '@time-wallet/api/testing';
import {
  afterRelease,
  layOutWeekGrid,
  moveTo,
  offGridPoint,
  panelPoint,
  pressAndStartDragging,
  release,
  slotPoint,
} from '../../../testing/week-grid-layout';
import { CalendarPage } from './calendar-page';

describe('the calendar with tasks', () => {
  usePageTestEnvironment();
  const now = new Date();
  const sunday = addDays(toLocalDateKey(now), -now.getDay());
  const monday = addDays(sunday, 1);
  const tuesday = addDays(sunday, 2);
  const wednesday = addDays(sunday, 3);

  /** A local day and clock time as the ISO instant the server sends. */
  function at(day: string, hhmm: string): string {
    const [year, month, date] = day.split('-').map(Number);
    const [hours, minutes] = hhmm.split(':').map(Number);
    return new Date(year, month - 1, date, hours, minutes).toISOString();
  }

  const work = aCategory({ _id: 'cat-1', name: 'Work', color: '#c2410c' });
  const standup = anEvent({
    _id: 'event-1',
    title: 'Team standup',
    start: at(monday, '09:00'),
    end: at(monday, '10:00'),
  });
  const report = aTask({
    _id: 'task-1',
    title: 'Write report',
    categoryId: 'cat-1',
    date: tuesday,
    startHHMM: '09:00',
    endHHMM: '10:00',
    start: at(tuesday, '09:00'),
    end: at(tuesday, '10:00'),
  });
  const rent = aTask({
    _id: 'task-2',
    title: 'Pay rent',
    done: true,
    date: tuesday,
    start: at(tuesday, '13:00'),
    end: at(tuesday, '13:30'),
  });
  const chore = aTask({
    _id: 'task-3',
    title: 'Old chore',
    dismissed: true,
    start: at(tuesday, '15:00'),
    end: at(tuesday, '16:00'),
  });
  const unscheduled = (overrides: Partial<Task>) =>
    anUnscheduledTask({
      start: at(overrides.date ?? tuesday, '00:00'),
      end: at(overrides.date ?? tuesday, '00:00'),
      ...overrides,
    });
  const bank = unscheduled({ _id: 'task-u2', title: 'Call the bank', date: tuesday, estimateMinutes: 90 });
  const chapter = unscheduled({
    _id: 'task-u1',
    title: 'Read chapter',
    date: wednesday,
    estimateMinutes: 45,
    categoryId: 'cat-1',
  });
  const desk = unscheduled({ _id: 'task-u3', title: 'Tidy desk', date: wednesday, done: true });
  // An occurrence of a repeating task, given only to the tests about series (the others count Monday without it).
  const review = aTask({
    _id: 'task-s1',
    title: 'Daily review',
    seriesId: 'series-1',
    rrule: 'FREQ=DAILY',
    date: monday,
    startHHMM: '16:00',
    endHHMM: '16:30',
    start: at(monday, '16:00'),
    end: at(monday, '16:30'),
  });
  const withReview = [report, rent, chore, bank, chapter, desk, review];

  /** Answers the question which occurrences of a repeating task move. */
  async function chooseScope(user: ReturnType<typeof userEvent.setup>, label: string) {
    const dialog = await screen.findByRole('dialog', { name: 'Edit recurring task' });
    await user.click(within(dialog).getByRole('radio', { name: label }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
  }

  // Monday: the 1 h standup; Tuesday: report 1 h + rent 30 min = 1.5 h; Wednesday: 9.5 h planned, over an 8 h budget.
  function ledgerDays(planned: Record<string, number>) {
    return Array.from({ length: 8 }, (_, index) => {
      const date = addDays(sunday, index);
      const plannedMinutes = planned[date] ?? 0;
      return aLedgerDay({
        date,
        plannedMinutes,
        budgetMinutes: 480,
        overMinutes: Math.max(0, plannedMinutes - 480),
      });
    });
  }

  /** The calendar against a server that keeps the tasks it is sent, so refetches show what changed. */
  function renderTimeboxing(
    routes: Record<string, MockHandler> = {},
    tasks: Task[] = [report, rent, chore, bank, chapter, desk],
  ) {
    let stored = [...tasks];
    const server = {
      refusal: null as string | null,
      planned: { [monday]: 60, [tuesday]: 90, [wednesday]: 570 } as Record<string, number>,
      /** While set, a placement (or a read of the tasks) is answered only once it settles. */
      placing: null as Promise<void> | null,
      reading: null as Promise<void> | null,
      /** Changes the stored tasks, as a change made elsewhere would. */
      change: (id: string, fields: Partial<Task>) => {
        stored = stored.map((task) => (task._id === id ? { ...task, ...fields } : task));
      },
    };
    const placed = async (request: RecordedRequest) => {
      await server.placing;
      if (server.refusal) return { status: 400, body: { message: server.refusal } };
      const id = request.path.split('?')[0].split('/')[2];
      const body = request.body as Record<string, unknown>;
      stored = stored.map((task) => {
        if (task._id !== id) return task;
        if (body.startHHMM === null) return { ...task, scheduled: false, startHHMM: '', endHHMM: '' };
        const start =
          typeof body.start === 'string' ? body.start : at(String(body.date), String(body.startHHMM));
        const minutes = task.estimateMinutes ?? 60;
        const end =
          typeof body.end === 'string'
            ? body.end
            : new Date(Date.parse(start) + minutes * 60_000).toISOString();
        return { ...task, scheduled: true, start, end };
      });
      return { body: stored.find((task) => task._id === id) };
    };
    const network = mockApi({
      'GET /events': { body: [standup] },
      'GET /tasks/range': async () => {
        await server.reading;
        return { body: { tasks: stored } };
      },
      'GET /ledger': () => ({ body: { days: ledgerDays(server.planned) } }),
      'GET /categories': { body: [work] },
      'PATCH /tasks/task-1': placed,
      'PATCH /tasks/task-u1': placed,
      'PATCH /tasks/task-u2': placed,
      'PATCH /tasks/task-s1': placed,
      ...routes,
    });
    const view = renderPage(<CalendarPage />, { path: '/app/calendar' });
    return { ...view, network, server };
  }

  /** A promise settled by hand: holds a mocked answer back until the test lets it go. */
  function gate() {
    let open = () => {};
    const closed = new Promise<void>((resolve) => {
      open = resolve;
    });
    return { closed, open };
  }

  const grid = () => screen.getByRole('region', { name: 'Week time grid' });
  const panel = () => screen.getByRole('region', { name: 'Unscheduled' });
  const blockOf = (title: string) => within(grid()).getByText(title).closest('.fc-event') as HTMLElement;
  const column = (day: string) =>
    document.querySelector(`td.fc-timegrid-col[data-date="${day}"]`) as HTMLElement;
  const dayHeader = (day: string) =>
    document.querySelector(`th.fc-col-header-cell[data-date="${day}"]`) as HTMLElement;
  const panelItem = (title: string) => within(panel()).getByText(title).closest('li') as HTMLElement;

  /** Checks where the placement dialog starts, then fills in what is given and submits. */
  async function placeWithDialog(
    dialog: HTMLElement,
    { starts, day, time, submit }: { starts: [string, string]; day?: string; time?: string; submit: string },
  ) {
    expect(within(dialog).getByLabelText('Day')).toHaveValue(starts[0]);
    expect(within(dialog).getByLabelText('Start time')).toHaveValue(starts[1]);
    if (day) fireEvent.change(within(dialog).getByLabelText('Day'), { target: { value: day } });
    if (time) fireEvent.change(within(dialog).getByLabelText('Start time'), { target: { value: time } });
    await userEvent.click(within(dialog).getByRole('button', { name: submit }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  }

  async function renderAndWaitForTasks(...args: Parameters<typeof renderTimeboxing>) {
    const view = renderTimeboxing(...args);
    await within(await screen.findByRole('region', { name: 'Week time grid' })).findByText('Write report');
    await waitFor(() => expect(dayHeader(tuesday)).toHaveTextContent('6.5 h left'));
    return view;
  }

  it('asks for the tasks and the ledger of the same days as the events', async () => {
    const { network } = await renderAndWaitForTasks();
    const query = `from=${sunday}&to=${addDays(sunday, 8)}`;
    expect(network.requestsTo('GET', '/events')[0].path).toBe(`/events?${query}`);
    expect(network.requestsTo('GET', '/tasks/range')[0].path).toBe(`/tasks/range?${query}`);
    expect(network.requestsTo('GET', '/ledger')[0].path).toBe(`/ledger?${query}`);
  });

  it('draws scheduled tasks as tasks in their category colour, done ones muted, and leaves dismissed ones out', async () => {
    await renderAndWaitForTasks();
    const task = blockOf('Write report');
    expect(column(tuesday)).toContainElement(task);
    expect(task).toHaveClass('taskBlock');
    expect(task).toHaveTextContent(/^☐Task: Write report09:00 - 10:00$/);
    expect(task.style.borderColor).toBe('rgb(194, 65, 12)');
    const done = blockOf('Pay rent');
    expect(done).toHaveClass('taskBlock', 'taskDone');
    expect(done).toHaveTextContent('☑Done task:');
    expect(blockOf('Team standup')).not.toHaveClass('taskBlock');
    expect(within(grid()).queryByText('Old chore')).not.toBeInTheDocument();
    expect(within(grid()).queryByText('Call the bank')).not.toBeInTheDocument();
  });

  it("shows each day's hours left in its header, and by how much a day is over budget", async () => {
    await renderAndWaitForTasks();
    expect(dayHeader(monday)).toHaveTextContent('7 h left');
    expect(dayHeader(wednesday)).toHaveTextContent('Over by 1.5 h');
    expect(dayHeader(wednesday)).not.toHaveTextContent('left');
  });

  it("lists the visible days' unscheduled tasks still to plan, per day, with their estimates", async () => {
    await renderAndWaitForTasks();
    const list = panel();
    const days = within(list).getAllByRole('heading', { level: 3 });
    expect(days.map((heading) => heading.textContent)).toEqual([
      expect.stringMatching(/^Tuesday, .*1 h 30 min$/),
      expect.stringMatching(/^Wednesday, .*45 min$/),
    ]);
    expect(panelItem('Call the bank')).toHaveTextContent('Estimate: 1 h 30 min');
    expect(panelItem('Read chapter')).toHaveTextContent('Estimate: 45 min');
    expect(within(list).queryByText('Tidy desk')).not.toBeInTheDocument();
    expect(within(list).queryByText('Write report')).not.toBeInTheDocument();
  });

  it('says so when there is nothing left to plan', async () => {
    renderTimeboxing({}, [report]);
    expect(
      await within(await screen.findByRole('region', { name: 'Unscheduled' })).findByText(
        'Nothing left to plan on these days.',
      ),
    ).toBeInTheDocument();
  });

  it('explains a task list that cannot be loaded', async () => {
    renderTimeboxing({ 'GET /tasks/range': { status: 500 } });
    expect(
      await within(await screen.findByRole('region', { name: 'Unscheduled' })).findByRole('alert'),
    ).toHaveTextContent('Failed to load tasks');
  });

  describe('without dragging (WCAG 2.5.7)', () => {
    it('schedules a task with Schedule…: a day and a start time, its estimate as the length', async () => {
      const user = userEvent.setup();
      const { network } = await renderAndWaitForTasks();
      const schedule = within(panelItem('Read chapter')).getByRole('button', { name: 'Schedule…' });
      expect(schedule).toHaveAccessibleDescription('Read chapter');
      await user.click(schedule);
      const dialog = screen.getByRole('dialog', { name: 'Schedule Task' });
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
      expect(within(dialog).getByText('Lasts its estimate: 45 min.')).toBeInTheDocument();
      // Today is visible (this week is shown), so the dialog starts there.
      await placeWithDialog(dialog, {
        starts: [toLocalDateKey(now), '09:00'],
        day: wednesday,
        time: '14:00',
        submit: 'Schedule',
      });
      expect(network.requestsTo('PATCH', '/tasks/task-u1')[0].body).toEqual({
        date: wednesday,
        startHHMM: '14:00',
      });
      expect(await screen.findByText(/^"Read chapter" scheduled on Wed, .* at 14:00$/)).toBeInTheDocument();
      await waitFor(() => expect(column(wednesday)).toContainElement(blockOf('Read chapter')));
      expect(within(panel()).queryByText('Read chapter')).not.toBeInTheDocument();
    });

    it('moves a task on the grid from the keyboard, keeping its length, or unschedules it', async () => {
      const user = userEvent.setup();
      const { network } = await renderAndWaitForTasks();
      blockOf('Write report').focus();
      await user.keyboard('{Enter}');
      await placeWithDialog(screen.getByRole('dialog', { name: 'Move Task' }), {
        starts: [tuesday, '09:00'],
        time: '11:00',
        submit: 'Move',
      });
      expect(network.requestsTo('PATCH', '/tasks/task-1')[0].body).toEqual({
        date: tuesday,
        startHHMM: '11:00',
        endHHMM: '12:00',
      });

      await user.click(await within(grid()).findByText('Write report'));
      await user.click(
        within(screen.getByRole('dialog', { name: 'Move Task' })).getByRole('button', { name: 'Unschedule' }),
      );
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(network.requestsTo('PATCH', '/tasks/task-1')[1].body).toEqual({
        startHHMM: null,
        endHHMM: null,
      });
      expect(await within(panel()).findByText('Write report')).toBeInTheDocument();
      expect(within(grid()).queryByText('Write report')).not.toBeInTheDocument();
      expect(panel()).toHaveFocus();
    });

    it('sets a new end typed in the dialog, saying as it is typed that an earlier end is the next day', async () => {
      const user = userEvent.setup();
      const { network } = await renderAndWaitForTasks();
      blockOf('Write report').focus();
      await user.keyboard('{Enter}');
      const dialog = screen.getByRole('dialog', { name: 'Move Task' });
      const end = within(dialog).getByLabelText('End time');
      // Until an end is typed it follows the start, keeping the hour's length.
      expect(end).toHaveValue('10:00');
      fireEvent.change(within(dialog).getByLabelText('Start time'), { target: { value: '22:30' } });
      expect(end).toHaveValue('23:30');
      expect(within(dialog).queryByText(/ends the next day/i)).not.toBeInTheDocument();
      fireEvent.change(end, { target: { value: '01:15' } });
      expect(within(dialog).getByText(/ends the next day/i)).toBeInTheDocument();
      expect(end).toHaveAccessibleDescription(expect.stringMatching(/ends the next day/i));
      fireEvent.change(end, { target: { value: '23:45' } });
      expect(within(dialog).queryByText(/ends the next day/i)).not.toBeInTheDocument();
      // The same time twice is no span: said before anything is sent.
      fireEvent.change(end, { target: { value: '22:30' } });
      await user.click(within(dialog).getByRole('button', { name: 'Move' }));
      expect(end).toHaveAccessibleDescription(expect.stringContaining('End time must be after start time'));
      expect(network.requestsTo('PATCH', '/tasks/task-1')).toHaveLength(0);
      fireEvent.change(end, { target: { value: '00:30' } });
      await user.click(within(dialog).getByRole('button', { name: 'Move' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(network.requestsTo('PATCH', '/tasks/task-1')[0].body).toEqual({
        date: tuesday,
        startHHMM: '22:30',
        endHHMM: '00:30',
      });
    });

    it('keeps the dialog open with the reason when the server refuses', async () => {
      const user = userEvent.setup();
      await renderAndWaitForTasks({
        'PATCH /tasks/task-u2': { status: 400, body: { message: 'Tasks cannot start in the past' } },
      });
      const schedule = within(panelItem('Call the bank')).getByRole('button', { name: 'Schedule…' });
      await user.click(schedule);
      const dialog = screen.getByRole('dialog', { name: 'Schedule Task' });
      await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(
        'Failed to schedule task: Tasks cannot start in the past',
      );
      // The task never left the list, so closing the dialog gives focus back to the same button.
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      expect(schedule).toBeInTheDocument();
      expect(schedule).toHaveFocus();
    });

    /** Schedules "Call the bank" from the dialog while the next read of the tasks is held back; lets it go later. */
    async function scheduleWhileReadWaits(day?: string, time?: string) {
      const { server } = await renderAndWaitForTasks();
      const reading = gate();
      server.reading = reading.closed;
      await userEvent.click(within(panelItem('Call the bank')).getByRole('button', { name: 'Schedule…' }));
      await placeWithDialog(screen.getByRole('dialog', { name: 'Schedule Task' }), {
        starts: [toLocalDateKey(now), '09:00'],
        day,
        time,
        submit: 'Schedule',
      });
      return { server, reading };
    }

    it('takes a scheduled task out of the list once saved, not once the tasks are read again', async () => {
      const { reading } = await scheduleWhileReadWaits(tuesday, '14:00');
      expect(within(panel()).queryByText('Call the bank')).not.toBeInTheDocument();
      reading.open();
      await waitFor(() => expect(column(tuesday)).toContainElement(blockOf('Call the bank')));
      expect(within(panel()).queryByText('Call the bank')).not.toBeInTheDocument();
    });

    it('lists a scheduled task again when the next read shows it was unscheduled elsewhere meanwhile', async () => {
      const { server, reading } = await scheduleWhileReadWaits();
      expect(within(panel()).queryByText('Call the bank')).not.toBeInTheDocument();
      server.change('task-u2', { scheduled: false });
      reading.open();
      expect(await within(panel()).findByText('Call the bank')).toBeInTheDocument();
      expect(within(grid()).queryByText('Call the bank')).not.toBeInTheDocument();
    });

    it('asks which occurrences of a repeating task move, and sends that scope', async () => {
      const user = userEvent.setup();
      const { network } = await renderAndWaitForTasks({}, withReview);
      blockOf('Daily review').focus();
      await user.keyboard('{Enter}');
      const dialog = screen.getByRole('dialog', { name: 'Move Task' });
      fireEvent.change(within(dialog).getByLabelText('Start time'), { target: { value: '17:00' } });
      await user.click(within(dialog).getByRole('button', { name: 'Move' }));
      expect(network.requestsTo('PATCH', '/tasks/task-s1')).toHaveLength(0);
      await chooseScope(user, 'This and following tasks');
      await waitFor(() => expect(network.requestsTo('PATCH', '/tasks/task-s1')).toHaveLength(1));
      expect(network.requestsTo('PATCH', '/tasks/task-s1')[0]).toMatchObject({
        path: '/tasks/task-s1?scope=following',
        body: { date: monday, startHHMM: '17:00', endHHMM: '17:30' },
      });
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(grid()).toHaveFocus();
    });

    it("keeps focus in the task dialog with the server's reason when a scoped move is refused", async () => {
      const user = userEvent.setup();
      const { server } = await renderAndWaitForTasks({}, withReview);
      server.refusal = 'Tasks cannot start in the past';
      blockOf('Daily review').focus();
      await user.keyboard('{Enter}');
      const dialog = screen.getByRole('dialog', { name: 'Move Task' });
      fireEvent.change(within(dialog).getByLabelText('Start time'), { target: { value: '17:00' } });
      await user.click(within(dialog).getByRole('button', { name: 'Move' }));
      await chooseScope(user, 'All tasks');
      expect(await within(dialog).findByText(/Tasks cannot start in the past/)).toBeInTheDocument();
      await waitFor(() =>
        expect(screen.queryByRole('dialog', { name: 'Edit recurring task' })).not.toBeInTheDocument(),
      );
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    });

    it('keeps the task dialog open, sending nothing, when the scope question is cancelled', async () => {
      const user = userEvent.setup();
      const { network } = await renderAndWaitForTasks({}, withReview);
      blockOf('Daily review').focus();
      await user.keyboard('{Enter}');
      await user.click(
        within(screen.getByRole('dialog', { name: 'Move Task' })).getByRole('button', { name: 'Unschedule' }),
      );
      const question = await screen.findByRole('dialog', { name: 'Edit recurring task' });
      await user.click(within(question).getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('dialog', { name: 'Edit recurring task' })).not.toBeInTheDocument();
      expect(screen.getByRole('dialog', { name: 'Move Task' })).toBeInTheDocument();
      expect(network.requestsTo('PATCH', '/tasks/task-s1')).toHaveLength(0);
    });

    it('asks for a day and a start time before sending', async () => {
      const user = userEvent.setup();
      const { network } = await renderAndWaitForTasks();
      await user.click(within(panelItem('Call the bank')).getByRole('button', { name: 'Schedule…' }));
      const dialog = screen.getByRole('dialog', { name: 'Schedule Task' });
      fireEvent.change(within(dialog).getByLabelText('Start time'), { target: { value: '' } });
      await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
      expect(within(dialog).getByLabelText('Start time')).toHaveAccessibleDescription('Pick a start time');
      expect(network.requestsTo('PATCH', '/tasks/task-u2')).toHaveLength(0);
    });
  });

  it('gives an event a category in its modal', async () => {
    const user = userEvent.setup();
    const { network } = await renderAndWaitForTasks({
      'PATCH /events/event-1': (request) => ({ body: { ...standup, ...(request.body as object) } }),
    });
    await user.click(blockOf('Team standup'));
    const dialog = screen.getByRole('dialog', { name: 'Edit Event' });
    const category = within(dialog).getByLabelText('Category');
    expect(category).toHaveValue('');
    expect(
      within(category)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['No category', 'Work']);
    await user.selectOptions(category, 'Work');
    await user.click(within(dialog).getByRole('button', { name: 'Update Event' }));
    await waitFor(() => expect(network.requestsTo('PATCH', '/events/event-1')).toHaveLength(1));
    expect(network.requestsTo('PATCH', '/events/event-1')[0].body).toMatchObject({ categoryId: 'cat-1' });
  });

  describe('dragging', () => {
    let restoreLayout: () => void;
    beforeEach(() => {
      restoreLayout = layOutWeekGrid();
    });
    afterEach(() => restoreLayout());

    it('schedules a task dragged from the list for its estimate, with the day figures live while it moves', async () => {
      const { network, server } = await renderAndWaitForTasks();
      const item = within(panel()).getByText('Call the bank').closest('[data-task-id]') as HTMLElement;
      await pressAndStartDragging(item, panelPoint());
      moveTo(slotPoint(monday, '14:00'));
      // Monday: 1 h + 1.5 h planned of 8 h.
      expect(dayHeader(monday)).toHaveTextContent('5.5 h left');
      expect(dayHeader(tuesday)).toHaveTextContent('6.5 h left');
      moveTo(slotPoint(wednesday, '20:00'));
      expect(dayHeader(monday)).toHaveTextContent('7 h left');
      expect(dayHeader(wednesday)).toHaveTextContent('Over by 3 h');
      moveTo(slotPoint(tuesday, '14:00'));
      expect(dayHeader(tuesday)).toHaveTextContent('5 h left');
      expect(within(dayHeader(tuesday)).getByText('5 h left')).toHaveClass('preview');
      // The server will count the 1.5 h too, and a quarter of an hour it knows of and the grid does not.
      server.planned = { ...server.planned, [tuesday]: 195 };
      const placing = gate();
      server.placing = placing.closed;
      release(slotPoint(tuesday, '14:00'));
      await waitFor(() => expect(network.requestsTo('PATCH', '/tasks/task-u2')).toHaveLength(1));
      expect(network.requestsTo('PATCH', '/tasks/task-u2')[0].body).toEqual({ start: at(tuesday, '14:00') });
      // While it is saved, the task is where it was dropped and nowhere else.
      expect(within(panel()).queryByText('Call the bank')).not.toBeInTheDocument();
      expect(within(grid()).getAllByText('Call the bank')).toHaveLength(1);
      placing.open();
      await waitFor(() => expect(within(panel()).queryByText('Call the bank')).not.toBeInTheDocument());
      // The block FullCalendar drew on the drop gave way to the task read back: one block, not two.
      expect(within(grid()).getAllByText('Call the bank')).toHaveLength(1);
      expect(column(tuesday)).toContainElement(blockOf('Call the bank'));
      // Once the ledger is read again, the server's figure replaces the preview.
      await waitFor(() => expect(dayHeader(tuesday)).toHaveTextContent('4.8 h left'));
      expect(within(dayHeader(tuesday)).getByText('4.8 h left')).not.toHaveClass('preview');
    });

    it('puts a task dropped from the list back in it, with a toast, when the server refuses', async () => {
      const { network, server } = await renderAndWaitForTasks();
      server.refusal = 'Tasks cannot start in the past';
      const item = within(panel()).getByText('Call the bank').closest('[data-task-id]') as HTMLElement;
      await pressAndStartDragging(item, panelPoint());
      moveTo(slotPoint(tuesday, '14:00'));
      release(slotPoint(tuesday, '14:00'));
      expect(
        await screen.findByText(
          'Could not schedule "Call the bank". Tasks cannot start in the past. It is back in the Unscheduled list.',
        ),
      ).toBeInTheDocument();
      expect(network.requestsTo('PATCH', '/tasks/task-u2')).toHaveLength(1);
      expect(panelItem('Call the bank')).toBeInTheDocument();
      expect(within(grid()).queryByText('Call the bank')).not.toBeInTheDocument();
      expect(dayHeader(tuesday)).toHaveTextContent('6.5 h left');
    });

    it('previews an event dragged over the days, overlaps counted once, and drops the preview off the grid', async () => {
      await renderAndWaitForTasks();
      await pressAndStartDragging(blockOf('Team standup'), slotPoint(monday, '09:00'));
      // On the report's 09:00-10:00, Tuesday's planned time does not grow.
      moveTo(slotPoint(tuesday, '09:00'));
      expect(dayHeader(monday)).toHaveTextContent('8 h left');
      expect(dayHeader(tuesday)).toHaveTextContent('6.5 h left');
      moveTo(slotPoint(tuesday, '11:00'));
      expect(dayHeader(tuesday)).toHaveTextContent('5.5 h left');
      moveTo(offGridPoint());
      expect(dayHeader(monday)).toHaveTextContent('7 h left');
      expect(dayHeader(tuesday)).toHaveTextContent('6.5 h left');
      release(offGridPoint());
      await afterRelease();
      expect(dayHeader(tuesday)).toHaveTextContent('6.5 h left');
    });

    it('moves a task on the grid to another day, and puts it back with a toast when the server refuses', async () => {
      const { network, server } = await renderAndWaitForTasks();
      await pressAndStartDragging(blockOf('Write report'), slotPoint(tuesday, '09:00'));
      moveTo(slotPoint(wednesday, '11:00'));
      release(slotPoint(wednesday, '11:00'));
      await waitFor(() => expect(network.requestsTo('PATCH', '/tasks/task-1')).toHaveLength(1));
      expect(network.requestsTo('PATCH', '/tasks/task-1')[0].body).toEqual({
        start: at(wednesday, '11:00'),
        end: at(wednesday, '12:00'),
      });
      await waitFor(() => expect(column(wednesday)).toContainElement(blockOf('Write report')));

      server.refusal = 'End must be after start';
      await pressAndStartDragging(blockOf('Write report'), slotPoint(wednesday, '11:00'));
      moveTo(slotPoint(monday, '15:00'));
      release(slotPoint(monday, '15:00'));
      expect(
        await screen.findByText(
          'Could not move "Write report". End must be after start. It is back where it was.',
        ),
      ).toBeInTheDocument();
      expect(column(wednesday)).toContainElement(blockOf('Write report'));
      expect(dayHeader(monday)).toHaveTextContent('7 h left');
    });

    it('unschedules a task dragged from the grid onto the list, which shows itself as the drop target', async () => {
      const view = await renderAndWaitForTasks();
      const { network } = view;
      await pressAndStartDragging(blockOf('Write report'), slotPoint(tuesday, '09:00'));
      expect(panel()).toHaveAttribute('data-task-drag');
      moveTo(panelPoint());
      expect(panel()).toHaveAttribute('data-drop-target');
      // Tuesday without the report: 30 min planned.
      expect(dayHeader(tuesday)).toHaveTextContent('7.5 h left');
      const { server } = view;
      const placing = gate();
      server.placing = placing.closed;
      release(panelPoint());
      await waitFor(() => expect(network.requestsTo('PATCH', '/tasks/task-1')).toHaveLength(1));
      expect(network.requestsTo('PATCH', '/tasks/task-1')[0].body).toEqual({
        startHHMM: null,
        endHHMM: null,
      });
      // While it is saved, the task is in the list it was dropped on, and off the grid.
      expect(await within(panel()).findByText('Write report')).toBeInTheDocument();
      expect(within(grid()).queryByText('Write report')).not.toBeInTheDocument();
      placing.open();
      await waitFor(() => expect(network.requestsTo('GET', '/tasks/range')).toHaveLength(2));
      expect(await within(panel()).findByText('Write report')).toBeInTheDocument();
      expect(within(grid()).queryByText('Write report')).not.toBeInTheDocument();
      expect(panel()).not.toHaveAttribute('data-drop-target');
      expect(panel()).not.toHaveAttribute('data-task-drag');
    });

    /** Drags Monday's 16:00 occurrence of the daily review to Wednesday at 18:00 and lets go. */
    async function dragReviewToWednesday() {
      await pressAndStartDragging(blockOf('Daily review'), slotPoint(monday, '16:00'));
      moveTo(slotPoint(wednesday, '18:00'));
      release(slotPoint(wednesday, '18:00'));
      await afterRelease();
    }

    it('asks which occurrences move when a block of a repeating task is dragged, and moves them', async () => {
      const user = userEvent.setup();
      const { network } = await renderAndWaitForTasks({}, withReview);
      await dragReviewToWednesday();
      expect(network.requestsTo('PATCH', '/tasks/task-s1')).toHaveLength(0);
      await chooseScope(user, 'All tasks');
      await waitFor(() => expect(network.requestsTo('PATCH', '/tasks/task-s1')).toHaveLength(1));
      expect(network.requestsTo('PATCH', '/tasks/task-s1')[0]).toMatchObject({
        path: '/tasks/task-s1?scope=all',
        body: { start: at(wednesday, '18:00'), end: at(wednesday, '18:30') },
      });
      await waitFor(() => expect(column(wednesday)).toContainElement(blockOf('Daily review')));
    });

    it('puts a dragged block of a repeating task back on Cancel, sending nothing and saying nothing', async () => {
      const user = userEvent.setup();
      const { network } = await renderAndWaitForTasks({}, withReview);
      await dragReviewToWednesday();
      const question = await screen.findByRole('dialog', { name: 'Edit recurring task' });
      await user.click(within(question).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(column(monday)).toContainElement(blockOf('Daily review')));
      expect(network.requestsTo('PATCH', '/tasks/task-s1')).toHaveLength(0);
      expect(screen.queryByText(/Could not move/)).not.toBeInTheDocument();
    });

    it('does not offer the list as a drop target for an event', async () => {
      const { network } = await renderAndWaitForTasks();
      await pressAndStartDragging(blockOf('Team standup'), slotPoint(monday, '09:00'));
      moveTo(panelPoint());
      expect(panel()).not.toHaveAttribute('data-drop-target');
      release(panelPoint());
      await afterRelease();
      expect(network.requests.filter((request) => request.method === 'PATCH')).toHaveLength(0);
    });
  });
});
