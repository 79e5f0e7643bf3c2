import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Field } from './field';

describe('Field', () => {
  it('labels its input so it can be found and typed into by its label', async () => {
    const onChange = jest.fn();
    render(<Field label="Username" name="username" onChange={onChange} />);
    const input = screen.getByRole('textbox', { name: 'Username' });
    await userEvent.type(input, 'timekeeper1');
    expect(input).toHaveValue('timekeeper1');
    expect(input).toHaveAttribute('name', 'username');
    expect(onChange).toHaveBeenCalled();
  });

  it('links the error to the control and marks it invalid', () => {
    render(<Field label="Username" error="Username must be at least 8 characters" />);
    const input = screen.getByRole('textbox', { name: 'Username' });
    expect(input).toBeInvalid();
    expect(input).toHaveAccessibleDescription('Username must be at least 8 characters');
  });

  it('is valid without an error', () => {
    render(<Field label="Username" />);
    expect(screen.getByRole('textbox', { name: 'Username' })).toBeValid();
  });

  it('describes the control with its hint, then its error', () => {
    render(
      <Field
        label="Password"
        type="password"
        hint="8 to 20 characters"
        error="Password must contain at least one digit"
      />,
    );
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(
      '8 to 20 characters Password must contain at least one digit',
    );
  });

  it('keeps a description the caller already set', () => {
    render(
      <>
        <p id="rules">Letters and digits only</p>
        <Field label="Username" aria-describedby="rules" error="Too short" />
      </>,
    );
    expect(screen.getByRole('textbox', { name: 'Username' })).toHaveAccessibleDescription(
      'Letters and digits only Too short',
    );
  });

  it('renders a select with its options', async () => {
    render(
      <Field as="select" label="Category" defaultValue="">
        <option value="">Choose one</option>
        <option value="work">Work</option>
      </Field>,
    );
    const select = screen.getByRole('combobox', { name: 'Category' });
    await userEvent.selectOptions(select, 'Work');
    expect(select).toHaveValue('work');
  });

  it('renders a textarea', async () => {
    render(<Field as="textarea" label="Notes" />);
    const notes = screen.getByRole('textbox', { name: 'Notes' });
    expect(notes.tagName).toBe('TEXTAREA');
    await userEvent.type(notes, 'Bring the slides');
    expect(notes).toHaveValue('Bring the slides');
  });

  it('wires a custom control rendered by its children', () => {
    render(
      <Field as="custom" label="Start" error="Start is required">
        {(control) => <input type="datetime-local" {...control} />}
      </Field>,
    );
    const start = screen.getByLabelText('Start');
    expect(start).toHaveAttribute('type', 'datetime-local');
    expect(start).toBeInvalid();
    expect(start).toHaveAccessibleDescription('Start is required');
  });

  it('works as a controlled input', async () => {
    function Controlled() {
      const [title, setTitle] = useState('');
      return (
        <>
          <Field label="Title" value={title} onChange={(event) => setTitle(event.target.value)} />
          <output>{title.toUpperCase()}</output>
        </>
      );
    }
    render(<Controlled />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Title' }), 'gym');
    expect(screen.getByRole('status')).toHaveTextContent('GYM');
  });
});
