import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TimeEntry } from '@time-wallet/api';
import { aTimeEntry, usePageTestEnvironment } from '@time-wallet/api/testing';
import { toLocalDateKey } from '@time-wallet/shared-ui/lib';
import { dayRoutes, renderToday, taskRow } from '../testing/today';

const user = userEvent.setup({ delay: null });
const today = toLocalDateKey();
const at = (clock: string) => new Date(`${today}T${clock}`).toISOString();
const ENTRIES = dayRoutes(today).entries;

const timed = aTimeEntry({
  id: 'e1',
  taskId: 't1',
  start: at('09:00:17'),
  end: at('09:40:52'),
  source: 'timer',
});
const other = aTimeEntry({ id: 'e9', taskId: 't2', start: at('11:00'), end: at('11:30') });

/** Today with Gym and the entries the server holds, changed by the handlers given. */
function renderWithEntries(
  routes: Parameters<typeof renderToday>[0] = {},
  initial: TimeEntry[] = [timed, other],
) {
  const state = { entries: initial };
  const view = renderToday({ [ENTRIES]: () => ({ body: { entries: state.entries } }), ...routes });
  return { ...view, state };
}

async function openEntries() {
  const toggle = await screen.findByRole('button', { name: 'Entries of Gym' });
  expect(toggle).toHaveAttribute('aria-expanded', 'false');
  toggle.focus();
  await user.keyboard('{Enter}');
  expect(toggle).toHaveAttribute('aria-expanded', 'true');
  return screen.findByRole('region', { name: 'Time entries of Gym' });
}

const addForm = () => screen.getByRole('form', { name: 'Add time to Gym' });
const typeTimes = (form: HTMLElement, start: string, end: string) => {
  fireEvent.change(within(form).getByLabelText('Start'), { target: { value: start } });
  fireEvent.change(within(form).getByLabelText('End'), { target: { value: end } });
};

