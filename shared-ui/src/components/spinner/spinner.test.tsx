import { render, screen } from '@testing-library/react';
import { Spinner } from './spinner';

describe('Spinner', () => {
  it('announces that something is loading', () => {
    render(<Spinner />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading');
  });

  it('announces a custom label', () => {
    render(<Spinner label="Loading your wallet" />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading your wallet');
  });
});
