import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Switch } from './switch';

function Setting({ onChange }: { onChange: (checked: boolean) => void }) {
  const [checked, setChecked] = useState(true);
  return (
    <Switch
      label="Counts in budget"
      checked={checked}
      onChange={(next) => {
        setChecked(next);
        onChange(next);
      }}
    />
  );
}

describe('Switch', () => {
  it('is a switch named by its label, with its state in aria-checked', async () => {
    const onChange = jest.fn();
    render(<Setting onChange={onChange} />);
    const setting = screen.getByRole('switch', { name: 'Counts in budget' });
    expect(setting).toHaveAttribute('aria-checked', 'true');
    await userEvent.click(setting);
    expect(onChange).toHaveBeenLastCalledWith(false);
    expect(setting).toHaveAttribute('aria-checked', 'false');
  });

  it('toggles from the keyboard with Space and Enter', async () => {
    const user = userEvent.setup();
    const onChange = jest.fn();
    render(<Setting onChange={onChange} />);
    await user.tab();
    expect(screen.getByRole('switch')).toHaveFocus();
    await user.keyboard(' ');
    expect(onChange).toHaveBeenLastCalledWith(false);
    await user.keyboard('{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(true);
    expect(screen.getByRole('switch')).toHaveAttribute('aria-checked', 'true');
  });

  it('does nothing while disabled', async () => {
    const onChange = jest.fn();
    render(<Switch label="Counts in budget" checked disabled onChange={onChange} />);
    await userEvent.click(screen.getByRole('switch'));
    expect(onChange).not.toHaveBeenCalled();
  });
});
