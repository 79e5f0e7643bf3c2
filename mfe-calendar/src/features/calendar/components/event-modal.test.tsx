import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { aCategory } from '@time-wallet/api/testing';
import { EventModal, type EventModalProps } from './event-modal';

const draft = {
  title: 'Standup',
  start: '2026-03-10T09:00',
  end: '2026-03-10T09:30',
  allDay: false,
  categoryId: '',
};

function renderModal(props: Partial<EventModalProps> = {}) {
  const handlers = { onSave: jest.fn(), onDelete: jest.fn(), onClose: jest.fn() };
  render(
    <EventModal
      mode="create"
      initialDraft={draft}
      categories={[aCategory(), aCategory({ _id: 'cat-2', name: 'Health', color: '#c2410c' })]}
      busy={false}
      {...handlers}
      {...props}
    />,
  );
  return handlers;
}

it('in create mode is titled New Event, offers Create Event and Cancel, and no Delete', () => {
  renderModal({ initialDraft: { ...draft, title: '' } });
  expect(screen.getByRole('dialog', { name: 'New Event' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Create Event' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  expect(screen.getByLabelText('Title')).toBeRequired();
  expect(screen.getByLabelText('Start')).toHaveAttribute('type', 'datetime-local');
  expect(screen.getByLabelText('Start')).toBeRequired();
  expect(screen.getByLabelText('End')).toHaveAttribute('type', 'datetime-local');
  expect(screen.getByLabelText('End')).toBeRequired();
});

it('in edit mode is titled Edit Event, prefilled, with Update Event and Delete', async () => {
  const user = userEvent.setup();
  const { onDelete } = renderModal({ mode: 'edit' });
  expect(screen.getByRole('dialog', { name: 'Edit Event' })).toBeInTheDocument();
  expect(screen.getByLabelText('Title')).toHaveValue('Standup');
  expect(screen.getByLabelText('Start')).toHaveValue('2026-03-10T09:00');
  expect(screen.getByLabelText('End')).toHaveValue('2026-03-10T09:30');
  expect(screen.queryByRole('button', { name: 'Create Event' })).not.toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Delete' }));
  expect(onDelete).toHaveBeenCalledTimes(1);
});

it('saves the edited draft on submit', async () => {
  const user = userEvent.setup();
  const { onSave } = renderModal({ mode: 'edit' });
  await user.clear(screen.getByLabelText('Title'));
  await user.type(screen.getByLabelText('Title'), 'Planning');
  await user.click(screen.getByRole('button', { name: 'Update Event' }));
  expect(onSave).toHaveBeenCalledWith({ ...draft, title: 'Planning' });
});

it('refuses an end that is not after the start', async () => {
  const user = userEvent.setup();
  const { onSave } = renderModal();
  const end = screen.getByLabelText('End');
  await user.clear(end);
  await user.type(end, '2026-03-10T08:00');
  await user.click(screen.getByRole('button', { name: 'Create Event' }));
  expect(onSave).not.toHaveBeenCalled();
  expect(screen.getByText('End must be after start')).toBeInTheDocument();
  expect(end).toHaveAttribute('aria-invalid', 'true');
});

it('closes on Cancel and on Escape', async () => {
  const user = userEvent.setup();
  const { onClose } = renderModal();
  await user.click(screen.getByRole('button', { name: 'Cancel' }));
  await user.keyboard('{Escape}');
  expect(onClose).toHaveBeenCalledTimes(2);
});

it("offers no category and the user's categories, prefilled with the event's, and saves the one picked", async () => {
  const user = userEvent.setup();
  const { onSave } = renderModal({ mode: 'edit', initialDraft: { ...draft, categoryId: 'cat-2' } });
  const category = screen.getByLabelText('Category');
  expect(category).toHaveValue('cat-2');
  expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
    'No category',
    'Work',
    'Health',
  ]);
  await user.selectOptions(category, 'No category');
  await user.click(screen.getByRole('button', { name: 'Update Event' }));
  expect(onSave).toHaveBeenCalledWith({ ...draft, categoryId: '' });
});
