import { act, screen } from '@testing-library/react';
import {
  createAppStore,
  sessionConfirmed,
  sessionExpired,
  sessionRestoredFromDevice,
  signedOut,
} from '@time-wallet/api';
import { resetTestEnvironment, TEST_USER, signedInStore } from '@time-wallet/api/testing';
import { LocationProbe, renderRoutes } from '../../testing/render';
import { GuestOnly, RequireAuth, RequireConfirmedSession } from './guards';

const routes = [
  { path: '/', element: <h1>Landing</h1> },
  {
    path: '/auth/login',
    element: (
      <GuestOnly>
        <h1>Login form</h1>
        <LocationProbe />
      </GuestOnly>
    ),
  },
  {
    path: '/app',
    element: <RequireAuth />,
    children: [
      { path: 'wallet', element: <h1>Wallet page</h1> },
      { path: 'today', element: <h1>Today page</h1> },
      { path: 'calendar', element: <h1>Calendar page</h1> },
      {
        path: 'analytics',
        element: (
          <RequireConfirmedSession>
            <h1>Analytics page</h1>
          </RequireConfirmedSession>
        ),
      },
    ],
  },
];

describe('RequireAuth', () => {
  beforeEach(() => resetTestEnvironment());

  it('shows a spinner while the session check runs', () => {
    window.localStorage.setItem('token', 'token-abc');
    renderRoutes(routes, { initialEntries: ['/app/wallet'] });

    expect(screen.getByRole('status')).toHaveTextContent('Checking your session');
    expect(screen.queryByRole('heading', { name: 'Wallet page' })).not.toBeInTheDocument();
  });

  it('sends a guest to the login screen, remembering where they were headed', () => {
    renderRoutes(routes, { initialEntries: ['/app/today?view=list'] });

    expect(screen.getByRole('heading', { name: 'Login form' })).toBeInTheDocument();
    expect(screen.getByText('At /auth/login from /app/today?view=list')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Today page' })).not.toBeInTheDocument();
  });

  it('sends a person whose session expired to the login screen, remembering the page', () => {
    const store = signedInStore();
    renderRoutes(routes, { initialEntries: ['/app/calendar'], store });
    expect(screen.getByRole('heading', { name: 'Calendar page' })).toBeInTheDocument();

    act(() => {
      store.dispatch(sessionExpired());
    });

    expect(screen.getByRole('heading', { name: 'Login form' })).toBeInTheDocument();
    expect(screen.getByText('At /auth/login from /app/calendar')).toBeInTheDocument();
  });

  it('takes a person who just signed out to the landing page', () => {
    const store = signedInStore();
    renderRoutes(routes, { initialEntries: ['/app/wallet'], store });
    expect(screen.getByRole('heading', { name: 'Wallet page' })).toBeInTheDocument();

    act(() => {
      store.dispatch(signedOut());
    });

    expect(screen.getByRole('heading', { name: 'Landing' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Login form' })).not.toBeInTheDocument();
  });

  it('shows the page to a signed-in person', () => {
    renderRoutes(routes, { initialEntries: ['/app/wallet'], store: signedInStore() });

    expect(screen.getByRole('heading', { name: 'Wallet page' })).toBeInTheDocument();
  });
});

describe('GuestOnly', () => {
  beforeEach(() => resetTestEnvironment());

  it('shows the login screen to a guest', () => {
    renderRoutes(routes, { initialEntries: ['/auth/login'] });

    expect(screen.getByRole('heading', { name: 'Login form' })).toBeInTheDocument();
  });

  it('sends a signed-in person to the wallet', () => {
    renderRoutes(routes, { initialEntries: ['/auth/login'], store: signedInStore() });

    expect(screen.getByRole('heading', { name: 'Wallet page' })).toBeInTheDocument();
  });

  it('sends a signed-in person to the page they were headed for', () => {
    renderRoutes(routes, {
      initialEntries: [
        { pathname: '/auth/login', state: { from: { pathname: '/app/calendar', search: '' } } },
      ],
      store: signedInStore(),
    });

    expect(screen.getByRole('heading', { name: 'Calendar page' })).toBeInTheDocument();
  });
});

describe('RequireConfirmedSession', () => {
  beforeEach(() => resetTestEnvironment());

  it('asks for a connection when the session runs on the stored user only', () => {
    window.localStorage.setItem('token', 'token-abc');
    const store = createAppStore();
    store.dispatch(sessionRestoredFromDevice({ user: TEST_USER }));
    renderRoutes(routes, { initialEntries: ['/app/analytics'], store });

    expect(screen.getByRole('heading', { name: 'Analytics needs a connection' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Analytics page' })).not.toBeInTheDocument();
  });

  it('shows the page once the server confirmed the session', () => {
    window.localStorage.setItem('token', 'token-abc');
    const store = createAppStore();
    store.dispatch(sessionConfirmed({ user: TEST_USER }));
    renderRoutes(routes, { initialEntries: ['/app/analytics'], store });

    expect(screen.getByRole('heading', { name: 'Analytics page' })).toBeInTheDocument();
    expect(screen.queryByText('Analytics needs a connection')).not.toBeInTheDocument();
  });
});
