import { useState } from 'react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Modal } from '../modal/modal';
import { SeriesScopeDialog, type SeriesScopeDialogProps } from './series-scope-dialog';

function renderDialog(props: Partial<SeriesScopeDialogProps> = {}) {
  const handlers = { onChoose: jest.fn(), onCancel: jest.fn() };
  const user = userEvent.setup();
  render(<SeriesScopeDialog action="edit" item="event" busy={false} {...handlers} {...props} />);
  return { ...handlers, user };
}

const radioValues = (dialog: HTMLElement) =>
  within(dialog)
    .getAllByRole('radio')
    .map((radio) => radio.getAttribute('value'));

describe('SeriesScopeDialog', () => {
  it('offers this one, this and following, or all, with the first picked and focused', async () => {
    const { user, onChoose, onCancel } = renderDialog();
    const dialog = screen.getByRole('dialog', { name: 'Edit recurring event' });
    const choices = within(dialog).getByRole('group', { name: 'Save the changes to' });
    expect(
      within(choices)
        .getAllByRole('radio')
        .map((radio) => radio.closest('label')?.textContent),
    ).toEqual(['This event', 'This and following events', 'All events']);
    expect(radioValues(choices)).toEqual(['this', 'following', 'all']);
    expect(within(choices).getByRole('radio', { name: 'This event' })).toBeChecked();
    expect(within(choices).getByRole('radio', { name: 'This event' })).toHaveFocus();

    await user.click(within(choices).getByRole('radio', { name: 'This and following events' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(onChoose).toHaveBeenCalledTimes(1);
    expect(onChoose).toHaveBeenCalledWith('following');
    expect(onCancel).not.toHaveBeenCalled();
  });

  it.each([
    ['edit', 'Edit recurring task', 'Save the changes to', 'Save'],
    ['move', 'Edit recurring task', 'Move', 'Save'],
    ['delete', 'Delete recurring task', 'Delete', 'Delete'],
  ] as const)('words the %s question: "%s", "%s", then %s', async (action, title, legend, confirm) => {
    const { user, onChoose } = renderDialog({ action, item: 'task' });
    const dialog = screen.getByRole('dialog', { name: title });
    expect(within(dialog).getByRole('form', { name: title })).toBeInTheDocument();
    const choices = within(dialog).getByRole('group', { name: legend });
    expect(
      within(choices)
        .getAllByRole('radio')
        .map((radio) => radio.closest('label')?.textContent),
    ).toEqual(['This task', 'This and following tasks', 'All tasks']);
    await user.click(within(choices).getByRole('radio', { name: 'All tasks' }));
    await user.click(within(dialog).getByRole('button', { name: confirm }));
    expect(onChoose).toHaveBeenCalledWith('all');
  });

  it('offers only the series scopes for a changed rule, and answers from the keyboard', async () => {
    const { user, onChoose } = renderDialog({ allowThis: false });
    const dialog = screen.getByRole('dialog', { name: 'Edit recurring event' });
    expect(radioValues(dialog)).toEqual(['following', 'all']);
    expect(within(dialog).getByRole('radio', { name: 'This and following events' })).toBeChecked();
    expect(within(dialog).getByRole('radio', { name: 'This and following events' })).toHaveFocus();

    // The arrow keys move along the radios, Tab reaches Cancel, then Save. (Enter on a radio also goes on in a
    // browser, through the footer's form-associated submit button; user-event only looks inside the form for one.)
    await user.keyboard('{ArrowDown}');
    expect(within(dialog).getByRole('radio', { name: 'All events' })).toBeChecked();
    await user.keyboard('{ArrowUp}');
    expect(within(dialog).getByRole('radio', { name: 'This and following events' })).toBeChecked();
    await user.keyboard('{ArrowDown}');
    await user.tab();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.tab();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onChoose).toHaveBeenCalledTimes(1);
    expect(onChoose).toHaveBeenCalledWith('all');
  });

  it('goes back on Cancel, on Escape and on a click outside, choosing nothing', async () => {
    const { user, onChoose, onCancel } = renderDialog();
    const dialog = screen.getByRole('dialog', { name: 'Edit recurring event' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.keyboard('{Escape}');
    await user.click(dialog.parentElement as HTMLElement);
    expect(onCancel).toHaveBeenCalledTimes(3);
    expect(onChoose).not.toHaveBeenCalled();
  });

  it('while busy, shows the request running and cannot be left', async () => {
    const { user, onChoose, onCancel } = renderDialog({ action: 'delete', busy: true });
    const dialog = screen.getByRole('dialog', { name: 'Delete recurring event' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    expect(confirm).toBeDisabled();
    expect(confirm).toHaveAttribute('aria-busy', 'true');
    await user.keyboard('{Escape}');
    await user.click(dialog.parentElement as HTMLElement);
    expect(onCancel).not.toHaveBeenCalled();
    expect(onChoose).not.toHaveBeenCalled();
  });

  describe('over the modal it asks for', () => {
    /** The Edit Task modal's way: Save asks, and the question sits beside the modal, not inside it. */
    function EditTask({ onChoose }: { onChoose: (scope: string) => void }) {
      const [editing, setEditing] = useState(true);
      const [asking, setAsking] = useState(false);
      return (
        <>
          <Modal
            open={editing}
            title="Edit Task"
            onClose={() => setEditing(false)}
            footer={<button onClick={() => setAsking(true)}>Save</button>}
          >
            <input aria-label="Title" defaultValue="Gym" />
          </Modal>
          {asking && (
            <SeriesScopeDialog
              action="edit"
              item="task"
              busy={false}
              onChoose={onChoose}
              onCancel={() => setAsking(false)}
            />
          )}
        </>
      );
    }

    it('closes alone on Escape, and gives the focus back to what opened it', async () => {
      const user = userEvent.setup();
      const onChoose = jest.fn();
      render(<EditTask onChoose={onChoose} />);
      const editor = screen.getByRole('dialog', { name: 'Edit Task' });
      await user.click(within(editor).getByRole('button', { name: 'Save' }));
      expect(screen.getByRole('radio', { name: 'This task' })).toHaveFocus();

      await user.keyboard('{Escape}');
      expect(screen.queryByRole('dialog', { name: 'Edit recurring task' })).not.toBeInTheDocument();
      expect(screen.getByRole('dialog', { name: 'Edit Task' })).toBeInTheDocument();
      expect(within(editor).getByRole('button', { name: 'Save' })).toHaveFocus();
      expect(onChoose).not.toHaveBeenCalled();
    });
  });
});
