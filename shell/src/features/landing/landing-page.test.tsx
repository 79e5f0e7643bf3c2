import { screen } from '@testing-library/react';
import { renderAt } from '../../testing/render';
import { LandingPage } from './landing-page';

describe('LandingPage', () => {
  it('invites a visitor in with the headline, the social proof and sample tasks', () => {
    renderAt(<LandingPage />, '/');

    expect(
      screen.getByRole('heading', { level: 1, name: 'Organize everything in your life' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/auth/login');
    expect(screen.getByText('450k people have joined')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Groceries Shopping' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Finish AI & ML Report' })).toBeInTheDocument();
    expect(screen.getByText('Priority')).toBeInTheDocument();
  });
});
