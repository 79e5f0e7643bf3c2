import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import {
  deferred,
  mockApi,
  type MockReply,
  NETWORK_FAILURE,
  renderPage,
  resetTestEnvironment,
  signedInStore,
} from '@time-wallet/api/testing';
import type { AccountSession } from '../api/sessions-api';
import { AccountPage } from './account-page';

const user = userEvent.setup({ delay: null });

const CHROME_ON_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

function session(id: string, userAgent: string, overrides: Partial<AccountSession> = {}): AccountSession {
  return {
    _id: id,
    createdAt: minutesAgo(3 * 24 * 60),
    lastSeenAt: minutesAgo(0),
    expiresAt: new Date(Date.now() + 7 * 24 * 3_600_000).toISOString(),
    userAgent,
    current: false,
    ...overrides,
  };
}

const THIS_LAPTOP = session('s-laptop', CHROME_ON_LINUX, { current: true });
const PHONE = session('s-phone', SAFARI_ON_IPHONE, { lastSeenAt: minutesAgo(5) });
const OFFICE = session('s-office', FIREFOX_ON_WINDOWS, { lastSeenAt: minutesAgo(3 * 60) });

const CHANGED = 'Your password has been changed. Other sessions were signed out.';

/** The account endpoints of the contract, remembering sign-outs so refetches show them. */
function accountServer(
  initial: AccountSession[],
  routes: Parameters<typeof mockApi>[0] = {},
): ReturnType<typeof mockApi> {
  let sessions = [...initial];
  const signOut = (id: string) => () => {
    if (!sessions.some((entry) => entry._id === id)) return { status: 404, body: { message: 'Not found' } };
    sessions = sessions.filter((entry) => entry._id !== id);
    return { status: 204 };
  };
  return mockApi({
    'GET /auth/sessions': () => ({ body: { sessions } }),
    ...Object.fromEntries(initial.map((entry) => [`DELETE /auth/sessions/${entry._id}`, signOut(entry._id)])),
    'POST /auth/change-password': () => {
      sessions = sessions.filter((entry) => entry.current);
      return { body: { message: CHANGED } };
    },
    ...routes,
  });
}

function renderAccount() {
  const store = signedInStore();
  return renderPage(<AccountPage />, { path: '/app/account', store });
}

const passwordForm = () => screen.getByRole('region', { name: 'Change password' });
const sessionsCard = () => screen.getByRole('region', { name: 'Where you’re signed in' });
const sessionList = () => within(sessionsCard()).findByRole('list', { name: 'Where you’re signed in' });
const rowOf = async (deviceName: string) =>
  (await within(await sessionList()).findByText(deviceName)).closest('li') as HTMLElement;
const field = (label: string) => within(passwordForm()).getByLabelText(label);

async function fillPasswords({
  current = 'Old#pass1',
  next = 'New#pass22',
  confirmation = next,
}: {
  current?: string;
  next?: string;
  confirmation?: string;
}) {
  for (const [label, value] of [
    ['Current password', current],
    ['New password', next],
    ['Confirm new password', confirmation],
  ] as const) {
    await user.clear(field(label));
    if (value) await user.type(field(label), value);
  }
}

const submitPasswords = () =>
  user.click(within(passwordForm()).getByRole('button', { name: 'Change password' }));

