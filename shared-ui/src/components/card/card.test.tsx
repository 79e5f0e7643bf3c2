import { render, screen, within } from '@testing-library/react';
import { Card } from './card';

describe('Card', () => {
  it('shows its title as a heading above its content', () => {
    render(<Card title="Budget Hours">15 hours</Card>);
    expect(screen.getByRole('heading', { level: 3, name: 'Budget Hours' })).toBeInTheDocument();
    expect(screen.getByText('15 hours')).toBeInTheDocument();
  });

  it('uses the heading level it is given', () => {
    render(<Card title="Your Wallet" headingLevel={2} />);
    expect(screen.getByRole('heading', { level: 2, name: 'Your Wallet' })).toBeInTheDocument();
  });

  it('has no heading without a title', () => {
    render(<Card>Just content</Card>);
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
  });

  it('can be a list item', () => {
    render(
      <ul aria-label="Reminders">
        <Card as="li" title="Standup" />
      </ul>,
    );
    const item = within(screen.getByRole('list', { name: 'Reminders' })).getByRole('listitem');
    expect(item).toHaveTextContent('Standup');
  });
});
