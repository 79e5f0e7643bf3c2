import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from '@time-wallet/api/router';
import { mockApi, renderPage, usePageTestEnvironment, signedInStore } from '@time-wallet/api/testing';
import AccountPage from './pages/account-page';
import LogoutPage from './pages/logout-page';

/** The two pages of this remote on their routes, as the shell mounts them. */
function AccountThenLogout() {
  return useLocation().pathname === '/app/logout' ? <LogoutPage /> : <AccountPage />;
}

const PERSONAL_KEYS = ['token', 'USER', 'session', 'lastAnalyticsUpdate', 'wallet-store'];

describe('Sign out everywhere', () => {
  usePageTestEnvironment({ fakeTimers: true });

  it('ends every session on the server, then clears this device and ends its session as Logout does', async () => {
    const user = userEvent.setup({ delay: null, advanceTimers: jest.advanceTimersByTime });
    const server = mockApi({
      'GET /auth/sessions': {
        body: {
          sessions: [
            {
              _id: 's-1',
              createdAt: '2026-05-01T08:00:00.000Z',
              lastSeenAt: '2026-05-01T09:00:00.000Z',
              expiresAt: '2026-05-08T08:00:00.000Z',
              userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36',
              current: true,
            },
          ],
        },
      },
      'POST /auth/logout-all': { status: 204 },
      // The token is revoked already: the logout page must still end the session as a sign-out.
      'POST /auth/logout': { status: 401, body: { message: 'Invalid or expired token' } },
    });
    const store = signedInStore();
    window.localStorage.setItem('wallet-store', '{"state":{"spentHours":2}}');
    window.localStorage.setItem('theme', 'dark');
    renderPage(<AccountThenLogout />, { path: '/app/*', initialEntries: ['/app/account'], store });

    await screen.findByText('Chrome on Linux');
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere?' });
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));

    expect(await screen.findByRole('heading', { name: 'Logged Out Successfully' })).toBeInTheDocument();
    for (const key of PERSONAL_KEYS) expect(window.localStorage.getItem(key)).toBeNull();
    expect(window.localStorage.getItem('theme')).toBe('dark');

    await act(() => jest.advanceTimersByTimeAsync(1500));

    expect(store.getState().session).toMatchObject({
      status: 'unauthenticated',
      endedBy: 'signOut',
      token: null,
      user: null,
    });
    // The account's sign-in calls, in order (the page's Notifications section reads its own endpoints meanwhile).
    const authCalls = server.requests.filter((request) => request.path.startsWith('/auth/'));
    expect(authCalls.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /auth/sessions',
      'POST /auth/logout-all',
      'POST /auth/logout',
    ]);
  });
});
