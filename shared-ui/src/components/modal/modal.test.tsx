import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useRef, useState } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Modal } from './modal';
import type { ModalProps } from './modal';

function EditTaskScreen({ modal }: { modal?: Partial<ModalProps> }) {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  return (
    <main>
      <button type="button" onClick={() => setOpen(true)}>
        Edit Gym
      </button>
      <Modal
        open={open}
        title="Edit Task"
        onClose={close}
        width="24rem"
        footer={
          <>
            <button type="button">Save</button>
            <button type="button" onClick={close}>
              Cancel
            </button>
          </>
        }
        {...modal}
      >
        <label>
          Title <input defaultValue="Gym" />
        </label>
      </Modal>
    </main>
  );
}

/** The declarations of one class's first rule in the modal's style sheet, e.g. { 'overflow-y': 'auto' }. */
function declarationsOf(className: string): Record<string, string> {
  const css = readFileSync(join(__dirname, 'modal.module.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const body = new RegExp(`\\.${className}\\s*\\{([^}]*)\\}`).exec(css)?.[1] ?? '';
  return Object.fromEntries(
    [...body.matchAll(/([\w-]+):\s*([^;]+);/g)].map(([, property, value]) => [property, value.trim()]),
  );
}

const openEditTask = async (modal?: Partial<ModalProps>) => {
  const user = userEvent.setup();
  render(<EditTaskScreen modal={modal} />);
  await user.click(screen.getByRole('button', { name: 'Edit Gym' }));
  return { user, dialog: screen.getByRole('dialog', { name: 'Edit Task' }) };
};

describe('Modal', () => {
  it('shows nothing while closed', () => {
    render(<EditTaskScreen />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('opens as a modal dialog named by its title, outside the page content', async () => {
    const { dialog } = await openEditTask();
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(screen.getByRole('heading', { name: 'Edit Task' })).toBeInTheDocument();
    expect(screen.getByRole('main')).not.toContainElement(dialog);
    expect(dialog).toHaveStyle({ width: '24rem' });
  });

  it('shows its content and its footer actions', async () => {
    await openEditTask();
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('Gym');
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
  });

  it('moves focus inside on open and back to the opener on close', async () => {
    const { user } = await openEditTask();
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Gym' })).toHaveFocus();
  });

  it('focuses the element it is told to', async () => {
    function WithInitialFocus() {
      const cancelRef = useRef<HTMLButtonElement>(null);
      return (
        <Modal open title="Delete task?" onClose={() => {}} initialFocusRef={cancelRef}>
          <button type="button">Delete</button>
          <button type="button" ref={cancelRef}>
            Keep
          </button>
        </Modal>
      );
    }
    render(<WithInitialFocus />);
    expect(screen.getByRole('button', { name: 'Keep' })).toHaveFocus();
  });

  it('keeps Tab and Shift+Tab inside the dialog', async () => {
    const { user } = await openEditTask();
    const title = screen.getByRole('textbox', { name: 'Title' });
    const save = screen.getByRole('button', { name: 'Save' });
    const cancel = screen.getByRole('button', { name: 'Cancel' });
    await user.tab();
    expect(save).toHaveFocus();
    await user.tab();
    expect(cancel).toHaveFocus();
    await user.tab();
    expect(title).toHaveFocus();
    await user.tab({ shift: true });
    expect(cancel).toHaveFocus();
  });

  it('closes on Escape and returns focus', async () => {
    const { user } = await openEditTask();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Gym' })).toHaveFocus();
  });

  it('still answers Escape and Tab when focus fell out of it, as when a busy control is disabled', async () => {
    const { user, dialog } = await openEditTask();
    (document.activeElement as HTMLElement).blur();
    expect(document.body).toHaveFocus();

    await user.tab();
    expect(dialog).toContainElement(document.activeElement as HTMLElement);

    (document.activeElement as HTMLElement).blur();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('closes on a click on the backdrop but not on a click inside', async () => {
    const { user, dialog } = await openEditTask();
    await user.click(screen.getByRole('textbox', { name: 'Title' }));
    await user.click(dialog);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    await user.click(dialog.parentElement as HTMLElement);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('stays open when a text selection started inside ends on the backdrop', async () => {
    const { dialog } = await openEditTask();
    fireEvent.mouseDown(screen.getByRole('textbox', { name: 'Title' }));
    fireEvent.click(dialog.parentElement as HTMLElement);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('fits the screen: its body scrolls between the title and the footer, which is outside it', async () => {
    const { dialog } = await openEditTask();
    const title = screen.getByRole('heading', { name: 'Edit Task' });
    const body = screen.getByRole('textbox', { name: 'Title' }).closest('.body');
    const footer = screen.getByRole('button', { name: 'Save' }).closest('.footer');
    expect([...dialog.children]).toEqual([title, body, footer]);
    expect(body).not.toContainElement(footer as HTMLElement);

    expect(declarationsOf('dialog')).toMatchObject({
      display: 'flex',
      'flex-direction': 'column',
      'max-height': 'calc(100dvh - 2rem)',
    });
    expect(declarationsOf('body')).toMatchObject({ flex: '1', 'min-height': '0', 'overflow-y': 'auto' });
    expect(declarationsOf('footer')).not.toHaveProperty('position');
  });
});
