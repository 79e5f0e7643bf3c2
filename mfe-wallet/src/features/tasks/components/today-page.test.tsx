import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { addDays, toLocalDateKey } from '@time-wallet/shared-ui/lib';
import { api } from '@time-wallet/api';
import {
  aLedgerDay,
  deferred,
  type MockHandler,
  type MockReply,
  NETWORK_FAILURE,
  recordRenders,
  usePageTestEnvironment,
} from '@time-wallet/api/testing';
import { longDay } from '../lib/day';
import { instantAt, type Task } from '../lib/task';
import { dayRoutes, dayTask as task, renderToday, taskRow } from '../testing/today';

const user = userEvent.setup({ delay: null });
const today = toLocalDateKey();
/** The queries of the api slice still waiting for an answer. */
const readsInFlight = (store: ReturnType<typeof renderToday>['store']) =>
  Object.values(store.getState()[api.reducerPath].queries).filter((query) => query?.status === 'pending')
    .length;
const scheduledReads = (server: ReturnType<typeof renderToday>['server']) =>
  server.requestsTo('GET', '/tasks').filter((request) => request.path === `/tasks?date=${today}`);

async function fillNewTask({ title = 'Read', start = '14:00', end = '15:00', category = 'Health' } = {}) {
  const form = screen.getByRole('form', { name: 'New Task' });
  await within(form).findByRole('option', { name: category });
  if (title) await user.type(within(form).getByRole('textbox', { name: 'Title' }), title);
  await user.selectOptions(within(form).getByRole('combobox', { name: 'Category' }), category);
  if (start) fireEvent.change(within(form).getByLabelText('Start Time'), { target: { value: start } });
  if (end) fireEvent.change(within(form).getByLabelText('End Time'), { target: { value: end } });
  await user.type(within(form).getByRole('textbox', { name: 'Notes' }), 'Two chapters');
  return form;
}

