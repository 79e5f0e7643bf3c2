import { createAppStore } from '@time-wallet/api';
import { mockApi, NETWORK_FAILURE, resetTestEnvironment, TEST_USER } from '@time-wallet/api/testing';
import { restoreSession } from './restore-session';

const stored = (key: string) => window.localStorage.getItem(key);

function deviceWithToken(user: unknown = TEST_USER) {
  window.localStorage.setItem('token', 'token-abc');
  window.localStorage.setItem('USER', typeof user === 'string' ? user : JSON.stringify(user));
  window.localStorage.setItem('lastAnalyticsUpdate', '2026-11-20');
  return createAppStore();
}

describe('restoreSession', () => {
  beforeEach(() => resetTestEnvironment());
  afterEach(() => jest.restoreAllMocks());

  it('is unauthenticated without a stored token and asks the server nothing', async () => {
    const server = mockApi();
    const store = createAppStore();

    await restoreSession(store.dispatch);

    expect(store.getState().session).toMatchObject({ status: 'unauthenticated', isAuthenticated: false });
    expect(server.requests).toHaveLength(0);
  });

  it('signs in the user the server confirms', async () => {
    const confirmedUser = { ...TEST_USER, name: 'Ada King' };
    const server = mockApi({ 'GET /auth/validate': { body: { valid: true, user: confirmedUser } } });
    const store = deviceWithToken();
    expect(store.getState().session.status).toBe('loading');

    await restoreSession(store.dispatch);

    expect(server.requestsTo('GET', '/auth/validate')).toHaveLength(1);
    expect(server.requests[0].headers.get('Authorization')).toBe('Bearer token-abc');
    expect(store.getState().session).toMatchObject({
      status: 'authenticated',
      isAuthenticated: true,
      user: confirmedUser,
      confirmedByServer: true,
    });
    expect(JSON.parse(stored('USER')!)).toEqual(confirmedUser);
  });

  it('signs out and clears the device on a 401', async () => {
    mockApi({ 'GET /auth/validate': { status: 401, body: { message: 'Invalid or expired token' } } });
    const store = deviceWithToken();

    await restoreSession(store.dispatch);

    expect(store.getState().session).toMatchObject({
      status: 'unauthenticated',
      isAuthenticated: false,
      user: null,
    });
    expect(stored('token')).toBeNull();
    expect(stored('USER')).toBeNull();
    expect(stored('lastAnalyticsUpdate')).toBeNull();
  });

  it('keeps a person signed in on the stored user when the server cannot be reached', async () => {
    mockApi({ 'GET /auth/validate': NETWORK_FAILURE });
    const store = deviceWithToken();

    await restoreSession(store.dispatch);

    expect(store.getState().session).toMatchObject({
      status: 'authenticated',
      isAuthenticated: true,
      user: TEST_USER,
      confirmedByServer: false,
    });
    expect(stored('token')).toBe('token-abc');
  });

  it.each([
    ['lacks an email', { id: 'user-1', username: 'adalovelace' }],
    ['is corrupt', '{"id":'],
  ])(
    'signs out and clears the device when the server cannot be reached and the stored user %s',
    async (_case, user) => {
      mockApi({ 'GET /auth/validate': NETWORK_FAILURE });
      const store = deviceWithToken(user);

      await restoreSession(store.dispatch);

      expect(store.getState().session).toMatchObject({ status: 'unauthenticated', isAuthenticated: false });
      expect(stored('token')).toBeNull();
      expect(stored('USER')).toBeNull();
      expect(stored('lastAnalyticsUpdate')).toBeNull();
    },
  );
});
