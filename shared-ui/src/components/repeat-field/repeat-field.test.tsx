import { useState } from 'react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RepeatField, type RepeatFieldProps } from './repeat-field';

// Starts are built with the local-time constructor so the expectations hold in any TZ the tests run in.
const MONDAY_NOV_23 = new Date(2026, 10, 23, 9, 0); // the fourth Monday; the 30th is the last
const MONDAY_NOV_30 = new Date(2026, 10, 30, 9, 0); // the fifth Monday and the last
const endOfLocalDayUtc = (year: number, month: number, day: number) =>
  new Date(year, month - 1, day, 23, 59, 59).toISOString().replace(/[-:]/g, '').replace('.000', '');

/** A form that keeps the rule, as the event and task forms do, and shows the rule it would save. */
function RepeatForm({ initialRule = '', ...props }: Partial<RepeatFieldProps> & { initialRule?: string }) {
  const [rule, setRule] = useState(initialRule);
  return (
    <form aria-label="Event">
      <RepeatField start={MONDAY_NOV_23} allDay={false} value={rule} onChange={setRule} {...props} />
      <output aria-label="Rule">{rule}</output>
    </form>
  );
}

const renderRepeat = (props: Partial<RepeatFieldProps> & { initialRule?: string } = {}) => {
  const user = userEvent.setup();
  render(<RepeatForm {...props} />);
  return { user, repeat: screen.getByRole('combobox', { name: 'Repeat' }) };
};
const savedRule = () => screen.getByRole('status', { name: 'Rule' }).textContent;
const optionLabels = () =>
  within(screen.getByRole('combobox', { name: 'Repeat' }))
    .getAllByRole('option')
    .map((option) => option.textContent);
const selectedLabel = () =>
  within(screen.getByRole('combobox', { name: 'Repeat' }))
    .getAllByRole<HTMLOptionElement>('option')
    .find((option) => option.selected)?.textContent;

