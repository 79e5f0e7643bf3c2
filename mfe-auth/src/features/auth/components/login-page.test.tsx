import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { createAppStore, selectAppliedTheme, selectThemePreference } from '@time-wallet/api';
import {
  deferred,
  mockApi,
  type MockReply,
  NETWORK_FAILURE,
  renderPage,
  resetTestEnvironment,
  TEST_USER,
} from '@time-wallet/api/testing';
import { LoginPage } from './login-page';

const user = userEvent.setup({ delay: null });

function renderLogin(options: { initialEntries?: Parameters<typeof renderPage>[1]['initialEntries'] } = {}) {
  return renderPage(<LoginPage />, { path: '/auth/login', ...options });
}

async function signIn(username = 'adalovelace', password = 'Secret#123') {
  if (username) await user.type(screen.getByLabelText('Username'), username);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

const successfulLogin = { body: { message: 'Login successful', token: 'token-new', user: TEST_USER } };

describe('LoginPage', () => {
  beforeEach(() => resetTestEnvironment());
  afterEach(() => {
    act(() => toast.remove());
    jest.restoreAllMocks();
  });

  it('welcomes the person back and links the other auth screens', () => {
    mockApi();
    renderLogin();

    expect(screen.getByRole('heading', { level: 1, name: 'Welcome Back' })).toBeInTheDocument();
    expect(screen.getByText('Please enter your account details')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Forgot password' })).toHaveAttribute(
      'href',
      '/auth/forgot-password',
    );
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/auth/register');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  });

  it.each([
    ['nothing', '', ''],
    ['no password', 'adalovelace', ''],
    ['no username', '', 'Secret#123'],
  ])('asks for both fields and sends nothing with %s', async (_case, username, password) => {
    const server = mockApi();
    renderLogin();

    await signIn(username, password);

    expect(screen.getByRole('alert')).toHaveTextContent('Please enter your username and password');
    expect(server.requests).toHaveLength(0);
  });

  it("shows the server's message for wrong credentials", async () => {
    mockApi({ 'POST /auth/login': { status: 401, body: { message: 'Invalid username or password' } } });
    const { store } = renderLogin();

    await signIn('adalovelace', 'Wrong#123');

    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid username or password');
    expect(store.getState().session.isAuthenticated).toBe(false);
    expect(window.localStorage.getItem('token')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Welcome Back' })).toBeInTheDocument();
  });

  it.each<[string, MockReply]>([
    ['an empty object', { status: 500, body: {} }],
    ['no body', { status: 500 }],
  ])("shows 'Login failed' for a 500 with %s", async (_case, reply) => {
    mockApi({ 'POST /auth/login': reply });
    renderLogin();

    await signIn();

    expect(await screen.findByRole('alert')).toHaveTextContent(/^Login failed$/);
  });

  it('reports a network error when the server cannot be reached', async () => {
    mockApi({ 'POST /auth/login': NETWORK_FAILURE });
    renderLogin();

    await signIn();

    expect(await screen.findByRole('alert')).toHaveTextContent('Network error. Please try again.');
  });

  it('clears the error when a field is edited', async () => {
    mockApi({ 'POST /auth/login': { status: 401, body: { message: 'Invalid username or password' } } });
    renderLogin();
    await signIn('adalovelace', 'Wrong#123');
    await screen.findByRole('alert');

    await user.type(screen.getByLabelText('Password'), '4');

    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('signs in, stores the session and goes to the wallet', async () => {
    const server = mockApi({ 'POST /auth/login': successfulLogin });
    const { store } = renderLogin();

    await signIn('  adalovelace ', 'Secret#123');

    expect(await screen.findByRole('heading', { name: 'Arrived at /app/wallet' })).toBeInTheDocument();
    expect(server.requestsTo('POST', '/auth/login')[0].body).toEqual({
      username: 'adalovelace',
      password: 'Secret#123',
    });
    expect(store.getState().session).toMatchObject({
      status: 'authenticated',
      isAuthenticated: true,
      token: 'token-new',
      user: TEST_USER,
    });
    expect(window.localStorage.getItem('token')).toBe('token-new');
    expect(JSON.parse(window.localStorage.getItem('USER')!)).toEqual(TEST_USER);
    expect(await screen.findByText('Login successful!')).toBeInTheDocument();
  });

  it('returns to the page the guard remembered', async () => {
    mockApi({ 'POST /auth/login': successfulLogin });
    renderLogin({
      initialEntries: [
        {
          pathname: '/auth/login',
          state: { from: { pathname: '/app/calendar', search: '?week=2026-11-15' } },
        },
      ],
    });

    await signIn();

    expect(
      await screen.findByRole('heading', { name: 'Arrived at /app/calendar?week=2026-11-15' }),
    ).toBeInTheDocument();
  });

  it("reports 'Login succeeded but session setup failed' for an answer without a token", async () => {
    mockApi({ 'POST /auth/login': { body: { message: 'Login successful', user: TEST_USER } } });
    const { store } = renderLogin();

    await signIn();

    expect(await screen.findByRole('alert')).toHaveTextContent('Login succeeded but session setup failed');
    expect(store.getState().session.isAuthenticated).toBe(false);
  });

  it("reads 'Signing in...' while the request is under way", async () => {
    const answer = deferred<MockReply>();
    mockApi({ 'POST /auth/login': () => answer.promise });
    renderLogin();

    await signIn();

    const busy = screen.getByRole('button', { name: 'Signing in...' });
    expect(busy).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Sign in' })).not.toBeInTheDocument();

    await act(async () => answer.resolve(successfulLogin));
    expect(await screen.findByRole('heading', { name: 'Arrived at /app/wallet' })).toBeInTheDocument();
  });

  it('forces the light theme while shown and restores the preference on leaving', () => {
    mockApi();
    window.localStorage.setItem('theme', 'dark');
    const store = createAppStore();
    const { unmount } = renderPage(<LoginPage />, { path: '/auth/login', store });

    expect(selectAppliedTheme(store.getState())).toBe('light');
    expect(selectThemePreference(store.getState())).toBe('dark');

    unmount();

    expect(selectAppliedTheme(store.getState())).toBe('dark');
    expect(window.localStorage.getItem('theme')).toBe('dark');
  });

  it('labels the form controls for assistive technology', () => {
    mockApi();
    renderLogin();
    const form = screen.getByRole('button', { name: 'Sign in' }).closest('form')!;

    expect(within(form).getByRole('textbox', { name: 'Username' })).toHaveAccessibleDescription(
      'Your username or e-mail address',
    );
    expect(within(form).getByLabelText('Password')).toHaveAttribute('type', 'password');
  });
});
