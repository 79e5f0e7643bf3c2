import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  anUnscheduledTask,
  mockApi,
  type RecordedRequest,
  renderPage,
  usePageTestEnvironment,
} from '@time-wallet/api/testing';
import { addDays, toLocalDateKey } from '@time-wallet/shared-ui/lib';
import { instantAt, type Task } from '../lib/task';
import { dayRoutes, dayTask, renderToday, taskRow } from '../testing/today';
import { YesterdayPage } from './yesterday-page';

// Issue 17 in the wallet: the New Task form and the Edit Task modal write a repeat rule, rows mark repeating tasks,
// and editing or deleting an occurrence asks which occurrences are meant, then sends the matching request.

const user = userEvent.setup({ delay: null });
const today = toLocalDateKey();
const tomorrow = addDays(today, 1);
const weekdayName = (day: string) =>
  new Date(`${day}T00:00`).toLocaleDateString('en-US', { weekday: 'long' });
const todayName = weekdayName(today);

/** Today's occurrence of the daily series 's1' (which started some days ago), 09:00 to 10:30. */
const occurrence = (changes: Partial<Task> = {}): Task =>
  dayTask({
    _id: `s1_${today.replaceAll('-', '')}T090000Z`,
    seriesId: 's1',
    rrule: 'FREQ=DAILY',
    recurrenceId: instantAt(today, '09:00'),
    ...changes,
  });

/** The query string of a request, as URLSearchParams. */
const queryOf = (request: RecordedRequest) => new URLSearchParams(request.path.split('?')[1] ?? '');
const writes = (server: ReturnType<typeof mockApi>) =>
  server.requests.filter((request) => request.method !== 'GET');

