import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Banner } from './banner';

describe('Banner', () => {
  it('announces an error as an alert', () => {
    render(<Banner tone="error">Failed to fetch wallet data</Banner>);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to fetch wallet data');
  });

  it('shows information politely, without an alert', () => {
    render(<Banner tone="success">Saved</Banner>);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Saved');
  });

  it('is dismissed with a visible × button named Dismiss', async () => {
    const onDismiss = jest.fn();
    render(
      <Banner tone="error" onDismiss={onDismiss}>
        Failed to load events
      </Banner>,
    );
    const dismiss = screen.getByRole('button', { name: 'Dismiss' });
    expect(dismiss).toHaveTextContent('×');
    await userEvent.click(dismiss);
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });

  it('has no dismiss button when it cannot be dismissed', () => {
    render(<Banner tone="info">Heads up</Banner>);
    expect(screen.queryByRole('button', { name: 'Dismiss' })).not.toBeInTheDocument();
  });
});