describe('RepeatField', () => {
  it('words its options from the start', () => {
    renderRepeat();
    expect(optionLabels()).toEqual([
      'Does not repeat',
      'Daily',
      'Every weekday (Monday to Friday)',
      'Weekly on Monday',
      'Monthly on day 23',
      'Monthly on the fourth Monday',
      'Annually on November 23',
      'Custom...',
    ]);
    expect(selectedLabel()).toBe('Does not repeat');
    expect(screen.queryByRole('group', { name: 'Ends' })).not.toBeInTheDocument();
  });

  it('offers the last weekday of the month too when the start is in its last seven days', () => {
    renderRepeat({ start: MONDAY_NOV_30 });
    expect(optionLabels()).toEqual(
      expect.arrayContaining(['Monthly on the fifth Monday', 'Monthly on the last Monday']),
    );
  });

  it.each([
    ['Daily', MONDAY_NOV_23, 'FREQ=DAILY'],
    ['Every weekday (Monday to Friday)', MONDAY_NOV_23, 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR'],
    ['Weekly on Monday', MONDAY_NOV_23, 'FREQ=WEEKLY;BYDAY=MO'],
    ['Monthly on day 23', MONDAY_NOV_23, 'FREQ=MONTHLY'],
    ['Monthly on the fourth Monday', MONDAY_NOV_23, 'FREQ=MONTHLY;BYDAY=4MO'],
    ['Monthly on the fifth Monday', MONDAY_NOV_30, 'FREQ=MONTHLY;BYDAY=5MO'],
    ['Monthly on the last Monday', MONDAY_NOV_30, 'FREQ=MONTHLY;BYDAY=-1MO'],
    ['Annually on November 23', MONDAY_NOV_23, 'FREQ=YEARLY'],
    ['Custom...', MONDAY_NOV_23, 'FREQ=WEEKLY;BYDAY=MO'],
  ])('makes "%s" the rule %j', async (label, start, rule) => {
    const { user, repeat } = renderRepeat({ start });
    await user.selectOptions(repeat, label);
    expect(savedRule()).toBe(rule);
    expect(selectedLabel()).toBe(label);
    expect(screen.getByRole('radio', { name: 'Never' })).toBeChecked();
  });

  it('goes back to no rule on "Does not repeat"', async () => {
    const { user, repeat } = renderRepeat({ initialRule: 'FREQ=DAILY;COUNT=3' });
    await user.selectOptions(repeat, 'Does not repeat');
    expect(savedRule()).toBe('');
    expect(screen.queryByRole('group', { name: 'Ends' })).not.toBeInTheDocument();
  });

  it('picks weekly days by click and by keyboard, and names them in the option', async () => {
    const { user, repeat } = renderRepeat();
    await user.selectOptions(repeat, 'Weekly on Monday');
    const days = screen.getByRole('group', { name: 'Repeat on' });
    const dayNames = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
    expect(within(days).getAllByRole('checkbox')).toHaveLength(7);
    for (const name of dayNames) expect(within(days).getByRole('checkbox', { name })).toBeEnabled();
    expect(within(days).getByRole('checkbox', { name: 'Monday' })).toBeChecked();

    await user.click(within(days).getByRole('checkbox', { name: 'Wednesday' }));
    expect(savedRule()).toBe('FREQ=WEEKLY;BYDAY=MO,WE');
    within(days).getByRole('checkbox', { name: 'Friday' }).focus();
    await user.keyboard(' ');
    expect(savedRule()).toBe('FREQ=WEEKLY;BYDAY=MO,WE,FR');
    expect(selectedLabel()).toBe('Weekly on Monday, Wednesday and Friday');
  });

  it('stays weekly when the days picked are Monday to Friday', async () => {
    const { user, repeat } = renderRepeat({ initialRule: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH' });
    expect(selectedLabel()).toBe('Weekly on Monday, Tuesday, Wednesday and Thursday');
    await user.click(screen.getByRole('checkbox', { name: 'Friday' }));
    expect(savedRule()).toBe('FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR');
    expect(repeat).toHaveDisplayValue('Weekly on Monday, Tuesday, Wednesday, Thursday and Friday');
    expect(screen.getByRole('group', { name: 'Repeat on' })).toBeInTheDocument();
  });

  it('repeats every N days, weeks, months or years on "Custom..."', async () => {
    const { user, repeat } = renderRepeat();
    await user.selectOptions(repeat, 'Custom...');
    const every = screen.getByRole('spinbutton', { name: 'Every' });
    const unit = screen.getByRole('combobox', { name: 'Unit' });
    expect(every).toHaveValue(1);
    expect(unit).toHaveDisplayValue('week');

    await user.clear(every);
    await user.type(every, '2');
    expect(savedRule()).toBe('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO');
    expect(unit).toHaveDisplayValue('weeks');
    await user.click(screen.getByRole('checkbox', { name: 'Friday' }));
    expect(savedRule()).toBe('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR');

    await user.selectOptions(unit, 'months');
    expect(savedRule()).toBe('FREQ=MONTHLY;INTERVAL=2');
    expect(screen.queryByRole('group', { name: 'Repeat on' })).not.toBeInTheDocument();
    await user.selectOptions(unit, 'days');
    expect(savedRule()).toBe('FREQ=DAILY;INTERVAL=2');
    await user.selectOptions(unit, 'years');
    expect(savedRule()).toBe('FREQ=YEARLY;INTERVAL=2');
  });

  it('keeps "Custom..." shown while its rule is every 1 of a unit', async () => {
    const { user, repeat } = renderRepeat({ initialRule: 'FREQ=DAILY' });
    await user.selectOptions(repeat, 'Custom...');
    expect(savedRule()).toBe('FREQ=DAILY');
    expect(selectedLabel()).toBe('Custom...');
    expect(screen.getByRole('combobox', { name: 'Unit' })).toHaveDisplayValue('day');
  });

  it('shows a rule it is given', () => {
    renderRepeat({ initialRule: 'FREQ=WEEKLY;INTERVAL=2;BYDAY=FR,MO;COUNT=6' });
    expect(selectedLabel()).toBe('Custom...');
    expect(screen.getByRole('spinbutton', { name: 'Every' })).toHaveValue(2);
    expect(screen.getByRole('combobox', { name: 'Unit' })).toHaveDisplayValue('weeks');
    expect(screen.getByRole('checkbox', { name: 'Monday' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Friday' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Tuesday' })).not.toBeChecked();
    expect(screen.getByRole('radio', { name: 'After' })).toBeChecked();
    expect(screen.getByRole('spinbutton', { name: 'Number of times' })).toHaveValue(6);
  });

  it('shows a rule from outside that replaces the one being edited', async () => {
    const onChange = jest.fn();
    const props = { start: MONDAY_NOV_23, allDay: false, onChange };
    const { rerender } = render(<RepeatField {...props} value="FREQ=MONTHLY;BYDAY=4MO" />);
    expect(selectedLabel()).toBe('Monthly on the fourth Monday');
    rerender(<RepeatField {...props} value="FREQ=DAILY;UNTIL=20261231" />);
    expect(selectedLabel()).toBe('Daily');
    expect(screen.getByRole('radio', { name: 'On' })).toBeChecked();
    expect(screen.getByLabelText('End date')).toHaveValue('2026-12-31');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('describes a rule it cannot edit, keeps it, and lets the user pick another', async () => {
    const { user, repeat } = renderRepeat({ initialRule: 'FREQ=MONTHLY;BYMONTHDAY=1,15;COUNT=4' });
    expect(selectedLabel()).toBe('Custom rule');
    expect(repeat).toHaveAccessibleDescription('Monthly on days 1 and 15, 4 times');
    expect(screen.queryByRole('group', { name: 'Ends' })).not.toBeInTheDocument();
    expect(savedRule()).toBe('FREQ=MONTHLY;BYMONTHDAY=1,15;COUNT=4');

    await user.selectOptions(repeat, 'Daily');
    expect(savedRule()).toBe('FREQ=DAILY');
    expect(optionLabels()).not.toContain('Custom rule');
    expect(repeat).not.toHaveAccessibleDescription();
  });

  it('ends after a number of times', async () => {
    const { user, repeat } = renderRepeat();
    await user.selectOptions(repeat, 'Daily');
    const count = screen.getByRole('spinbutton', { name: 'Number of times' });
    expect(count).toBeDisabled();
    await user.click(screen.getByRole('radio', { name: 'After' }));
    expect(savedRule()).toBe('FREQ=DAILY;COUNT=10');
    await user.clear(count);
    await user.type(count, '6');
    expect(savedRule()).toBe('FREQ=DAILY;COUNT=6');
    await user.click(screen.getByRole('radio', { name: 'Never' }));
    expect(savedRule()).toBe('FREQ=DAILY');
    expect(count).toBeDisabled();
    expect(count).toHaveValue(6);
  });

  it('ends on a date: a DATE for an all-day series, the end of that local day for a timed one', async () => {
    const { user, repeat } = renderRepeat({ allDay: true });
    await user.selectOptions(repeat, 'Daily');
    const date = screen.getByLabelText('End date');
    expect(date).toBeDisabled();
    expect(date).toHaveValue('2027-02-23');
    await user.click(screen.getByRole('radio', { name: 'On' }));
    expect(savedRule()).toBe('FREQ=DAILY;UNTIL=20270223');
    await user.clear(date);
    await user.type(date, '2026-12-31');
    expect(savedRule()).toBe('FREQ=DAILY;UNTIL=20261231');
  });

  it('ends a timed series at the end of the chosen local day, in UTC', async () => {
    const { user } = renderRepeat({ initialRule: 'FREQ=WEEKLY;BYDAY=MO' });
    await user.click(screen.getByRole('radio', { name: 'On' }));
    const date = screen.getByLabelText('End date');
    await user.clear(date);
    await user.type(date, '2026-12-31');
    expect(savedRule()).toBe(`FREQ=WEEKLY;BYDAY=MO;UNTIL=${endOfLocalDayUtc(2026, 12, 31)}`);
  });

  it('says what is wrong next to the control and keeps the unfinished rule', async () => {
    const { user, repeat } = renderRepeat({ initialRule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=5' });
    const count = screen.getByRole('spinbutton', { name: 'Number of times' });
    await user.clear(count);
    await user.type(count, '1000');
    expect(count).toBeInvalid();
    expect(count).toHaveAccessibleDescription('Enter a number of times from 1 to 999');
    expect(savedRule()).toBe('FREQ=WEEKLY;BYDAY=MO;COUNT=1000');
    await user.clear(count);
    expect(count).toHaveValue(null);
    expect(count).toHaveAccessibleDescription('Enter a number of times from 1 to 999');

    await user.click(screen.getByRole('checkbox', { name: 'Monday' }));
    expect(screen.getByRole('group', { name: 'Repeat on' })).toHaveAccessibleDescription(
      'Pick at least one day',
    );
    expect(savedRule()).toBe('FREQ=WEEKLY;BYDAY=;COUNT=0');

    await user.selectOptions(repeat, 'Custom...');
    const every = screen.getByRole('spinbutton', { name: 'Every' });
    await user.clear(every);
    await user.type(every, '100');
    expect(every).toHaveAccessibleDescription('Enter an interval from 1 to 99');
  });

  it('wants the end date on or after the start', async () => {
    const { user } = renderRepeat({ initialRule: 'FREQ=DAILY;UNTIL=20261231' });
    const date = screen.getByLabelText('End date');
    await user.clear(date);
    await user.type(date, '2026-11-22');
    expect(date).toBeInvalid();
    expect(date).toHaveAccessibleDescription('The end date must be on or after the start');
    await user.clear(date);
    expect(date).toHaveAccessibleDescription('Enter an end date');
  });

  it('shows an error from the form under the select, once', () => {
    const onChange = jest.fn();
    const props = { start: MONDAY_NOV_23, allDay: false, onChange };
    const { rerender } = render(<RepeatField {...props} value="FREQ=DAILY" error="Too many occurrences" />);
    const repeat = screen.getByRole('combobox', { name: 'Repeat' });
    expect(repeat).toBeInvalid();
    expect(repeat).toHaveAccessibleDescription('Too many occurrences');

    rerender(
      <RepeatField {...props} value="FREQ=DAILY;COUNT=0" error="Enter a number of times from 1 to 999" />,
    );
    expect(screen.getAllByText('Enter a number of times from 1 to 999')).toHaveLength(1);
    expect(screen.getByRole('spinbutton', { name: 'Number of times' })).toBeInvalid();
  });

  it('keeps wording its options from the last valid start while the start is retyped', () => {
    const props = { value: 'FREQ=MONTHLY;BYDAY=4MO', allDay: false, onChange: jest.fn() };
    const { rerender } = render(<RepeatField {...props} start={MONDAY_NOV_23} />);
    rerender(<RepeatField {...props} start={new Date('')} />);
    expect(selectedLabel()).toBe('Monthly on the fourth Monday');
    expect(optionLabels()).toContain('Annually on November 23');
  });

  it('submits the rule under its name', () => {
    renderRepeat({ initialRule: 'FREQ=DAILY', name: 'rrule', idPrefix: 'event-repeat' });
    const form = screen.getByRole('form', { name: 'Event' }) as HTMLFormElement;
    expect(form.elements.namedItem('rrule')).toHaveValue('FREQ=DAILY');
    expect(screen.getByRole('combobox', { name: 'Repeat' })).toHaveAttribute('id', 'event-repeat');
  });
});
