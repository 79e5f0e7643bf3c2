import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { InactivityWarning } from './inactivity-warning';

describe('InactivityWarning', () => {
  it('is an alert dialog with the seconds left and the focus on Stay signed in', async () => {
    const staySignedIn = jest.fn();
    render(<InactivityWarning secondsLeft={60} staySignedIn={staySignedIn} />);
    const dialog = screen.getByRole('alertdialog', { name: 'Still there?' });
    expect(dialog).toHaveTextContent('You will be signed out in 60 s');
    const stay = screen.getByRole('button', { name: 'Stay signed in' });
    expect(stay).toHaveFocus();
    await userEvent.click(stay);
    expect(staySignedIn).toHaveBeenCalledTimes(1);
  });

  it('shows nothing when no sign-out is near', () => {
    render(<InactivityWarning secondsLeft={null} staySignedIn={() => undefined} />);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });
});