describe("a task's time entries on Today", () => {
  usePageTestEnvironment({ token: 'token-1' });

  it('opens from the row by keyboard and lists the entries of the task, to the second, with their length', async () => {
    renderWithEntries();
    const panel = await openEntries();
    const list = await within(panel).findByRole('list', { name: 'Time entries of Gym' });
    const [entry] = within(list).getAllByRole('listitem');
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(entry).toHaveTextContent('09:00:17 – 09:40:52');
    expect(entry).toHaveTextContent('0:40:35');
    expect(within(entry).getByRole('button', { name: 'Edit entry 09:00:17 – 09:40:52' })).toBeInTheDocument();
  });

  it('says when the task has no time on the day', async () => {
    renderWithEntries({}, [other]);
    const panel = await openEntries();
    expect(await within(panel).findByText('No time tracked on this day yet.')).toBeInTheDocument();
  });

  it('adds time by hand with a start and an end on the day shown', async () => {
    const { server, state } = renderWithEntries({
      'POST /time-entries': (request) => {
        const added = aTimeEntry({ id: 'e2', source: 'manual', ...(request.body as object) });
        state.entries = [...state.entries, added];
        return { status: 201, body: added };
      },
    });
    const panel = await openEntries();
    await within(panel).findByRole('list');
    typeTimes(addForm(), '14:00', '14:25');
    await user.click(within(addForm()).getByRole('button', { name: 'Add time' }));

    await waitFor(() => expect(within(panel).getAllByRole('listitem')).toHaveLength(2));
    expect(within(panel).getAllByRole('listitem')[1]).toHaveTextContent('14:00 – 14:25');
    expect(server.requestsTo('POST', '/time-entries')[0].body).toEqual({
      taskId: 't1',
      start: at('14:00'),
      end: at('14:25'),
    });
    expect(within(addForm()).getByLabelText('Start')).toHaveValue('');
  });

  it('says as they type that an end before the start ends the next day', async () => {
    renderWithEntries();
    await openEntries();
    typeTimes(addForm(), '23:30', '00:15');
    expect(within(addForm()).getByLabelText('End')).toHaveAccessibleDescription('Ends the next day');
  });

  it('checks the times before sending them', async () => {
    const { server } = renderWithEntries();
    await openEntries();
    typeTimes(addForm(), '10:00', '10:00');
    await user.click(within(addForm()).getByRole('button', { name: 'Add time' }));
    expect(within(addForm()).getByLabelText('End')).toHaveAccessibleDescription(
      'End time must be after start time.',
    );
    expect(server.requestsTo('POST', '/time-entries')).toHaveLength(0);
  });

  it("shows the server's word on an overlap inline", async () => {
    const overlap = 'This time overlaps "Read" (11:00 to 11:30)';
    renderWithEntries({ 'POST /time-entries': { status: 409, body: { message: overlap } } });
    await openEntries();
    typeTimes(addForm(), '11:10', '11:20');
    await user.click(within(addForm()).getByRole('button', { name: 'Add time' }));
    expect(await within(addForm()).findByRole('alert')).toHaveTextContent(overlap);
  });

  it("shows the server's refusal of an end in the future on the End field", async () => {
    const future = 'Tracked time cannot end in the future';
    renderWithEntries({
      'POST /time-entries': {
        status: 400,
        body: { message: future, errors: [{ field: 'end', message: future }] },
      },
    });
    await openEntries();
    typeTimes(addForm(), '22:00', '23:00');
    await user.click(within(addForm()).getByRole('button', { name: 'Add time' }));
    await waitFor(() => expect(within(addForm()).getByLabelText('End')).toHaveAccessibleDescription(future));
    expect(within(addForm()).getByLabelText('End')).toHaveAttribute('aria-invalid', 'true');
  });

  it('edits an entry, sending only the time retyped, and gives focus back to its Edit button', async () => {
    const { server, state } = renderWithEntries({
      'PATCH /time-entries/e1': (request) => {
        state.entries = [{ ...timed, ...(request.body as object), source: 'manual' }, other];
        return { body: state.entries[0] };
      },
    });
    const panel = await openEntries();
    await user.click(await within(panel).findByRole('button', { name: 'Edit entry 09:00:17 – 09:40:52' }));
    const form = within(panel).getByRole('form', { name: 'Edit entry 09:00:17 – 09:40:52' });
    expect(within(form).getByLabelText('Start')).toHaveFocus();
    expect(within(form).getByLabelText('Start')).toHaveValue('09:00');
    expect(within(form).getByLabelText('End')).toHaveValue('09:40');

    fireEvent.change(within(form).getByLabelText('End'), { target: { value: '10:00' } });
    await user.click(within(form).getByRole('button', { name: 'Save' }));

    const edit = await within(panel).findByRole('button', { name: 'Edit entry 09:00:17 – 10:00' });
    await waitFor(() => expect(edit).toHaveFocus());
    expect(server.requestsTo('PATCH', '/time-entries/e1')[0].body).toEqual({ end: at('10:00') });
  });

  it("keeps the edit open with the server's message when the edit overlaps", async () => {
    const overlap = 'This time overlaps "Read" (11:00 to 11:30)';
    renderWithEntries({ 'PATCH /time-entries/e1': { status: 409, body: { message: overlap } } });
    const panel = await openEntries();
    await user.click(await within(panel).findByRole('button', { name: /^Edit entry/ }));
    const form = within(panel).getByRole('form', { name: /^Edit entry/ });
    fireEvent.change(within(form).getByLabelText('End'), { target: { value: '11:15' } });
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(overlap);

    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(within(panel).queryByRole('form', { name: /^Edit entry/ })).not.toBeInTheDocument();
  });

  it('deletes an entry at once, and Undo in the toast brings it back', async () => {
    const { server, state } = renderWithEntries({
      'DELETE /time-entries/e1': () => {
        state.entries = [other];
        return { status: 204 };
      },
      'POST /time-entries/e1/restore': () => {
        state.entries = [timed, other];
        return { body: timed };
      },
    });
    const panel = await openEntries();
    await user.click(await within(panel).findByRole('button', { name: 'Delete entry 09:00:17 – 09:40:52' }));

    expect(await within(panel).findByText('No time tracked on this day yet.')).toBeInTheDocument();
    expect(screen.getByText('Time entry 09:00:17 – 09:40:52 deleted')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Time entry restored')).toBeInTheDocument();
    await within(panel).findByRole('button', { name: 'Delete entry 09:00:17 – 09:40:52' });
    expect(server.requestsTo('POST', '/time-entries/e1/restore')).toHaveLength(1);
  });

  it("shows the task's tracked time from its entries on the row", async () => {
    renderWithEntries();
    await waitFor(() => expect(taskRow('Gym')).toHaveTextContent('Tracked 0:40:35'));
  });

  it('does not open the task editor on a double-click inside the entries', async () => {
    renderWithEntries({}, [timed]);
    const panel = await openEntries();
    await user.dblClick(await within(panel).findByText('09:00:17'));
    expect(screen.queryByRole('dialog', { name: 'Edit Task' })).not.toBeInTheDocument();
    await user.dblClick(within(taskRow('Gym')).getByText('Gym', { selector: 'span' }));
    expect(screen.getByRole('dialog', { name: 'Edit Task' })).toBeInTheDocument();
  });

  it('closes again with the same button', async () => {
    renderWithEntries();
    await openEntries();
    await user.click(screen.getByRole('button', { name: 'Entries of Gym' }));
    expect(screen.queryByRole('region', { name: 'Time entries of Gym' })).not.toBeInTheDocument();
  });
});
