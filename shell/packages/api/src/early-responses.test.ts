import { API_TIMEOUT_MS } from './api-slice';
import { adoptEarlyResponse } from './early-responses';
import { sessionApi } from './session-api';
import { signedIn } from './session-slice';
import { createAppStore } from './store';
import { mockApi, resetTestEnvironment, TEST_API_BASE_URL } from './testing/mock-api';
import { TEST_USER } from './testing/fixtures';

function early(token: string, body: unknown, status = 200) {
  return {
    url: `${TEST_API_BASE_URL}/auth/validate`,
    authorization: `Bearer ${token}`,
    response: Promise.resolve(
      new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
    ),
  };
}

describe('a session check started before the store existed', () => {
  beforeEach(() => resetTestEnvironment());
  afterEach(() => {
    adoptEarlyResponse(null);
    jest.restoreAllMocks();
  });

  async function validate(token: string) {
    const store = createAppStore();
    store.dispatch(signedIn({ token, user: TEST_USER }));
    const check = store.dispatch(
      sessionApi.endpoints.validateSession.initiate(undefined, { forceRefetch: true }),
    );
    const result = await check;
    check.unsubscribe();
    return { store, result };
  }

  it('answers the first identical request, once, without asking the server again', async () => {
    const server = mockApi({
      'GET /auth/validate': { body: { valid: true, user: { ...TEST_USER, name: 'Server' } } },
    });
    adoptEarlyResponse(early('token-abc', { valid: true, user: { ...TEST_USER, name: 'Early' } }));

    const first = await validate('token-abc');
    expect(first.result.data?.user.name).toBe('Early');
    expect(server.requests).toHaveLength(0);

    const second = await validate('token-abc');
    expect(second.result.data?.user.name).toBe('Server');
    expect(server.requests).toHaveLength(1);
  });

  it('goes through the same 401 handling as any answer', async () => {
    mockApi({});
    adoptEarlyResponse(
      early('token-abc', { message: 'Authentication token not found. Please log in.' }, 401),
    );
    const { store } = await validate('token-abc');
    expect(store.getState().session).toMatchObject({ isAuthenticated: false, endedBy: 'expiry' });
  });

  it('times out like any request when the early answer never comes', async () => {
    jest.useFakeTimers();
    try {
      mockApi({});
      adoptEarlyResponse({ ...early('token-abc', {}), response: new Promise<Response>(() => undefined) });
      const store = createAppStore();
      store.dispatch(signedIn({ token: 'token-abc', user: TEST_USER }));
      const check = store.dispatch(
        sessionApi.endpoints.validateSession.initiate(undefined, { forceRefetch: true }),
      );
      await jest.advanceTimersByTimeAsync(API_TIMEOUT_MS + 1);
      const result = await check;
      check.unsubscribe();
      expect(result.error).toMatchObject({ status: 'TIMEOUT_ERROR' });
    } finally {
      jest.useRealTimers();
    }
  });

  it('is not used for a request with another token', async () => {
    const server = mockApi({ 'GET /auth/validate': { body: { valid: true, user: TEST_USER } } });
    adoptEarlyResponse(
      early('token-of-someone-else', { valid: true, user: { ...TEST_USER, name: 'Early' } }),
    );
    const { result } = await validate('token-abc');
    expect(result.data?.user.name).toBe(TEST_USER.name);
    expect(server.requests).toHaveLength(1);
  });
});
