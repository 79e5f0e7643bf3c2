import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { aCategory } from '@time-wallet/api/testing';
import { EventModal, type EventModalProps } from './event-modal';

const draft = {
  title: 'Standup',
  start: '2026-03-10T09:00',
  end: '2026-03-10T09:30',
  allDay: false,
  categoryId: '',
  rrule: '',
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
  expect(onSave).toHaveBeenCalledWith({ ...draft, title: 'Planning' }, undefined);
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
  expect(
    within(category)
      .getAllByRole('option')
      .map((option) => option.textContent),
  ).toEqual(['No category', 'Work', 'Health']);
  await user.selectOptions(category, 'No category');
  await user.click(screen.getByRole('button', { name: 'Update Event' }));
  expect(onSave).toHaveBeenCalledWith({ ...draft, categoryId: '' }, undefined);
});

it('keeps every field, Category last, in the scrolling body and the actions in the footer outside it', async () => {
  const user = userEvent.setup();
  renderModal({ mode: 'edit', error: 'Failed to update event' });
  // The longest form: a failure above the fields, a field's error, a custom rule with its interval, days and end.
  await user.selectOptions(screen.getByLabelText('Repeat'), 'custom');
  await user.clear(screen.getByLabelText('Title'));
  await user.click(screen.getByRole('button', { name: 'Update Event' }));
  const dialog = screen.getByRole('dialog', { name: 'Edit Event' });
  const body = within(dialog).getByLabelText('Category').closest('.body');
  const footer = within(dialog).getByRole('button', { name: 'Update Event' }).closest('.footer');
  expect(body?.parentElement).toBe(dialog);
  expect(footer?.parentElement).toBe(dialog);
  expect(body).not.toContainElement(footer as HTMLElement);
  const fields = within(body as HTMLElement).getAllByRole('combobox');
  expect(fields[fields.length - 1]).toBe(within(dialog).getByLabelText('Category'));
  for (const action of ['Delete', 'Cancel', 'Update Event']) {
    expect(footer).toContainElement(within(dialog).getByRole('button', { name: action }));
  }
});

describe('All day', () => {
  it('switches to date inputs over whole days, the end shown as the last day, and back', async () => {
    const user = userEvent.setup();
    const { onSave } = renderModal();
    await user.click(screen.getByRole('checkbox', { name: 'All day' }));
    expect(screen.getByLabelText('Start')).toHaveAttribute('type', 'date');
    expect(screen.getByLabelText('Start')).toHaveValue('2026-03-10');
    expect(screen.getByLabelText('End')).toHaveValue('2026-03-10');
    await user.clear(screen.getByLabelText('End'));
    await user.type(screen.getByLabelText('End'), '2026-03-11');
    await user.click(screen.getByRole('button', { name: 'Create Event' }));
    expect(onSave).toHaveBeenCalledWith(
      { ...draft, allDay: true, start: '2026-03-10T00:00', end: '2026-03-12T00:00' },
      undefined,
    );
    await user.click(screen.getByRole('checkbox', { name: 'All day' }));
    expect(screen.getByLabelText('Start')).toHaveValue('2026-03-10T09:00');
    expect(screen.getByLabelText('End')).toHaveValue('2026-03-10T10:00');
  });
});

describe('Repeat', () => {
  it('saves the rule picked, and moves a weekly day with the start', async () => {
    const user = userEvent.setup();
    const { onSave } = renderModal();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Repeat' }), 'Weekly on Tuesday');
    const start = screen.getByLabelText('Start');
    await user.clear(start);
    await user.type(start, '2026-03-11T09:00');
    await user.clear(screen.getByLabelText('End'));
    await user.type(screen.getByLabelText('End'), '2026-03-11T09:30');
    await user.click(screen.getByRole('button', { name: 'Create Event' }));
    expect(onSave).toHaveBeenCalledWith(
      { ...draft, start: '2026-03-11T09:00', end: '2026-03-11T09:30', rrule: 'FREQ=WEEKLY;BYDAY=WE' },
      undefined,
    );
  });

  it('blocks saving a rule with a problem, and says what it is', async () => {
    const user = userEvent.setup();
    const { onSave } = renderModal();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Repeat' }), 'Weekly on Tuesday');
    await user.click(
      within(screen.getByRole('group', { name: 'Repeat on' })).getByRole('checkbox', { name: 'Tuesday' }),
    );
    await user.click(screen.getByRole('button', { name: 'Create Event' }));
    expect(onSave).not.toHaveBeenCalled();
    expect(screen.getAllByText('Pick at least one day').length).toBeGreaterThan(0);
  });
});

describe('a repeating event', () => {
  const occurrence = { ...draft, rrule: 'FREQ=WEEKLY;BYDAY=TU' };

  it.each([
    ['This event', 'this'],
    ['This and following events', 'following'],
    ['All events', 'all'],
  ])('asks "Edit recurring event" and saves for "%s"', async (label, scope) => {
    const user = userEvent.setup();
    const { onSave } = renderModal({ mode: 'edit', initialDraft: occurrence });
    await user.click(screen.getByRole('button', { name: 'Update Event' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit recurring event' });
    expect(within(dialog).getByRole('radio', { name: 'This event' })).toBeChecked();
    await user.click(within(dialog).getByRole('radio', { name: label }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(onSave).toHaveBeenCalledWith(occurrence, scope);
    expect(screen.queryByRole('dialog', { name: 'Edit recurring event' })).not.toBeInTheDocument();
  });

  it('answers from the keyboard, and offers no "This event" when the rule changed', async () => {
    const user = userEvent.setup();
    const { onSave } = renderModal({ mode: 'edit', initialDraft: occurrence });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Repeat' }), 'Daily');
    await user.click(screen.getByRole('button', { name: 'Update Event' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit recurring event' });
    expect(within(dialog).queryByRole('radio', { name: 'This event' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: 'This and following events' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(within(dialog).getByRole('radio', { name: 'All events' })).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(onSave).toHaveBeenCalledWith({ ...occurrence, rrule: 'FREQ=DAILY' }, 'all');
  });

  it('asks "Delete recurring event", and Cancel keeps the event', async () => {
    const user = userEvent.setup();
    const { onDelete } = renderModal({ mode: 'edit', initialDraft: occurrence });
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    let dialog = screen.getByRole('dialog', { name: 'Delete recurring event' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onDelete).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog', { name: 'Edit Event' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    dialog = screen.getByRole('dialog', { name: 'Delete recurring event' });
    await user.click(within(dialog).getByRole('radio', { name: 'This and following events' }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(onDelete).toHaveBeenCalledWith('following');
  });
});