describe('repeating tasks', () => {
  usePageTestEnvironment({ token: 'token-1' });

  describe('the New Task form', () => {
    const form = () => screen.getByRole('form', { name: 'New Task' });
    const repeatSelect = () => within(form()).getByRole('combobox', { name: 'Repeat' });

    async function fillTimedTask(title = 'Stretch') {
      await within(form()).findByRole('option', { name: 'Health' });
      await user.type(within(form()).getByRole('textbox', { name: 'Title' }), title);
      fireEvent.change(within(form()).getByLabelText('Start Time'), { target: { value: '08:00' } });
      fireEvent.change(within(form()).getByLabelText('End Time'), { target: { value: '08:30' } });
    }

    it('sends the rule picked in Repeat with the task, and starts over without one', async () => {
      const { server } = renderToday({ 'POST /tasks': { status: 201, body: occurrence() } });
      await fillTimedTask();
      expect(repeatSelect()).toHaveDisplayValue('Does not repeat');
      await user.selectOptions(repeatSelect(), 'Daily');
      await user.click(within(form()).getByRole('button', { name: 'Add Task' }));

      await waitFor(() => expect(server.requestsTo('POST', '/tasks')).toHaveLength(1));
      expect(server.requestsTo('POST', '/tasks')[0].body).toMatchObject({
        title: 'Stretch',
        date: today,
        startHHMM: '08:00',
        endHHMM: '08:30',
        rrule: 'FREQ=DAILY',
      });
      await waitFor(() => expect(repeatSelect()).toHaveDisplayValue('Does not repeat'));
    });

    it('sends weekly days and an end after a number of times', async () => {
      const { server } = renderToday({ 'POST /tasks': { status: 201, body: occurrence() } });
      await fillTimedTask();
      await user.selectOptions(repeatSelect(), `Weekly on ${todayName}`);
      await user.click(within(form()).getByRole('radio', { name: 'After' }));
      const count = within(form()).getByRole('spinbutton', { name: 'Number of times' });
      await user.clear(count);
      await user.type(count, '6');
      await user.click(within(form()).getByRole('button', { name: 'Add Task' }));

      await waitFor(() => expect(server.requestsTo('POST', '/tasks')).toHaveLength(1));
      const day = todayName.slice(0, 2).toUpperCase();
      expect(server.requestsTo('POST', '/tasks')[0].body).toMatchObject({
        rrule: `FREQ=WEEKLY;BYDAY=${day};COUNT=6`,
      });
    });

    it('repeats an unscheduled task by dates: its end date is a DATE', async () => {
      const { server } = renderToday({ 'POST /tasks': { status: 201, body: anUnscheduledTask() } });
      await within(form()).findByRole('option', { name: 'Health' });
      await user.type(within(form()).getByRole('textbox', { name: 'Title' }), 'Inbox zero');
      await user.type(within(form()).getByLabelText('Estimate (minutes)'), '20');
      await user.selectOptions(repeatSelect(), 'Daily');
      await user.click(within(form()).getByRole('radio', { name: 'On' }));
      fireEvent.change(within(form()).getByLabelText('End date'), { target: { value: '2099-12-31' } });
      await user.click(within(form()).getByRole('button', { name: 'Add Task' }));

      await waitFor(() => expect(server.requestsTo('POST', '/tasks')).toHaveLength(1));
      expect(server.requestsTo('POST', '/tasks')[0].body).toMatchObject({
        estimateMinutes: 20,
        rrule: 'FREQ=DAILY;UNTIL=20991231',
      });
    });

    it('sends nothing while the rule has a problem, and says so at its control', async () => {
      const { server } = renderToday();
      await fillTimedTask();
      await user.selectOptions(repeatSelect(), `Weekly on ${todayName}`);
      await user.click(within(form()).getByRole('checkbox', { name: todayName }));
      await user.click(within(form()).getByRole('button', { name: 'Add Task' }));

      expect(within(form()).getByRole('group', { name: 'Repeat on' })).toHaveAccessibleDescription(
        'Pick at least one day',
      );
      expect(server.requestsTo('POST', '/tasks')).toHaveLength(0);
    });

    it("shows the server's refusal of the rule under Repeat", async () => {
      const reason = 'The repeat rule cannot be used: it has no occurrence';
      renderToday({
        'POST /tasks': {
          status: 400,
          body: { message: reason, errors: [{ field: 'rrule', message: reason }] },
        },
      });
      await fillTimedTask();
      await user.selectOptions(repeatSelect(), 'Daily');
      await user.click(within(form()).getByRole('button', { name: 'Add Task' }));
      await waitFor(() => expect(repeatSelect()).toHaveAccessibleDescription(reason));
      expect(repeatSelect()).toBeInvalid();
    });

    it('fits the rule to another day shown: a weekly rule on the start day takes the new weekday', async () => {
      const tomorrowRoutes = dayRoutes(tomorrow);
      const { server } = renderToday({
        [tomorrowRoutes.scheduled]: { body: { tasks: [] } },
        [tomorrowRoutes.unscheduled]: { body: { tasks: [] } },
        [tomorrowRoutes.ledger]: { body: { days: [] } },
        'POST /tasks': { status: 201, body: occurrence() },
      });
      await fillTimedTask();
      await user.selectOptions(repeatSelect(), `Weekly on ${todayName}`);
      await user.click(screen.getByRole('button', { name: 'Next day' }));

      const tomorrowName = weekdayName(tomorrow);
      await waitFor(() => expect(repeatSelect()).toHaveDisplayValue(`Weekly on ${tomorrowName}`));
      await user.click(within(form()).getByRole('button', { name: 'Add Task' }));
      await waitFor(() => expect(server.requestsTo('POST', '/tasks')).toHaveLength(1));
      expect(server.requestsTo('POST', '/tasks')[0].body).toMatchObject({
        date: tomorrow,
        rrule: `FREQ=WEEKLY;BYDAY=${tomorrowName.slice(0, 2).toUpperCase()}`,
      });
    });
  });

  describe('the repeat mark', () => {
    it('names the rule of a repeating task in the day list, and a single task has none', async () => {
      renderToday({}, [
        occurrence({ rrule: 'FREQ=WEEKLY;BYDAY=MO,WE;COUNT=6' }),
        dayTask({ _id: 't2', title: 'Dentist', startHHMM: '14:00', endHHMM: '15:00' }),
      ]);
      await waitFor(() => taskRow('Gym'));
      const mark = within(taskRow('Gym')).getByRole('img', {
        name: 'Repeats: Weekly on Monday and Wednesday, 6 times',
      });
      expect(mark).toHaveAttribute('title', 'Repeats: Weekly on Monday and Wednesday, 6 times');
      expect(within(taskRow('Dentist')).queryByRole('img')).not.toBeInTheDocument();
    });

    it('marks a repeating task in the unscheduled list', async () => {
      const inbox = anUnscheduledTask({
        _id: 'u1_x',
        title: 'Inbox zero',
        date: today,
        start: instantAt(today, '00:00'),
        seriesId: 'u1',
        rrule: 'FREQ=DAILY',
        recurrenceId: instantAt(today, '00:00'),
      });
      renderToday({ [dayRoutes(today).unscheduled]: { body: { tasks: [inbox] } } });
      const list = await screen.findByRole('list', { name: 'Unscheduled tasks' });
      expect(await within(list).findByRole('img', { name: 'Repeats: Daily' })).toBeInTheDocument();
    });

    it("marks yesterday's occurrence among the pending tasks", async () => {
      const yesterday = addDays(today, -1);
      mockApi({
        'GET /categories': { body: [] },
        [`GET /tasks?date=${yesterday}&done=false`]: {
          body: { tasks: [occurrence({ date: yesterday, recurrenceId: instantAt(yesterday, '09:00') })] },
        },
      });
      renderPage(<YesterdayPage />, { path: '/app/yesterday' });
      expect(await screen.findByRole('img', { name: 'Repeats: Daily' })).toBeInTheDocument();
    });
  });

  describe('editing an occurrence', () => {
    const id = occurrence()._id;

    async function openEditor() {
      await user.click(await screen.findByRole('button', { name: 'Edit Gym' }));
      return screen.getByRole('dialog', { name: 'Edit Task' });
    }

    async function retitle(dialog: HTMLElement, title: string) {
      const field = within(dialog).getByRole('textbox', { name: 'Title' });
      await user.clear(field);
      await user.type(field, title);
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    }

    const scopeDialog = () => screen.getByRole('dialog', { name: 'Edit recurring task' });

    it.each([
      ['This task', 'this'],
      ['This and following tasks', 'following'],
      ['All tasks', 'all'],
    ])('asks which occurrences on Save, and "%s" sends scope=%s', async (label, scope) => {
      const { server } = renderToday({ [`PATCH /tasks/${id}`]: { body: occurrence({ title: 'Swim' }) } }, [
        occurrence(),
      ]);
      await retitle(await openEditor(), 'Swim');

      const choices = within(scopeDialog()).getByRole('group', { name: 'Save the changes to' });
      expect(
        within(choices)
          .getAllByRole('radio')
          .map((radio) => radio.getAttribute('value')),
      ).toEqual(['this', 'following', 'all']);
      expect(within(choices).getByRole('radio', { name: 'This task' })).toBeChecked();
      expect(within(choices).getByRole('radio', { name: 'This task' })).toHaveFocus();
      expect(server.requestsTo('PATCH', `/tasks/${id}`)).toHaveLength(0);

      await user.click(within(choices).getByRole('radio', { name: label }));
      await user.click(within(scopeDialog()).getByRole('button', { name: 'Save' }));

      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      const [patch] = server.requestsTo('PATCH', `/tasks/${id}`);
      expect(queryOf(patch).get('scope')).toBe(scope);
      expect(patch.body).toMatchObject({ title: 'Swim' });
      expect(patch.body).not.toHaveProperty('rrule');
    });

    it('offers only series scopes once the rule changed, and sends the new rule', async () => {
      const { server } = renderToday({ [`PATCH /tasks/${id}`]: { body: occurrence() } }, [occurrence()]);
      const dialog = await openEditor();
      expect(within(dialog).getByRole('combobox', { name: 'Repeat' })).toHaveDisplayValue('Daily');
      await user.selectOptions(
        within(dialog).getByRole('combobox', { name: 'Repeat' }),
        'Every weekday (Monday to Friday)',
      );
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));

      const radios = within(scopeDialog()).getAllByRole('radio');
      expect(radios.map((radio) => radio.getAttribute('value'))).toEqual(['following', 'all']);
      expect(radios[0]).toBeChecked();
      // From the keyboard: the arrow keys move along the radios, Tab reaches Cancel, then Save.
      await user.keyboard('{ArrowDown}');
      expect(within(scopeDialog()).getByRole('radio', { name: 'All tasks' })).toBeChecked();
      await user.tab();
      await user.tab();
      expect(within(scopeDialog()).getByRole('button', { name: 'Save' })).toHaveFocus();
      await user.keyboard('{Enter}');

      await waitFor(() => expect(server.requestsTo('PATCH', `/tasks/${id}`)).toHaveLength(1));
      const [patch] = server.requestsTo('PATCH', `/tasks/${id}`);
      expect(queryOf(patch).get('scope')).toBe('all');
      expect(patch.body).toMatchObject({ rrule: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR' });
    });

    it('stops this and the following from repeating in one request, without touching the earlier ones', async () => {
      const single = occurrence({ _id: 's2', seriesId: '', rrule: '' });
      const { server } = renderToday({ [`PATCH /tasks/${id}`]: { body: single } }, [occurrence()]);
      const dialog = await openEditor();
      await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Repeat' }), 'Does not repeat');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      await user.click(within(scopeDialog()).getByRole('button', { name: 'Save' }));

      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      const [patch, ...others] = writes(server);
      expect(others).toEqual([]);
      expect(patch.path).toBe(`/tasks/${id}?scope=following`);
      expect(patch.body).toMatchObject({ rrule: '' });
    });

    it("corrects only the occurrence's tracked time without asking, and Cancel in the question sends nothing", async () => {
      const { server } = renderToday(
        { [`PATCH /tasks/${id}`]: { body: occurrence({ trackedMinutes: 30 }) } },
        [occurrence()],
      );
      let dialog = await openEditor();
      await retitle(dialog, 'Swim');
      await user.click(within(scopeDialog()).getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('dialog', { name: 'Edit recurring task' })).not.toBeInTheDocument();
      expect(screen.getByRole('dialog', { name: 'Edit Task' })).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      expect(writes(server)).toHaveLength(0);

      dialog = await openEditor();
      const trackedField = within(dialog).getByLabelText('Tracked (minutes)');
      await user.clear(trackedField);
      await user.type(trackedField, '30');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));

      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(writes(server).map((request) => [request.path, request.body])).toEqual([
        [`/tasks/${id}`, { trackedMinutes: 30 }],
      ]);
    });

    it('ticks an occurrence done without asking', async () => {
      const { server } = renderToday({ [`PATCH /tasks/${id}`]: { body: occurrence({ done: true }) } }, [
        occurrence(),
      ]);
      await user.click(await screen.findByRole('checkbox', { name: 'Gym done' }));
      await waitFor(() => expect(server.requestsTo('PATCH', `/tasks/${id}`)).toHaveLength(1));
      expect(server.requestsTo('PATCH', `/tasks/${id}`)[0].path).toBe(`/tasks/${id}`);
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
  });

  describe('deleting an occurrence', () => {
    const id = occurrence()._id;
    const scopeDialog = () => screen.getByRole('dialog', { name: 'Delete recurring task' });

    async function deleteWith(label: string) {
      await user.click(await screen.findByRole('button', { name: 'Edit Gym' }));
      const editor = screen.getByRole('dialog', { name: 'Edit Task' });
      await user.click(within(editor).getByRole('button', { name: 'Delete' }));
      const choices = within(scopeDialog()).getByRole('group', { name: 'Delete' });
      expect(within(choices).getAllByRole('radio')).toHaveLength(3);
      await user.click(within(choices).getByRole('radio', { name: label }));
      await user.click(within(scopeDialog()).getByRole('button', { name: 'Delete' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    }

    it.each([
      ['This task', 'this', 'Task "Gym" deleted', 'Task restored'],
      ['All tasks', 'all', 'All "Gym" tasks deleted', 'Tasks restored'],
      [
        'This and following tasks',
        'following',
        'Task "Gym" and the following ones deleted',
        'Tasks restored',
      ],
    ])(
      'deletes on "%s" in one request with its scope, and Undo restores by the same id',
      async (label, scope, deleted, restored) => {
        const { server } = renderToday(
          {
            [`DELETE /tasks/${id}`]: { status: 204 },
            [`POST /tasks/${id}/restore`]: { body: occurrence() },
          },
          [occurrence()],
        );
        await deleteWith(label);
        expect(await screen.findByText(deleted)).toBeInTheDocument();
        await user.click(screen.getByRole('button', { name: 'Undo' }));
        expect(await screen.findByText(restored)).toBeInTheDocument();
        expect(writes(server).map((request) => `${request.method} ${request.path}`)).toEqual([
          `DELETE /tasks/${id}?scope=${scope}`,
          `POST /tasks/${id}/restore`,
        ]);
      },
    );

    it('says so when the delete fails, and keeps the task open for another try', async () => {
      renderToday({ [`DELETE /tasks/${id}`]: { status: 500 } }, [occurrence()]);
      await user.click(await screen.findByRole('button', { name: 'Edit Gym' }));
      await user.click(
        within(screen.getByRole('dialog', { name: 'Edit Task' })).getByRole('button', { name: 'Delete' }),
      );
      await user.click(within(scopeDialog()).getByRole('radio', { name: 'This and following tasks' }));
      await user.click(within(scopeDialog()).getByRole('button', { name: 'Delete' }));
      expect(await screen.findByText('Failed to delete task.')).toBeInTheDocument();
      expect(screen.getByRole('dialog', { name: 'Edit Task' })).toBeInTheDocument();
      expect(screen.queryByRole('dialog', { name: 'Delete recurring task' })).not.toBeInTheDocument();
    });
  });
});
