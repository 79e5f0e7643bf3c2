import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { anUnscheduledTask, usePageTestEnvironment } from '@time-wallet/api/testing';
import { toLocalDateKey } from '@time-wallet/shared-ui/lib';
import { instantAt, type Task } from '../lib/task';
import { dayRoutes, dayTask, renderToday, taskRow } from '../testing/today';

const user = userEvent.setup({ delay: null });
const today = toLocalDateKey();
const { unscheduled } = dayRoutes(today);

const unscheduledTask = (changes: Partial<Task> = {}) =>
  anUnscheduledTask({ _id: 'u1', title: 'Read chapter', date: today, estimateMinutes: 45, ...changes });

const unscheduledList = () => screen.findByRole('list', { name: 'Unscheduled tasks' });

async function openEditor(title: string) {
  await user.click(await screen.findByRole('button', { name: `Edit ${title}` }));
  return screen.getByRole('dialog', { name: 'Edit Task' });
}

describe('unscheduled tasks on Today', () => {
  usePageTestEnvironment({ token: 'token-1' });

  it("lists the day's unscheduled tasks with their estimates in their own section", async () => {
    const { server } = renderToday({
      [unscheduled]: {
        body: {
          tasks: [unscheduledTask(), unscheduledTask({ _id: 'u2', title: 'Plan trip', estimateMinutes: 90 })],
        },
      },
    });

    expect(screen.getByRole('heading', { level: 2, name: 'Unscheduled' })).toBeInTheDocument();
    const [read, plan] = within(await unscheduledList()).getAllByRole('listitem');
    expect(read).toHaveTextContent('Read chapter');
    expect(read).toHaveTextContent('Estimate 45 min');
    expect(plan).toHaveTextContent('Estimate 1 h 30 min');
    expect(
      within(screen.getByRole('list', { name: "Today's tasks" })).queryByText('Read chapter'),
    ).toBeNull();
    expect(server.requestsTo('GET', '/tasks').map((request) => request.path)).toContain(
      `/tasks?date=${today}&scheduled=false`,
    );
  });

  it('says when there are none', async () => {
    renderToday();
    expect(
      await screen.findByText('No unscheduled tasks. Add one with an estimate and no times.'),
    ).toBeInTheDocument();
  });

  it("says when they did not load, apart from the day's list", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderToday({ [unscheduled]: { status: 500 } });
    expect(await screen.findByText('Unscheduled tasks are not available right now.')).toBeInTheDocument();
    await waitFor(() => taskRow('Gym'));
  });

  it('marks one done with its checkbox', async () => {
    let tasks = [unscheduledTask()];
    const { server } = renderToday({
      [unscheduled]: () => ({ body: { tasks } }),
      'PATCH /tasks/u1': (request) => {
        tasks = [{ ...tasks[0], ...(request.body as Partial<Task>) }];
        return { body: tasks[0] };
      },
    });
    await user.click(await screen.findByRole('checkbox', { name: 'Read chapter done' }));
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Read chapter done' })).toBeChecked());
    expect(server.requestsTo('PATCH', '/tasks/u1')[0].body).toEqual({ done: true });
  });

  describe('the New Task form', () => {
    it('adds a task with an estimate and no times as unscheduled', async () => {
      let tasks: Task[] = [];
      const { server } = renderToday({
        [unscheduled]: () => ({ body: { tasks } }),
        'POST /tasks': () => {
          tasks = [unscheduledTask({ title: 'Write essay', estimateMinutes: 90 })];
          return { status: 201, body: tasks[0] };
        },
      });
      const form = screen.getByRole('form', { name: 'New Task' });
      await user.type(within(form).getByRole('textbox', { name: 'Title' }), 'Write essay');
      await user.type(within(form).getByRole('spinbutton', { name: 'Estimate (minutes)' }), '90');
      await user.click(within(form).getByRole('button', { name: 'Add Task' }));

      expect(await screen.findByText('Task added successfully!')).toBeInTheDocument();
      expect(server.requestsTo('POST', '/tasks')[0].body).toEqual({
        title: 'Write essay',
        categoryId: '',
        notes: '',
        estimateMinutes: 90,
        date: today,
        isEvent: false,
        isReminder: false,
        carryover: false,
      });
      expect(await within(await unscheduledList()).findByText('Estimate 1 h 30 min')).toBeInTheDocument();
      expect(within(form).getByRole('spinbutton', { name: 'Estimate (minutes)' })).toHaveValue(null);
    });

    it('asks for times or an estimate when it has neither, and sends nothing', async () => {
      const { server } = renderToday();
      const form = screen.getByRole('form', { name: 'New Task' });
      await user.type(within(form).getByRole('textbox', { name: 'Title' }), 'Write essay');
      await user.click(within(form).getByRole('button', { name: 'Add Task' }));

      const estimate = within(form).getByRole('spinbutton', { name: 'Estimate (minutes)' });
      expect(estimate).toHaveAccessibleDescription(
        expect.stringContaining('Give a start and end time, or an estimate in minutes.'),
      );
      expect(estimate).toHaveAttribute('aria-invalid', 'true');
      expect(server.requestsTo('POST', '/tasks')).toHaveLength(0);

      fireEvent.change(within(form).getByLabelText('Start Time'), { target: { value: '10:00' } });
      expect(estimate).not.toHaveAttribute('aria-invalid');
    });

    it("keeps SPEC's message for one time without the other, estimate or not", async () => {
      const { server } = renderToday();
      const form = screen.getByRole('form', { name: 'New Task' });
      await user.type(within(form).getByRole('textbox', { name: 'Title' }), 'Write essay');
      fireEvent.change(within(form).getByLabelText('Start Time'), { target: { value: '10:00' } });
      await user.type(within(form).getByRole('spinbutton', { name: 'Estimate (minutes)' }), '30');
      await user.click(within(form).getByRole('button', { name: 'Add Task' }));

      expect(within(form).getByLabelText('End Time')).toHaveAccessibleDescription(
        'Start time and end time are required.',
      );
      expect(server.requestsTo('POST', '/tasks')).toHaveLength(0);
    });

    it('refuses an estimate outside 1 to 1440 minutes', async () => {
      const { server } = renderToday();
      const form = screen.getByRole('form', { name: 'New Task' });
      await user.type(within(form).getByRole('textbox', { name: 'Title' }), 'Write essay');
      await user.type(within(form).getByRole('spinbutton', { name: 'Estimate (minutes)' }), '1500');
      await user.click(within(form).getByRole('button', { name: 'Add Task' }));

      expect(
        within(form).getByRole('spinbutton', { name: 'Estimate (minutes)' }),
      ).toHaveAccessibleDescription(
        expect.stringContaining('Estimate must be a whole number of minutes from 1 to 1440.'),
      );
      expect(server.requestsTo('POST', '/tasks')).toHaveLength(0);
    });
  });

  describe('the Edit Task modal', () => {
    it('shows an unscheduled task without times, with its estimate and tracked minutes', async () => {
      renderToday({ [unscheduled]: { body: { tasks: [unscheduledTask({ trackedMinutes: 20 })] } } });
      const dialog = await openEditor('Read chapter');
      expect(within(dialog).getByLabelText('Start Time')).toHaveValue('');
      expect(within(dialog).getByLabelText('End Time')).toHaveValue('');
      expect(within(dialog).getByRole('spinbutton', { name: 'Estimate (minutes)' })).toHaveValue(45);
      expect(within(dialog).getByRole('spinbutton', { name: 'Tracked (minutes)' })).toHaveValue(20);
    });

    it('schedules an unscheduled task given times, and edits its estimate', async () => {
      const { server } = renderToday({
        [unscheduled]: { body: { tasks: [unscheduledTask()] } },
        'PATCH /tasks/u1': { body: unscheduledTask() },
      });
      const dialog = await openEditor('Read chapter');
      fireEvent.change(within(dialog).getByLabelText('Start Time'), { target: { value: '14:00' } });
      fireEvent.change(within(dialog).getByLabelText('End Time'), { target: { value: '15:00' } });
      const estimate = within(dialog).getByRole('spinbutton', { name: 'Estimate (minutes)' });
      await user.clear(estimate);
      await user.type(estimate, '60');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));

      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(server.requestsTo('PATCH', '/tasks/u1')[0].body).toEqual({
        title: 'Read chapter',
        categoryId: '',
        notes: '',
        startHHMM: '14:00',
        endHHMM: '15:00',
        date: today,
        start: instantAt(today, '14:00'),
        end: instantAt(today, '15:00'),
        estimateMinutes: 60,
      });
    });

    it('unschedules a task whose two times are cleared', async () => {
      const { server } = renderToday({ 'PATCH /tasks/t1': { body: dayTask() } });
      const dialog = await openEditor('Gym');
      fireEvent.change(within(dialog).getByLabelText('Start Time'), { target: { value: '' } });
      fireEvent.change(within(dialog).getByLabelText('End Time'), { target: { value: '' } });
      await user.type(within(dialog).getByRole('spinbutton', { name: 'Estimate (minutes)' }), '90');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));

      await waitFor(() => expect(server.requestsTo('PATCH', '/tasks/t1')).toHaveLength(1));
      expect(server.requestsTo('PATCH', '/tasks/t1')[0].body).toMatchObject({
        startHHMM: null,
        endHHMM: null,
        estimateMinutes: 90,
      });
      expect(server.requestsTo('PATCH', '/tasks/t1')[0].body).not.toHaveProperty('start');
    });

    it('corrects the tracked minutes after saving the task, and only when they changed', async () => {
      const { server } = renderToday({
        'PATCH /tasks/t1': (request) => ({ body: { ...dayTask(), ...(request.body as object) } }),
      });
      let dialog = await openEditor('Gym');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(server.requestsTo('PATCH', '/tasks/t1')).toHaveLength(1);

      dialog = await openEditor('Gym');
      const tracked = within(dialog).getByRole('spinbutton', { name: 'Tracked (minutes)' });
      await user.clear(tracked);
      await user.type(tracked, '75');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));

      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      const patches = server.requestsTo('PATCH', '/tasks/t1');
      expect(patches).toHaveLength(3);
      expect(patches[2].body).toEqual({ trackedMinutes: 75 });
    });

    it("refuses tracked minutes outside 0 to 1440 and shows the server's reason", async () => {
      const reason = 'trackedMinutes must be a whole number of minutes from 0 to 1440';
      const { server } = renderToday({
        'PATCH /tasks/t1': (request) =>
          'trackedMinutes' in (request.body as object)
            ? {
                status: 400,
                body: {
                  message: 'Validation failed',
                  errors: [{ field: 'trackedMinutes', message: reason }],
                },
              }
            : { body: dayTask() },
      });
      const dialog = await openEditor('Gym');
      const tracked = within(dialog).getByRole('spinbutton', { name: 'Tracked (minutes)' });
      await user.clear(tracked);
      await user.type(tracked, '2000');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      expect(tracked).toHaveAccessibleDescription(
        'Tracked time must be a whole number of minutes from 0 to 1440.',
      );
      expect(server.requestsTo('PATCH', '/tasks/t1')).toHaveLength(0);

      await user.clear(tracked);
      await user.type(tracked, '30');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(tracked).toHaveAccessibleDescription(reason));
      expect(screen.getByRole('dialog', { name: 'Edit Task' })).toBeInTheDocument();
      expect(await screen.findByText('Failed to update task.')).toBeInTheDocument();
    });
  });
});
