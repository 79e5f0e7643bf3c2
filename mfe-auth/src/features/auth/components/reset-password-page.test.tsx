import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, renderPage, resetTestEnvironment } from '@time-wallet/api/testing';
import { ResetPasswordPage } from './reset-password-page';

const user = userEvent.setup({ delay: null });

function renderReset(search: string) {
  return renderPage(<ResetPasswordPage />, {
    path: '/auth/reset-password',
    initialEntries: [`/auth/reset-password${search}`],
  });
}

async function choose(password: string, confirmation = password) {
  await user.type(screen.getByLabelText('New password'), password);
  await user.type(screen.getByLabelText('Confirm new password'), confirmation);
  await user.click(screen.getByRole('button', { name: 'Set new password' }));
}

describe('ResetPasswordPage', () => {
  beforeEach(() => resetTestEnvironment());
  afterEach(() => jest.restoreAllMocks());

  it('explains a link without a token and offers a new one', () => {
    mockApi();
    renderReset('');

    expect(screen.getByRole('alert')).toHaveTextContent(
      'This reset link is incomplete. Please request a new one.',
    );
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute(
      'href',
      '/auth/forgot-password',
    );
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });

  it('holds a new password to the registration rules and sends nothing', async () => {
    const server = mockApi();
    renderReset('?token=reset-123');

    await choose('secret#123');

    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(
      'Password must contain at least one uppercase letter',
    );
    expect(server.requests).toHaveLength(0);
  });

  it('asks for the same password twice and sends nothing', async () => {
    const server = mockApi();
    renderReset('?token=reset-123');

    await choose('Secret#123', 'Secret#124');

    expect(screen.getByLabelText('Confirm new password')).toHaveAccessibleDescription(
      'The passwords do not match',
    );
    expect(server.requests).toHaveLength(0);
  });

  it("shows the server's reason for the new password on that field", async () => {
    const reason = 'Password must not be one of the most common passwords';
    mockApi({
      'POST /auth/reset-password': {
        status: 400,
        body: { message: 'Validation failed', errors: [{ field: 'password', message: reason }] },
      },
    });
    renderReset('?token=reset-123');
    await choose('Secret#123');
    expect(await screen.findByLabelText('New password')).toHaveAccessibleDescription(reason);
  });

  it("shows the server's message when it refuses the link", async () => {
    const server = mockApi({
      'POST /auth/reset-password': {
        status: 400,
        body: { message: 'This password reset link has expired; ask for a new one' },
      },
    });
    renderReset('?token=reset-123');

    await choose('Secret#123');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This password reset link has expired; ask for a new one',
    );
    expect(screen.getByRole('link', { name: 'Request a new link' })).toBeInTheDocument();
    expect(server.requests[0].body).toEqual({ token: 'reset-123', password: 'Secret#123' });
  });

  it('confirms a changed password', async () => {
    mockApi({ 'POST /auth/reset-password': { body: { message: 'Password updated' } } });
    renderReset('?token=reset-123');

    await choose('Secret#123');

    expect(
      await screen.findByText('Your password has been changed. You can sign in with it now.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/auth/login');
  });
});
