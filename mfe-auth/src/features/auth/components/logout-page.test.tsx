import { act, screen } from '@testing-library/react';
import toast from 'react-hot-toast';
import { type AppStore } from '@time-wallet/api';
import {
  deferred,
  mockApi,
  type MockReply,
  NETWORK_FAILURE,
  renderPage,
  usePageTestEnvironment,
  signedInStore,
} from '@time-wallet/api/testing';
import { LogoutPage } from './logout-page';

const PERSONAL_KEYS = ['token', 'USER', 'session', 'lastAnalyticsUpdate', 'wallet-store'];

function signedInDevice() {
  const store = signedInStore();
  window.localStorage.setItem('lastAnalyticsUpdate', '2026-11-20');
  window.localStorage.setItem('wallet-store', '{"state":{"spentHours":2}}');
  window.localStorage.setItem('theme', 'dark');
  return store;
}

const flush = () => act(() => jest.advanceTimersByTimeAsync(0));
const session = (store: AppStore) => store.getState().session;

describe('LogoutPage', () => {
  usePageTestEnvironment({ fakeTimers: true });

  it("takes the signed-in session's toasts off the screen as soon as logging out starts", async () => {
    mockApi({ 'POST /auth/logout': () => deferred<MockReply>().promise });
    act(() => {
      toast.success('Login successful!');
    });
    renderPage(<LogoutPage />, { path: '/app/logout', store: signedInDevice() });
    await flush();
    expect(screen.getByRole('heading', { name: 'Logging you out...' })).toBeInTheDocument();
    expect(screen.queryByText('Login successful!')).not.toBeInTheDocument();
  });

  it('logs out on the server, clears this device and then ends the session', async () => {
    const answer = deferred<MockReply>();
    const server = mockApi({ 'POST /auth/logout': () => answer.promise });
    const store = signedInDevice();
    renderPage(<LogoutPage />, { path: '/app/logout', store });

    expect(screen.getByRole('heading', { name: 'Logging you out...' })).toBeInTheDocument();
    expect(screen.getByText('Please wait while we securely log you out')).toBeInTheDocument();
    await flush();
    expect(server.requestsTo('POST', '/auth/logout')).toHaveLength(1);
    expect(server.requests[0].headers.get('Authorization')).toBe('Bearer token-abc');

    await act(async () => answer.resolve({ status: 204 }));
    await flush();

    expect(screen.getByRole('heading', { name: 'Logged Out Successfully' })).toBeInTheDocument();
    expect(
      screen.getByText('You have been securely logged out. Redirecting to login page...'),
    ).toBeInTheDocument();
    for (const key of PERSONAL_KEYS) expect(window.localStorage.getItem(key)).toBeNull();
    expect(window.localStorage.getItem('theme')).toBe('dark');
    expect(session(store).endedBy).toBeNull();

    await act(() => jest.advanceTimersByTimeAsync(1500));

    expect(session(store)).toMatchObject({ status: 'unauthenticated', endedBy: 'signOut', user: null });
    expect(server.requests).toHaveLength(1);
  });

  it('still logs out on this device when the server cannot be reached', async () => {
    mockApi({ 'POST /auth/logout': NETWORK_FAILURE });
    const store = signedInDevice();
    renderPage(<LogoutPage />, { path: '/app/logout', store });

    await flush();
    expect(screen.getByRole('heading', { name: 'Logged Out Successfully' })).toBeInTheDocument();
    for (const key of PERSONAL_KEYS) expect(window.localStorage.getItem(key)).toBeNull();

    await act(() => jest.advanceTimersByTimeAsync(1500));
    expect(session(store).endedBy).toBe('signOut');
  });

  it('ends as a sign-out, not an expiry, when the server already revoked the token', async () => {
    mockApi({ 'POST /auth/logout': { status: 401, body: { message: 'Invalid or expired token' } } });
    const store = signedInDevice();
    renderPage(<LogoutPage />, { path: '/app/logout', store });

    await flush();

    expect(session(store).endedBy).not.toBe('expiry');
  });

  describe("this browser's reminders", () => {
    const unsubscribe = jest.fn(async () => true);
    beforeEach(() => {
      unsubscribe.mockClear();
      // A browser with Web Push whose service worker holds a subscription (the browser's own objects, faked).
      const registration = { pushManager: { getSubscription: async () => ({ unsubscribe }) } };
      Object.defineProperty(navigator, 'serviceWorker', {
        configurable: true,
        value: { getRegistration: async () => registration },
      });
      Object.defineProperty(window, 'PushManager', { configurable: true, value: function PushManager() {} });
      Object.defineProperty(window, 'Notification', { configurable: true, value: { permission: 'granted' } });
    });
    afterEach(() => {
      for (const name of ['PushManager', 'Notification'] as const)
        delete (window as unknown as Record<string, unknown>)[name];
      delete (navigator as unknown as Record<string, unknown>).serviceWorker;
    });

    it('stop before the session ends: removed on the server with the token, unsubscribed here', async () => {
      const server = mockApi({
        'DELETE /push/subscriptions/device-1': { status: 204 },
        'POST /auth/logout': { status: 204 },
      });
      window.localStorage.setItem('push-device-id', 'device-1');
      renderPage(<LogoutPage />, { path: '/app/logout', store: signedInDevice() });
      await flush();
      await flush();

      expect(server.requests.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
        'DELETE /api/push/subscriptions/device-1',
        'POST /api/auth/logout',
      ]);
      expect(server.requests[0].headers.get('Authorization')).toBe('Bearer token-abc');
      expect(unsubscribe).toHaveBeenCalledTimes(1);
      expect(window.localStorage.getItem('push-device-id')).toBeNull();
      expect(screen.getByRole('heading', { name: 'Logged Out Successfully' })).toBeInTheDocument();
    });

    it('never hold the sign-out: a removal that does not answer is given up after 3 s', async () => {
      const server = mockApi({
        'DELETE /push/subscriptions/device-1': () => deferred<MockReply>().promise,
        'POST /auth/logout': { status: 204 },
      });
      window.localStorage.setItem('push-device-id', 'device-1');
      renderPage(<LogoutPage />, { path: '/app/logout', store: signedInDevice() });
      await flush();
      expect(server.requestsTo('POST', '/auth/logout')).toHaveLength(0);

      await act(() => jest.advanceTimersByTimeAsync(3000));
      await flush();
      expect(server.requestsTo('POST', '/auth/logout')).toHaveLength(1);
      expect(screen.getByRole('heading', { name: 'Logged Out Successfully' })).toBeInTheDocument();
    });
  });
});
