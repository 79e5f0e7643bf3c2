import { screen, within } from '@testing-library/react';
import { resetTestEnvironment } from '@time-wallet/api/testing';
import { renderRoutes } from '../testing/render';
import { routes } from './routes';

describe("the signed-in pages' frame while the session check runs", () => {
  beforeEach(() => {
    resetTestEnvironment();
    // A stored session: the check runs (and stays pending here, since nothing answers it yet).
    window.localStorage.setItem('token', 'token-abc');
  });

  it("keeps the page's heading and the side navigation on screen, with the session spinner under the heading", () => {
    renderRoutes(routes, { initialEntries: ['/app/wallet'] });
    expect(screen.getByRole('status')).toHaveTextContent('Checking your session');
    const frame = screen.getByLabelText('Loading page');
    expect(
      within(frame).getByRole('heading', { level: 1, name: 'Manage Time Wallet', hidden: true }),
    ).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });

  it('draws the calendar (no side navigation) with its own bar', () => {
    renderRoutes(routes, { initialEntries: ['/app/calendar'] });
    expect(screen.getByRole('status')).toHaveTextContent('Checking your session');
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Wallet' })).toBeInTheDocument();
  });

  it('shows the spinner alone where a page has no frame', () => {
    renderRoutes(routes, { initialEntries: ['/app/logout'] });
    expect(screen.getByRole('status')).toHaveTextContent('Checking your session');
    expect(screen.queryByLabelText('Loading page')).not.toBeInTheDocument();
  });
});