describe('TodayPage', () => {
  usePageTestEnvironment({ token: 'token-1' });

  it("lists today's tasks with the category in its colour and 24-hour times", async () => {
    const { server } = renderToday({}, [
      task(),
      task({ _id: 't2', title: 'Call mum', categoryId: 'gone', startHHMM: '18:15', endHHMM: '19:00' }),
    ]);

    expect(screen.getByRole('heading', { level: 1, name: 'Today Activities' })).toBeInTheDocument();
    expect(screen.getByText('Manage your habits, reminders, events, activites')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'New Task' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Task List' })).toBeInTheDocument();
    const gym = await waitFor(() => taskRow('Gym'));
    expect(within(gym).getByText('Health')).toHaveStyle({ '--category-color': '#E0533D' });
    expect(gym).toHaveTextContent('09:00 – 10:30');
    expect(taskRow('Call mum')).toHaveTextContent('Unknown Category');
    expect(taskRow('Call mum')).toHaveTextContent('18:15 – 19:00');
    expect(scheduledReads(server)).toHaveLength(1);
  });

  it('says "No category" for a task without one and shows its notes on a line', async () => {
    renderToday({}, [task({ categoryId: '', notes: 'Bring the blue towel and the lock' })]);
    const gym = await waitFor(() => taskRow('Gym'));
    expect(gym).toHaveTextContent('No category');
    expect(gym).not.toHaveTextContent('Unknown Category');
    expect(within(gym).getByText('Bring the blue towel and the lock')).toHaveClass('notes');
  });

  it('marks a task that ends after midnight', async () => {
    renderToday({}, [
      { ...task({ startHHMM: '23:00', endHHMM: '01:00' }), end: instantAt(addDays(today, 1), '01:00') },
    ]);
    const gym = await waitFor(() => taskRow('Gym'));
    expect(gym).toHaveTextContent('23:00 – 01:00 +1');
    expect(within(gym).getByTitle('ends the next day')).toBeInTheDocument();
  });

  it('shows a task put aside from Yesterday as put aside, never as done, and without a timer', async () => {
    // Yesterday's Delete sends SPEC's done: true with dismissed: true; the row still must not read as ticked.
    renderToday({}, [task({ done: true, dismissed: true }), task({ _id: 't2', title: 'Read', done: true })]);
    const gym = await waitFor(() => taskRow('Gym'));
    expect(within(gym).getByText('Put aside')).toBeInTheDocument();
    const box = within(gym).getByRole('checkbox', { name: 'Gym done' });
    expect(box).not.toBeChecked();
    expect(box).toBeDisabled();
    expect(within(gym).getByText('Gym')).not.toHaveClass('done');
    expect(within(gym).queryByRole('button', { name: /timer/ })).not.toBeInTheDocument();
    expect(within(taskRow('Read')).getByRole('checkbox', { name: 'Read done' })).toBeChecked();
    expect(within(taskRow('Read')).queryByText('Put aside')).not.toBeInTheDocument();
  });

  it('shows two still placeholder rows while the list is empty, shimmering ones while it loads', async () => {
    const { container } = renderToday({}, []);
    expect(screen.getByText('Loading tasks')).toBeInTheDocument();
    expect(container.querySelectorAll('.still')).toHaveLength(0);
    expect(await screen.findByText('No tasks for today yet.')).toBeInTheDocument();
    expect(container.querySelectorAll('ul[aria-hidden="true"] > li')).toHaveLength(2);
    expect(container.querySelectorAll('.still').length).toBeGreaterThan(0);
  });

  it('shows a failed load as such, with a way to try again', async () => {
    let fail = true;
    const { container } = renderToday({
      [`GET /tasks?date=${today}`]: () => (fail ? { status: 500, body: {} } : { body: { tasks: [task()] } }),
    });
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await screen.findByRole('alert')).toHaveTextContent("Today's tasks are not available right now.");
    expect(container.querySelectorAll('ul[aria-hidden="true"]')).toHaveLength(0);
    expect(screen.queryByText('No tasks for today yet.')).not.toBeInTheDocument();

    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => taskRow('Gym'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('adds a task for the local day and refreshes the list', async () => {
    let tasks = [task()];
    const { server } = renderToday({
      [`GET /tasks?date=${today}`]: () => ({ body: { tasks } }),
      'POST /tasks': (request) => {
        tasks = [...tasks, task({ _id: 't2', title: 'Read', startHHMM: '14:00', endHHMM: '15:00' })];
        return { status: 201, body: { ...tasks[1], ...(request.body as object) } };
      },
    });
    await waitFor(() => taskRow('Gym'));

    const form = await fillNewTask();
    await user.click(within(form).getByRole('button', { name: 'Add Task' }));

    expect(await screen.findByText('Task added successfully!')).toBeInTheDocument();
    expect(server.requestsTo('POST', '/tasks')[0].body).toEqual({
      title: 'Read',
      categoryId: 'c1',
      startHHMM: '14:00',
      endHHMM: '15:00',
      notes: 'Two chapters',
      date: today,
      isEvent: false,
      isReminder: false,
      carryover: false,
    });
    await waitFor(() => expect(taskRow('Read')).toHaveTextContent('14:00 – 15:00'));
    const title = within(form).getByRole('textbox', { name: 'Title' });
    expect(title).toHaveValue('');
    await waitFor(() => expect(title).toHaveFocus());
  });

  it('refuses equal times and a blank title before any request, on the fields', async () => {
    const { server } = renderToday();
    const form = await fillNewTask({ title: '   ', start: '16:00', end: '16:00' });
    await user.click(within(form).getByRole('button', { name: 'Add Task' }));

    expect(within(form).getByLabelText('End Time')).toHaveAccessibleDescription(
      'End time must be after start time.',
    );
    expect(within(form).getByRole('textbox', { name: 'Title' })).toHaveAccessibleDescription(
      'Title is required',
    );
    expect(server.requestsTo('POST', '/tasks')).toHaveLength(0);
  });

  it('takes an end earlier than the start as the next day, and says so', async () => {
    const { server } = renderToday({ 'POST /tasks': { status: 201, body: task() } });
    const form = await fillNewTask({ start: '23:00', end: '01:00' });
    expect(within(form).getByLabelText('End Time')).toHaveAccessibleDescription('Ends the next day');
    // As they type: an end after the start again, and the hint goes.
    fireEvent.change(within(form).getByLabelText('End Time'), { target: { value: '23:30' } });
    expect(within(form).getByLabelText('End Time')).not.toHaveAccessibleDescription();
    fireEvent.change(within(form).getByLabelText('End Time'), { target: { value: '01:00' } });
    expect(within(form).getByLabelText('End Time')).toHaveAccessibleDescription('Ends the next day');
    await user.click(within(form).getByRole('button', { name: 'Add Task' }));
    await waitFor(() => expect(server.requestsTo('POST', '/tasks')).toHaveLength(1));
    expect(server.requestsTo('POST', '/tasks')[0].body).toMatchObject({
      startHHMM: '23:00',
      endHHMM: '01:00',
    });
  });

  it("shows the server's reason on the field it names", async () => {
    const reason = 'Title must not exceed 200 characters';
    renderToday({
      'POST /tasks': {
        status: 400,
        body: { message: reason, errors: [{ field: 'title', message: reason }] },
      },
    });
    const form = await fillNewTask();
    await user.click(within(form).getByRole('button', { name: 'Add Task' }));
    expect(await screen.findByText(`Failed to add task: ${reason}`)).toBeInTheDocument();
    const title = within(form).getByRole('textbox', { name: 'Title' });
    expect(title).toHaveAccessibleDescription(reason);
    expect(title).toHaveAttribute('aria-invalid', 'true');
    await user.type(title, 'x');
    expect(title).not.toHaveAttribute('aria-invalid');
  });

  it.each<[string, MockHandler, string]>([
    [
      "the server's refusal",
      { status: 400, body: { message: 'Title is required' } },
      'Failed to add task: Title is required',
    ],
    ['a refusal without a message', { status: 500, body: {} }, 'Failed to add task: Failed to create task'],
    ['no network', NETWORK_FAILURE, 'An error occurred while adding the task.'],
  ])('tells about %s when adding', async (_case, failure, message) => {
    renderToday({ 'POST /tasks': failure });
    const form = await fillNewTask();
    await user.click(within(form).getByRole('button', { name: 'Add Task' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it.each([
    [false, true],
    [true, false],
  ])('flips done from %p to %p with the checkbox', async (before, after) => {
    let tasks = [task({ done: before })];
    const { server } = renderToday({
      [`GET /tasks?date=${today}`]: () => ({ body: { tasks } }),
      'PATCH /tasks/t1': (request) => {
        tasks = [{ ...tasks[0], ...(request.body as Partial<Task>) }];
        return { body: tasks[0] };
      },
    });
    const checkbox = await screen.findByRole('checkbox', { name: 'Gym done', checked: before });

    await user.click(checkbox);

    await waitFor(() => expect(scheduledReads(server)).toHaveLength(2));
    await waitFor(() => expect(checkbox).toHaveProperty('checked', after));
    expect(server.requestsTo('PATCH', '/tasks/t1')[0].body).toEqual({ done: after });
  });

  it('draws the form twice while the page loads (first, then with the categories), whatever else answers', async () => {
    const renders = recordRenders();
    try {
      const { store } = renderToday({}, [task(), task({ _id: 't2', title: 'Read' })]);
      await screen.findByRole('checkbox', { name: 'Read done' });
      await screen.findByRole('option', { name: 'Health' });
      await waitFor(() => expect(readsInFlight(store)).toBe(0));
      await screen.findAllByText(/^\d+(\.\d+)? h$/, { selector: 'dd' });
      // Five reads answered (categories, two lists, the ledger, the entries): each drew its own section.
      expect({ form: renders.count('NewTaskForm'), page: renders.count('TodayPage') }).toEqual({
        form: 2,
        page: 2,
      });
    } finally {
      renders.stop();
    }
  });

  it('draws again only what an answer changed: a tick redraws its row and list, not the form or other rows', async () => {
    let tasks = [task(), task({ _id: 't2', title: 'Read' }), task({ _id: 't3', title: 'Call mum' })];
    const { server, store } = renderToday({
      [`GET /tasks?date=${today}`]: () => ({ body: { tasks } }),
      'PATCH /tasks/t1': (request) => {
        tasks = [{ ...tasks[0], ...(request.body as Partial<Task>) }, ...tasks.slice(1)];
        return { body: tasks[0] };
      },
    });
    const checkbox = await screen.findByRole('checkbox', { name: 'Gym done', checked: false });
    await screen.findByRole('option', { name: 'Health' });
    await waitFor(() => expect(readsInFlight(store)).toBe(0));
    const renders = recordRenders();
    try {
      await user.click(checkbox);
      await waitFor(() => expect(scheduledReads(server)).toHaveLength(2));
      await waitFor(() => expect(readsInFlight(store)).toBe(0));
      await waitFor(() => expect(checkbox).toBeChecked());

      const drawn = (names: string[]) => Object.fromEntries(names.map((name) => [name, renders.count(name)]));
      // What the answer changed draws (its last draw may follow the read's end by a render) ...
      await waitFor(() =>
        expect(Math.min(renders.count('DayTaskRow:t1'), renders.count('TaskList'))).toBeGreaterThan(0),
      );
      // ... and nothing else did.
      expect(drawn(['DayTaskRow:t2', 'DayTaskRow:t3', 'NewTaskForm', 'DaySwitcher', 'TodayPage'])).toEqual({
        'DayTaskRow:t2': 0,
        'DayTaskRow:t3': 0,
        NewTaskForm: 0,
        DaySwitcher: 0,
        TodayPage: 0,
      });
    } finally {
      renders.stop();
    }
  });

  it('keeps the box as asked while its change is on the way, whatever a list read started before says', async () => {
    const patch = deferred<MockReply>();
    const staleRead = deferred<MockReply>();
    let reads = 0;
    const { server, store } = renderToday({
      [`GET /tasks?date=${today}`]: () => {
        reads += 1;
        return reads === 2 ? staleRead.promise : { body: { tasks: [task({ done: reads > 2 })] } };
      },
      'PATCH /tasks/t1': () => patch.promise,
    });
    const checkbox = await screen.findByRole('checkbox', { name: 'Gym done', checked: false });
    // Another change's refetch is under way when the box is ticked ...
    act(() => {
      store.dispatch(api.util.invalidateTags(['Task']));
    });
    await waitFor(() => expect(scheduledReads(server)).toHaveLength(2));

    await user.click(checkbox);
    expect(checkbox).toBeChecked();
    // ... and answers first, from before the tick: the box stays as asked.
    await act(async () => staleRead.resolve({ body: { tasks: [task({ done: false })] } }));
    // Until that read is in the cache (its fetch, its JSON, its dispatch).
    await waitFor(() => expect(readsInFlight(store)).toBe(0));
    expect(checkbox).toBeChecked();

    await act(async () => patch.resolve({ body: task({ done: true }) }));
    await waitFor(() => expect(scheduledReads(server)).toHaveLength(3));
    expect(checkbox).toBeChecked();
  });

  it('puts the checkbox back and says so when the toggle fails', async () => {
    renderToday({ 'PATCH /tasks/t1': { status: 500 } });
    const checkbox = await screen.findByRole('checkbox', { name: 'Gym done' });

    await user.click(checkbox);

    expect(await screen.findByText('Failed to toggle task done status.')).toBeInTheDocument();
    // The toast follows the mutation's answer; the cache's undo of the tick is dispatched beside it, so the box may
    // be put back a render later (a CI run saw it still ticked when the toast appeared).
    await waitFor(() => expect(checkbox).not.toBeChecked());
  });

  describe('the Edit Task modal', () => {
    async function openEditor() {
      await waitFor(() => taskRow('Gym'));
      await user.dblClick(within(taskRow('Gym')).getByText('Gym'));
      return screen.getByRole('dialog', { name: 'Edit Task' });
    }

    it('opens on double-click, about 24rem wide, with the task filled in', async () => {
      renderToday();
      const dialog = await openEditor();

      expect(dialog).toHaveStyle({ width: '24rem' });
      expect(within(dialog).getByRole('textbox', { name: 'Title' })).toHaveValue('Gym');
      expect(within(dialog).getByRole('combobox', { name: 'Category' })).toHaveValue('c1');
      expect(within(dialog).getByLabelText('Start Time')).toHaveValue('09:00');
      expect(within(dialog).getByLabelText('End Time')).toHaveValue('10:30');
      expect(within(dialog).getByRole('textbox', { name: 'Notes' })).toHaveValue('');
      for (const name of ['Save', 'Cancel', 'Delete']) {
        expect(within(dialog).getByRole('button', { name })).toBeInTheDocument();
      }
    });

    it('opens from the keyboard with the Edit button and closes on Escape', async () => {
      renderToday();
      const edit = await screen.findByRole('button', { name: 'Edit Gym' });
      edit.focus();
      await user.keyboard('{Enter}');
      expect(screen.getByRole('dialog', { name: 'Edit Task' })).toBeInTheDocument();

      await user.keyboard('{Escape}');
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });

    it('saves the edited task with start and end built from its day, and closes', async () => {
      const { server } = renderToday({ 'PATCH /tasks/t1': { body: task({ title: 'Swim' }) } });
      const dialog = await openEditor();

      const title = within(dialog).getByRole('textbox', { name: 'Title' });
      await user.clear(title);
      await user.type(title, 'Swim');
      fireEvent.change(within(dialog).getByLabelText('End Time'), { target: { value: '11:00' } });
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));

      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(server.requestsTo('PATCH', '/tasks/t1')[0].body).toEqual({
        title: 'Swim',
        categoryId: 'c1',
        startHHMM: '09:00',
        endHHMM: '11:00',
        notes: '',
        date: today,
        start: instantAt(today, '09:00'),
        end: instantAt(today, '11:00'),
      });
    });

    it('edits the notes', async () => {
      const { server } = renderToday({ 'PATCH /tasks/t1': { body: task() } }, [task({ notes: 'Old note' })]);
      const dialog = await openEditor();
      const notes = within(dialog).getByRole('textbox', { name: 'Notes' });
      expect(notes).toHaveValue('Old note');
      await user.clear(notes);
      await user.type(notes, 'New note');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(server.requestsTo('PATCH', '/tasks/t1')).toHaveLength(1));
      expect(server.requestsTo('PATCH', '/tasks/t1')[0].body).toMatchObject({ notes: 'New note' });
    });

    it("shows the server's reason on the field and SPEC's toast", async () => {
      renderToday({
        'PATCH /tasks/t1': {
          status: 400,
          body: {
            message: 'Validation failed',
            errors: [{ field: 'categoryId', message: 'Category not found' }],
          },
        },
      });
      const dialog = await openEditor();
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Failed to update task.')).toBeInTheDocument();
      expect(within(dialog).getByRole('combobox', { name: 'Category' })).toHaveAccessibleDescription(
        'Category not found',
      );
    });

    it('refuses equal times and a blank title without sending them', async () => {
      const { server } = renderToday();
      const dialog = await openEditor();
      await user.clear(within(dialog).getByRole('textbox', { name: 'Title' }));
      expect(within(dialog).getByRole('textbox', { name: 'Title' })).not.toHaveAccessibleDescription();
      fireEvent.change(within(dialog).getByLabelText('End Time'), { target: { value: '09:00' } });
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));

      expect(within(dialog).getByLabelText('End Time')).toHaveAccessibleDescription(
        'End time must be after start time.',
      );
      expect(within(dialog).getByRole('textbox', { name: 'Title' })).toHaveAccessibleDescription(
        'Title is required',
      );
      expect(server.requestsTo('PATCH', '/tasks/t1')).toHaveLength(0);
    });

    it('stays open and says so when saving fails', async () => {
      renderToday({ 'PATCH /tasks/t1': { status: 500 } });
      const dialog = await openEditor();
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));

      expect(await screen.findByText('Failed to update task.')).toBeInTheDocument();
      expect(screen.getByRole('dialog', { name: 'Edit Task' })).toBeInTheDocument();
    });

    it('deletes the task at once and closes, and Undo in the toast brings it back whole', async () => {
      const gym = task({ notes: 'Leg day' });
      let tasks = [gym];
      const { server } = renderToday({
        [`GET /tasks?date=${today}`]: () => ({ body: { tasks } }),
        'DELETE /tasks/t1': () => {
          tasks = [];
          return { status: 204 };
        },
        'POST /tasks/t1/restore': () => {
          tasks = [gym];
          return { body: gym };
        },
      });
      const dialog = await openEditor();
      await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(server.requestsTo('DELETE', '/tasks/t1')).toHaveLength(1);
      expect(await screen.findByText('No tasks for today yet.')).toBeInTheDocument();
      expect(screen.getByText('Task "Gym" deleted')).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Undo' }));
      expect(await screen.findByText('Task restored')).toBeInTheDocument();
      expect(await screen.findByText('Leg day')).toBeInTheDocument();
      expect(server.requestsTo('POST', '/tasks/t1/restore')).toHaveLength(1);
    });

    it('says why when Undo fails', async () => {
      renderToday({
        'DELETE /tasks/t1': { status: 204 },
        'POST /tasks/t1/restore': {
          status: 409,
          body: { message: 'You have reached the limit of 20,000 tasks; delete some before adding more' },
        },
      });
      const dialog = await openEditor();
      await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
      await user.click(await screen.findByRole('button', { name: 'Undo' }));
      expect(await screen.findByText(/limit of 20,000 tasks/)).toBeInTheDocument();
    });

    it('says so when deleting fails', async () => {
      renderToday({ 'DELETE /tasks/t1': { status: 500 } });
      const dialog = await openEditor();
      await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
      expect(await screen.findByText('Failed to delete task.')).toBeInTheDocument();
    });

    it('closes on Cancel and on the backdrop without sending anything', async () => {
      const { server } = renderToday();
      await openEditor();
      await user.click(screen.getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

      const dialog = await openEditor();
      await user.click(dialog.parentElement as HTMLElement);
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(server.requests.filter((request) => request.method !== 'GET')).toHaveLength(0);
    });
  });

  describe('another day', () => {
    const tomorrow = addDays(today, 1);
    const yesterday = addDays(today, -1);

    /** The calls of `day`, answered with `tasks`. */
    const routesOf = (day: string, tasks: Task[] = []): Record<string, MockHandler> => {
      const calls = dayRoutes(day);
      return {
        [calls.scheduled]: { body: { tasks } },
        [calls.unscheduled]: { body: { tasks: [] } },
        [calls.ledger]: { body: { days: [aLedgerDay({ date: day })] } },
      };
    };

    it('moves day by day with the buttons, keeps the day in the URL, and comes back to today', async () => {
      const { server, router } = renderToday({
        ...routesOf(tomorrow, [task({ _id: 't9', title: 'Dentist', date: tomorrow })]),
        ...routesOf(yesterday),
      });
      await waitFor(() => taskRow('Gym'));
      expect(screen.queryByRole('button', { name: 'Today' })).not.toBeInTheDocument();
      expect(screen.getByLabelText('Day')).toHaveValue(today);

      await user.click(screen.getByRole('button', { name: 'Next day' }));
      expect(router.state.location.search).toBe(`?date=${tomorrow}`);
      await waitFor(() => taskRow('Dentist'));
      expect(screen.queryByText('Gym')).not.toBeInTheDocument();
      expect(screen.getByRole('list', { name: `Tasks of ${longDay(tomorrow)}` })).toBeInTheDocument();
      expect(screen.getByText(longDay(tomorrow)).parentElement).toHaveTextContent('tomorrow');
      expect(screen.getByLabelText('Day')).toHaveValue(tomorrow);
      expect(server.requestsTo('GET', '/ledger').at(-1)?.path).toBe(
        `/ledger?from=${tomorrow}&to=${addDays(tomorrow, 1)}`,
      );

      await user.click(screen.getByRole('button', { name: 'Today' }));
      expect(router.state.location.search).toBe('');
      await waitFor(() => taskRow('Gym'));

      await user.click(screen.getByRole('button', { name: 'Previous day' }));
      expect(router.state.location.search).toBe(`?date=${yesterday}`);
      expect(await screen.findByText('No tasks for this day yet.')).toBeInTheDocument();
    });

    it('goes back to the day shown before with the browser history', async () => {
      const { router } = renderToday(
        routesOf(tomorrow, [task({ _id: 't9', title: 'Dentist', date: tomorrow })]),
      );
      await waitFor(() => taskRow('Gym'));
      await user.click(screen.getByRole('button', { name: 'Next day' }));
      await waitFor(() => taskRow('Dentist'));

      await act(() => router.navigate(-1));
      await waitFor(() => taskRow('Gym'));
      expect(screen.getByLabelText('Day')).toHaveValue(today);
    });

    it('shows the day picked in the date input, and waits while a year is still being typed', async () => {
      const { router, server } = renderToday(routesOf('2026-12-25'));
      const input = screen.getByLabelText('Day');

      fireEvent.change(input, { target: { value: '0002-12-25' } });
      expect(router.state.location.search).toBe('');

      fireEvent.change(input, { target: { value: '2026-12-25' } });
      expect(router.state.location.search).toBe('?date=2026-12-25');
      await waitFor(() => expect(server.requestsTo('GET', '/tasks').at(-1)?.path).toMatch(/date=2026-12-25/));
      expect(screen.getByRole('button', { name: 'Today' })).toBeInTheDocument();
    });

    it('opens on the day of the URL after a reload', async () => {
      const { server } = renderToday({}, [task({ date: tomorrow })], {
        search: `?date=${tomorrow}`,
        day: tomorrow,
      });
      await waitFor(() => taskRow('Gym'));
      expect(scheduledReads(server)).toHaveLength(0);
      expect(screen.getByLabelText('Day')).toHaveValue(tomorrow);
    });

    it.each(['2026-13-45', 'soon'])(
      'shows today and says so for ?date=%s, and the notice can go',
      async (bad) => {
        const { router } = renderToday({}, [task()], { search: `?date=${bad}` });
        expect(
          screen.getByText(`“${bad}” is not a day (YYYY-MM-DD), so today is shown.`),
        ).toBeInTheDocument();
        await waitFor(() => taskRow('Gym'));

        await user.click(screen.getByRole('button', { name: 'Dismiss' }));
        expect(router.state.location.search).toBe('');
        expect(screen.queryByText(/is not a day/)).not.toBeInTheDocument();
      },
    );

    it('adds a new task to the day shown and says which day it is', async () => {
      const { server } = renderToday({ 'POST /tasks': { status: 201, body: task({ date: tomorrow }) } }, [], {
        search: `?date=${tomorrow}`,
        day: tomorrow,
      });
      expect(screen.getByText(`Adds a task to ${longDay(tomorrow)}.`)).toBeInTheDocument();
      const form = await fillNewTask();
      await user.click(within(form).getByRole('button', { name: 'Add Task' }));
      await waitFor(() => expect(server.requestsTo('POST', '/tasks')).toHaveLength(1));
      expect(server.requestsTo('POST', '/tasks')[0].body).toMatchObject({ date: tomorrow });
    });
  });

  describe("the day's figures", () => {
    const figure = (label: string) =>
      within(screen.getByText(label, { selector: 'dt' }).parentElement as HTMLElement).getByRole(
        'definition',
      );

    it('shows planned, tracked, unscheduled estimates and budget from the ledger, and the overrun once', async () => {
      const ledger = aLedgerDay({
        date: today,
        plannedMinutes: 570,
        trackedMinutes: 95,
        unscheduledMinutes: 90,
        budgetMinutes: 480,
        overMinutes: 90,
      });
      renderToday({ [dayRoutes(today).ledger]: { body: { days: [ledger] } } });

      await waitFor(() => expect(figure('Planned')).toHaveTextContent('9.5 h'));
      expect(figure('Tracked')).toHaveTextContent('1.6 h');
      expect(figure('Unscheduled estimates')).toHaveTextContent('1.5 h');
      expect(figure('Budget')).toHaveTextContent('8 h');
      expect(screen.getAllByText(/Over budget/)).toHaveLength(1);
      expect(screen.getByText('Over budget by 1.5 h')).toBeInTheDocument();
    });

    it("says a plan a minute over is over, from the ledger's minutes", async () => {
      const ledger = aLedgerDay({ date: today, plannedMinutes: 481, budgetMinutes: 480, overMinutes: 1 });
      renderToday({ [dayRoutes(today).ledger]: { body: { days: [ledger] } } });
      expect(await screen.findByText('Over budget by 1 min')).toBeInTheDocument();
    });

    it('says nothing of going over within the budget', async () => {
      const ledger = aLedgerDay({ date: today, plannedMinutes: 480, budgetMinutes: 480 });
      renderToday({ [dayRoutes(today).ledger]: { body: { days: [ledger] } } });
      await waitFor(() => expect(figure('Planned')).toHaveTextContent('8 h'));
      expect(screen.queryByText(/Over budget/)).not.toBeInTheDocument();
    });

    it('says when the figures did not load, and loads them again', async () => {
      let fail = true;
      renderToday({
        [dayRoutes(today).ledger]: () =>
          fail ? { status: 500 } : { body: { days: [aLedgerDay({ date: today, plannedMinutes: 60 })] } },
      });
      expect(await screen.findByText("The day's figures are not available right now.")).toBeInTheDocument();
      fail = false;
      await user.click(screen.getByRole('button', { name: 'Try again' }));
      await waitFor(() => expect(figure('Planned')).toHaveTextContent('1 h'));
    });
  });
});
