import { screen } from '@testing-library/react';
import { createAppStore, signedIn, signedOut, signedOutForInactivity } from '@time-wallet/api';
import { resetTestEnvironment, TEST_USER } from '@time-wallet/api/testing';
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

  it('says why after an inactivity sign-out, and only then', () => {
    resetTestEnvironment({ inactivityTimeoutMs: 30 * 60_000 });
    const idled = createAppStore();
    idled.dispatch(signedIn({ token: 't', user: TEST_USER }));
    idled.dispatch(signedOutForInactivity());
    const { unmount } = renderAt(<LandingPage />, '/', { store: idled });
    expect(screen.getByRole('status')).toHaveTextContent(
      'You were signed out after 30 minutes without activity, to keep your wallet safe. Sign in again to carry on.',
    );
    unmount();

    const left = createAppStore();
    left.dispatch(signedIn({ token: 't', user: TEST_USER }));
    left.dispatch(signedOut());
    renderAt(<LandingPage />, '/', { store: left });
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