describe('AccountPage', () => {
  beforeEach(() => resetTestEnvironment());
  afterEach(() => {
    act(() => toast.remove());
    jest.restoreAllMocks();
  });

  it('shows the title and both sections', async () => {
    accountServer([THIS_LAPTOP]);
    renderAccount();

    expect(screen.getByRole('heading', { level: 1, name: 'Account security' })).toBeInTheDocument();
    expect(within(passwordForm()).getByRole('heading', { level: 2, name: 'Change password' })).toBeVisible();
    expect(
      within(sessionsCard()).getByRole('heading', { level: 2, name: 'Where you’re signed in' }),
    ).toBeVisible();
    await sessionList();
  });

  describe('Change password', () => {
    it('shows the password rules before anything is typed, and no error', () => {
      accountServer([THIS_LAPTOP]);
      renderAccount();

      expect(field('Current password')).toHaveAttribute('type', 'password');
      expect(field('Current password')).toHaveAttribute('autocomplete', 'current-password');
      expect(field('New password')).toHaveAttribute('autocomplete', 'new-password');
      expect(field('New password')).toHaveAccessibleDescription(
        '8 to 20 characters with a lowercase and an uppercase letter, a digit and one of !@#$%^&*',
      );
      for (const label of ['Current password', 'New password', 'Confirm new password'])
        expect(field(label)).not.toHaveAttribute('aria-invalid');
    });

    it.each([
      [{ current: '' }, 'Current password', 'Please enter your current password'],
      [{ next: 'Short#1' }, 'New password', 'Password must be at least 8 characters'],
      [{ next: 'nouppercase#1' }, 'New password', 'Password must contain at least one uppercase letter'],
      [{ next: 'NoDigits#here' }, 'New password', 'Password must contain at least one digit'],
      [
        { next: 'NoSymbol123' },
        'New password',
        'Password must contain at least one special character (!@#$%^&*)',
      ],
      [
        { next: 'New#pass22', confirmation: 'New#pass23' },
        'Confirm new password',
        'The passwords do not match',
      ],
    ])('refuses %p with "%s: %s" on its field and sends nothing', async (values, label, message) => {
      const server = accountServer([THIS_LAPTOP]);
      renderAccount();

      await fillPasswords(values);
      await submitPasswords();

      expect(field(label)).toHaveAttribute('aria-invalid', 'true');
      expect(field(label)).toHaveAccessibleDescription(expect.stringContaining(message));
      expect(field(label)).toHaveFocus();
      expect(server.requestsTo('POST', '/auth/change-password')).toHaveLength(0);
    });

    it('follows the rules as they are typed once a save was tried', async () => {
      accountServer([THIS_LAPTOP]);
      renderAccount();
      await fillPasswords({ next: 'weak' });
      await submitPasswords();
      expect(field('New password')).toHaveAccessibleDescription(
        expect.stringContaining('Password must be at least 8 characters'),
      );

      await user.type(field('New password'), 'Er#12345');

      expect(field('New password')).not.toHaveAttribute('aria-invalid');
      expect(field('Confirm new password')).toHaveAccessibleDescription(
        expect.stringContaining('The passwords do not match'),
      );
      await user.type(field('Confirm new password'), 'Er#12345');
      expect(field('Confirm new password')).not.toHaveAttribute('aria-invalid');
    });

    it('shows a wrong current password (403) on Current password and keeps what was typed', async () => {
      const server = accountServer([THIS_LAPTOP], {
        'POST /auth/change-password': {
          status: 403,
          body: {
            message: 'Current password is incorrect',
            errors: [{ field: 'currentPassword', message: 'Current password is incorrect' }],
          },
        },
      });
      renderAccount();

      await fillPasswords({ current: 'Wrong#pass1' });
      await submitPasswords();

      await waitFor(() => expect(field('Current password')).toHaveAttribute('aria-invalid', 'true'));
      expect(field('Current password')).toHaveAccessibleDescription('Current password is incorrect');
      expect(field('Current password')).toHaveFocus();
      expect(field('Current password')).toHaveValue('Wrong#pass1');
      expect(field('New password')).toHaveValue('New#pass22');
      expect(field('New password')).not.toHaveAttribute('aria-invalid');
      expect(server.requestsTo('POST', '/auth/change-password')[0].body).toEqual({
        currentPassword: 'Wrong#pass1',
        newPassword: 'New#pass22',
      });
      expect(server.requestsTo('POST', '/auth/change-password')[0].headers.get('Authorization')).toBe(
        'Bearer token-abc',
      );

      await user.type(field('Current password'), 'x');
      expect(field('Current password')).not.toHaveAttribute('aria-invalid');
    });

    it("shows the server's rule for the new password (400) on New password", async () => {
      accountServer([THIS_LAPTOP], {
        'POST /auth/change-password': {
          status: 400,
          body: {
            message: 'Validation failed',
            errors: [{ field: 'newPassword', message: 'Password must not be the current password' }],
          },
        },
      });
      renderAccount();

      await fillPasswords({});
      await submitPasswords();

      await waitFor(() =>
        expect(field('New password')).toHaveAccessibleDescription(
          expect.stringContaining('Password must not be the current password'),
        ),
      );
      expect(field('Current password')).not.toHaveAttribute('aria-invalid');
    });

    it.each<[string, MockReply | typeof NETWORK_FAILURE, string]>([
      [
        'a throttled attempt (429)',
        { status: 429, body: { message: 'Too many attempts. Try again in 60 seconds.' } },
        'Too many attempts. Try again in 60 seconds.',
      ],
      [
        'a server failure',
        { status: 500, body: { message: 'Internal server error' } },
        'Your password could not be changed. Please try again.',
      ],
      ['no connection', NETWORK_FAILURE, 'Network error. Please check your connection and try again.'],
    ])('says what went wrong in a toast on %s', async (_case, reply, message) => {
      accountServer([THIS_LAPTOP], { 'POST /auth/change-password': reply });
      renderAccount();

      await fillPasswords({});
      await submitPasswords();

      expect(await screen.findByText(message)).toBeInTheDocument();
      expect(field('New password')).toHaveValue('New#pass22');
    });

    it('disables the button while saving, then says so, clears the fields and reads the sessions again', async () => {
      const answer = deferred<MockReply>();
      const server = accountServer([THIS_LAPTOP, PHONE], {
        'POST /auth/change-password': () => answer.promise,
      });
      renderAccount();
      await rowOf('Safari on iOS');

      await fillPasswords({});
      await submitPasswords();

      const saving = within(passwordForm()).getByRole('button', { name: 'Changing password...' });
      expect(saving).toBeDisabled();
      await user.click(saving);
      expect(server.requestsTo('POST', '/auth/change-password')).toHaveLength(1);

      await act(async () => answer.resolve({ body: { message: CHANGED } }));

      expect(await screen.findByText(CHANGED)).toBeInTheDocument();
      for (const label of ['Current password', 'New password', 'Confirm new password'])
        expect(field(label)).toHaveValue('');
      expect(within(passwordForm()).getByRole('button', { name: 'Change password' })).toBeEnabled();
      await waitFor(() => expect(server.requestsTo('GET', '/auth/sessions')).toHaveLength(2));
    });
  });

  describe("Where you're signed in", () => {
    it('shows skeletons while loading, then each device, this one marked and without a Sign out', async () => {
      const answer = deferred<MockReply>();
      mockApi({ 'GET /auth/sessions': () => answer.promise });
      renderAccount();

      expect(screen.getByText('Loading your sessions')).toBeInTheDocument();
      await act(async () => answer.resolve({ body: { sessions: [THIS_LAPTOP, PHONE, OFFICE] } }));

      const list = await sessionList();
      expect(within(list).getAllByRole('listitem')).toHaveLength(3);
      expect(screen.queryByText('Loading your sessions')).not.toBeInTheDocument();

      const laptop = await rowOf('Chrome on Linux');
      expect(within(laptop).getByText('This device')).toBeInTheDocument();
      expect(within(laptop).queryByRole('button')).not.toBeInTheDocument();
      expect(within(laptop).getByText('just now')).toBeInTheDocument();

      const phone = await rowOf('Safari on iOS');
      expect(within(phone).queryByText('This device')).not.toBeInTheDocument();
      expect(within(phone).getByText('5 minutes ago')).toBeInTheDocument();
      expect(within(phone).getByRole('button', { name: 'Sign out' })).toHaveAccessibleDescription(
        expect.stringContaining('Safari on iOS'),
      );

      const office = await rowOf('Firefox on Windows');
      expect(within(office).getByText('3 hours ago')).toBeInTheDocument();
      expect(within(office).getByText(/^Signed in/)).toBeInTheDocument();
    });

    it('names a client that is no known browser by its own words, cut short', async () => {
      const tool = 'time-wallet-sync-tool/2.4.1 (a very long description of the tool)';
      accountServer([THIS_LAPTOP, session('s-tool', tool), session('s-blank', '')]);
      renderAccount();

      expect(await rowOf('time-wallet-sync-tool/2.4.1 (a very lon…')).toBeInTheDocument();
      expect(await rowOf('Unknown device')).toBeInTheDocument();
    });

    it('signs another device out with DELETE and reads the list again', async () => {
      const server = accountServer([THIS_LAPTOP, PHONE, OFFICE]);
      renderAccount();
      const phone = await rowOf('Safari on iOS');

      await user.click(within(phone).getByRole('button', { name: 'Sign out' }));

      expect(await screen.findByText('Safari on iOS has been signed out.')).toBeInTheDocument();
      await waitFor(() =>
        expect(within(sessionsCard()).queryByText('Safari on iOS')).not.toBeInTheDocument(),
      );
      expect(server.requestsTo('DELETE', '/auth/sessions/s-phone')).toHaveLength(1);
      expect(server.requestsTo('GET', '/auth/sessions')).toHaveLength(2);
      expect(within(await sessionList()).getAllByRole('listitem')).toHaveLength(2);
      expect(within(sessionsCard()).getByRole('heading', { level: 2 }).firstElementChild).toHaveFocus();
    });

    it('says when that device had already been signed out (404) and reads the list again', async () => {
      const server = accountServer([THIS_LAPTOP, PHONE], {
        'DELETE /auth/sessions/s-phone': { status: 404, body: { message: 'Not found' } },
      });
      renderAccount();

      await user.click(within(await rowOf('Safari on iOS')).getByRole('button', { name: 'Sign out' }));

      expect(await screen.findByText('That device was already signed out.')).toBeInTheDocument();
      await waitFor(() => expect(server.requestsTo('GET', '/auth/sessions')).toHaveLength(2));
    });

    it('keeps the row and says so when the sign-out fails', async () => {
      accountServer([THIS_LAPTOP, PHONE], {
        'DELETE /auth/sessions/s-phone': { status: 500, body: { message: 'Internal server error' } },
      });
      renderAccount();
      const phone = await rowOf('Safari on iOS');

      await user.click(within(phone).getByRole('button', { name: 'Sign out' }));

      expect(
        await screen.findByText('That device could not be signed out. Please try again.'),
      ).toBeInTheDocument();
      await waitFor(() => expect(within(phone).getByRole('button', { name: 'Sign out' })).toBeEnabled());
    });

    it('says when this is the only device signed in', async () => {
      accountServer([THIS_LAPTOP]);
      renderAccount();

      expect(await screen.findByText('You are signed in on this device only.')).toBeInTheDocument();
    });

    it('explains an empty list', async () => {
      accountServer([]);
      renderAccount();

      expect(await screen.findByText('No active sessions to show.')).toBeInTheDocument();
    });

    it('offers to try again when the list cannot be read', async () => {
      let failing = true;
      mockApi({
        'GET /auth/sessions': () =>
          failing
            ? { status: 500, body: { message: 'Internal server error' } }
            : { body: { sessions: [PHONE] } },
      });
      renderAccount();

      expect(await within(sessionsCard()).findByRole('alert')).toHaveTextContent(
        'Your sessions could not be loaded.',
      );
      failing = false;
      await user.click(within(sessionsCard()).getByRole('button', { name: 'Try again' }));

      expect(await rowOf('Safari on iOS')).toBeInTheDocument();
      expect(within(sessionsCard()).queryByRole('alert')).not.toBeInTheDocument();
    });
  });

  describe('Sign out everywhere', () => {
    const openConfirmation = async () => {
      await user.click(within(sessionsCard()).getByRole('button', { name: 'Sign out everywhere' }));
      return screen.findByRole('dialog', { name: 'Sign out everywhere?' });
    };

    it('asks first, and Cancel sends nothing', async () => {
      const server = accountServer([THIS_LAPTOP, PHONE]);
      renderAccount();
      await sessionList();

      const dialog = await openConfirmation();
      expect(dialog).toHaveTextContent('this one included');
      expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      expect(server.requestsTo('POST', '/auth/logout-all')).toHaveLength(0);
    });

    it('ends every session on the server, then signs this device out through the logout page', async () => {
      const answer = deferred<MockReply>();
      const server = accountServer([THIS_LAPTOP, PHONE], { 'POST /auth/logout-all': () => answer.promise });
      renderAccount();
      await sessionList();

      const dialog = await openConfirmation();
      await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
      expect(within(dialog).getByRole('button', { name: 'Signing out...' })).toBeDisabled();
      expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();

      await act(async () => answer.resolve({ status: 204 }));

      expect(await screen.findByRole('heading', { name: 'Arrived at /app/logout' })).toBeInTheDocument();
      const [logoutAll] = server.requestsTo('POST', '/auth/logout-all');
      expect(logoutAll.headers.get('Authorization')).toBe('Bearer token-abc');
      expect(logoutAll.body).toBeUndefined();
      // Its session is over: nothing may read the list again with it.
      expect(server.requestsTo('GET', '/auth/sessions')).toHaveLength(1);
    });

    it('keeps the dialog open and says so when the server refuses', async () => {
      accountServer([THIS_LAPTOP], {
        'POST /auth/logout-all': { status: 500, body: { message: 'Internal server error' } },
      });
      renderAccount();
      await sessionList();

      const dialog = await openConfirmation();
      await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));

      expect(await screen.findByText('Could not sign out everywhere. Please try again.')).toBeInTheDocument();
      expect(screen.getByRole('dialog', { name: 'Sign out everywhere?' })).toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: /Arrived at/ })).not.toBeInTheDocument();
    });
  });
});
