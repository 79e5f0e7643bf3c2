import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, NETWORK_FAILURE, renderPage, resetTestEnvironment } from '@time-wallet/api/testing';
import { ForgotPasswordPage } from './forgot-password-page';

const user = userEvent.setup({ delay: null });

async function ask(email: string) {
  renderPage(<ForgotPasswordPage />, { path: '/auth/forgot-password' });
  await user.type(screen.getByLabelText('Email'), email);
  await user.click(screen.getByRole('button', { name: 'Send reset link' }));
}

describe('ForgotPasswordPage', () => {
  beforeEach(() => resetTestEnvironment());
  afterEach(() => jest.restoreAllMocks());

  it('says a link is on its way without telling whether the account exists', async () => {
    const server = mockApi({ 'POST /auth/forgot-password': { status: 202, body: {} } });
    await ask('someone@example.com');
    expect(await screen.findByRole('status')).toHaveTextContent(
      'If an account exists for someone@example.com',
    );
    expect(server.requestsTo('POST', '/auth/forgot-password')[0].body).toEqual({
      email: 'someone@example.com',
    });
  });

  it("shows the server's reason on the Email field", async () => {
    const reason = 'Email must not exceed 254 characters';
    mockApi({
      'POST /auth/forgot-password': {
        status: 400,
        body: { message: 'Validation failed', errors: [{ field: 'email', message: reason }] },
      },
    });
    await ask('someone@example.com');
    expect(await screen.findByLabelText('Email')).toHaveAccessibleDescription(reason);
  });

  it('says so when the network fails', async () => {
    mockApi({ 'POST /auth/forgot-password': NETWORK_FAILURE });
    await ask('someone@example.com');
    expect(await screen.findByLabelText('Email')).toHaveAccessibleDescription(
      'Network error. Please try again.',
    );
  });
});
