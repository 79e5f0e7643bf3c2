import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { createAppStore, selectAppliedTheme } from '@time-wallet/api';
import {
  mockApi,
  NETWORK_FAILURE,
  renderPage,
  resetTestEnvironment,
  TEST_USER,
} from '@time-wallet/api/testing';
import { RegisterPage } from './register-page';

const user = userEvent.setup({ delay: null });

const VALID = {
  username: 'adalovelace1',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  password: 'Secret#123',
};
type FormField = keyof typeof VALID;

const LABELS: Record<FormField, string> = {
  username: 'Username',
  name: 'Full name',
  email: 'Email',
  password: 'Password',
};

async function fillAndSubmit(values: Partial<Record<FormField, string>>) {
  for (const field of Object.keys(LABELS) as FormField[]) {
    const value = values[field] ?? VALID[field];
    if (!value) continue;
    await user.click(screen.getByLabelText(LABELS[field]));
    await user.paste(value);
  }
  await user.click(screen.getByRole('button', { name: 'Create Account' }));
}

const generalError = () => screen.getByRole('alert');

describe('RegisterPage', () => {
  beforeEach(() => resetTestEnvironment());
  afterEach(() => {
    act(() => toast.remove());
    jest.restoreAllMocks();
  });

  it('shows the registration form in the light theme', () => {
    mockApi();
    window.localStorage.setItem('theme', 'dark');
    const store = createAppStore();
    renderPage(<RegisterPage />, { path: '/auth/register', store });

    expect(screen.getByRole('heading', { level: 1, name: 'Create Account' })).toBeInTheDocument();
    for (const label of Object.values(LABELS)) expect(screen.getByLabelText(label)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/auth/login');
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/');
    expect(selectAppliedTheme(store.getState())).toBe('light');
  });

  it.each<[FormField, string, string]>([
    ['username', 'ada1234', 'Username must be at least 8 characters'],
    ['username', 'adalovelace12345', 'Username must not exceed 15 characters'],
    ['username', 'ada_lovelace', 'Username can only contain letters and digits'],
    ['email', 'ada.example.com', 'Invalid email format'],
    ['password', 'Se#1abc', 'Password must be at least 8 characters'],
    ['password', 'Secret#123Secret#1234', 'Password must not exceed 20 characters'],
    ['password', 'SECRET#123', 'Password must contain at least one lowercase letter'],
    ['password', 'secret#123', 'Password must contain at least one uppercase letter'],
    ['password', 'Secret#abc', 'Password must contain at least one digit'],
    ['password', 'Secret1234', 'Password must contain at least one special character (!@#$%^&*)'],
    [
      'password',
      'Secret#123~',
      'Password can only contain letters, digits, and special characters (!@#$%^&*)',
    ],
    ['name', 'Ada  ', 'Name must be at least 5 characters'],
  ])('rejects the %s %p with "%s" and sends nothing', async (field, value, message) => {
    const server = mockApi();
    renderPage(<RegisterPage />, { path: '/auth/register' });

    await fillAndSubmit({ [field]: value });

    expect(screen.getByLabelText(LABELS[field])).toHaveAccessibleDescription(
      expect.stringContaining(message),
    );
    expect(screen.getByLabelText(LABELS[field])).toBeInvalid();
    expect(generalError()).toHaveTextContent(message);
    expect(server.requests).toHaveLength(0);
  });

  it('rejects an e-mail address under 5 characters with "Email must be at least 5 characters"', async () => {
    mockApi();
    renderPage(<RegisterPage />, { path: '/auth/register' });

    await fillAndSubmit({ email: 'a@b' });

    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription(
      expect.stringContaining('Email must be at least 5 characters'),
    );
  });

  it('shows each invalid field its message and the first one as the general error', async () => {
    const server = mockApi();
    renderPage(<RegisterPage />, { path: '/auth/register' });

    await fillAndSubmit({ username: 'ada', name: 'Ada', email: 'ada@example', password: 'secret' });

    expect(generalError()).toHaveTextContent('Username must be at least 8 characters');
    expect(screen.getByLabelText('Username')).toHaveAccessibleDescription(
      expect.stringContaining('Username must be at least 8 characters'),
    );
    expect(screen.getByLabelText('Full name')).toHaveAccessibleDescription(
      expect.stringContaining('Name must be at least 5 characters'),
    );
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription(
      expect.stringContaining('Invalid email format'),
    );
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(
      expect.stringContaining('Password must be at least 8 characters'),
    );
    expect(server.requests).toHaveLength(0);
  });

  it("clears a field's error when it is edited", async () => {
    mockApi();
    renderPage(<RegisterPage />, { path: '/auth/register' });
    await fillAndSubmit({ username: 'ada' });

    await user.type(screen.getByLabelText('Username'), 'lovelace');

    expect(screen.getByLabelText('Username')).toHaveAccessibleDescription(
      expect.stringContaining('8 to 15 letters and digits'),
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('explains a username that is already taken', async () => {
    mockApi({ 'POST /auth/register/user': { status: 409, body: { message: 'Username already exists' } } });
    renderPage(<RegisterPage />, { path: '/auth/register' });

    await fillAndSubmit({});

    expect(await screen.findByText('Username is already taken')).toBeInTheDocument();
    expect(generalError()).toHaveTextContent('Username is already taken');
    expect(screen.getByLabelText('Username')).toHaveAccessibleDescription(
      expect.stringContaining('This username is already taken. Please choose a different one.'),
    );
  });

  it("maps the server's field errors", async () => {
    mockApi({
      'POST /auth/register/user': {
        status: 400,
        body: {
          message: 'Validation failed',
          errors: [{ field: 'email', message: 'Email is not deliverable' }],
        },
      },
    });
    renderPage(<RegisterPage />, { path: '/auth/register' });

    await fillAndSubmit({});

    expect(await screen.findByText('Please fix the validation errors below')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription(
      expect.stringContaining('Email is not deliverable'),
    );
  });

  it('reports a network failure', async () => {
    mockApi({ 'POST /auth/register/user': NETWORK_FAILURE });
    renderPage(<RegisterPage />, { path: '/auth/register' });

    await fillAndSubmit({});

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Network error. Please check your connection and try again.',
    );
  });

  it('registers, says so and goes to the login screen', async () => {
    const server = mockApi({
      'POST /auth/register/user': {
        status: 201,
        body: { message: 'Registration successful', user: TEST_USER },
      },
    });
    renderPage(<RegisterPage />, { path: '/auth/register' });

    await fillAndSubmit({ name: '  Ada Lovelace ' });

    expect(await screen.findByRole('heading', { name: 'Arrived at /auth/login' })).toBeInTheDocument();
    expect(await screen.findByText('Registration successful!')).toBeInTheDocument();
    expect(server.requestsTo('POST', '/auth/register/user')[0].body).toEqual({
      username: 'adalovelace1',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      password: 'Secret#123',
      profilePicture: '',
    });
  });
});
