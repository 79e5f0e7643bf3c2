import { categoriesApi } from './categories-api';
import { setRuntimeConfig } from './runtime-config';
import { sessionApi } from './session-api';
import { signedIn } from './session-slice';
import { createAppStore } from './store';
import {
  deferred,
  mockApi,
  resetTestEnvironment,
  TEST_API_BASE_URL,
  type MockReply,
} from './testing/mock-api';
import { TEST_USER } from './testing/fixtures';

function seedSignedInDevice() {
  const store = createAppStore();
  store.dispatch(signedIn({ token: 'token-abc', user: TEST_USER }));
  window.localStorage.setItem('lastAnalyticsUpdate', '2026-11-20');
  window.localStorage.setItem('wallet-store', JSON.stringify({ state: { spentHours: 3 } }));
  window.localStorage.setItem('theme', 'dark');
  return store;
}

describe('the api slice', () => {
  beforeEach(() => resetTestEnvironment());
  afterEach(() => jest.restoreAllMocks());

  it('resolves paths against the runtime API base URL and signs requests with the stored token', async () => {
    const server = mockApi({ 'GET /categories': { body: [] } });
    const store = seedSignedInDevice();

    await store.dispatch(categoriesApi.endpoints.getCategories.initiate());

    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request.url).toBe(`${TEST_API_BASE_URL}/categories`);
    expect(request.headers.get('Authorization')).toBe('Bearer token-abc');
    expect(request.credentials).toBe('include');
  });

  it('sends no Authorization header without a stored token', async () => {
    const server = mockApi({ 'GET /categories': { body: [] } });
    const store = createAppStore();

    await store.dispatch(categoriesApi.endpoints.getCategories.initiate());

    expect(server.requests[0].headers.has('Authorization')).toBe(false);
  });

  it("sends the browser's IANA time zone as X-Time-Zone", async () => {
    const RealDateTimeFormat = Intl.DateTimeFormat;
    jest.spyOn(Intl, 'DateTimeFormat').mockImplementation((...args) => {
      const format = new RealDateTimeFormat(...args);
      const resolvedOptions = format.resolvedOptions.bind(format);
      format.resolvedOptions = () => ({ ...resolvedOptions(), timeZone: 'Pacific/Auckland' });
      return format;
    });
    const server = mockApi({ 'GET /categories': { body: [] } });
    const store = createAppStore();

    await store.dispatch(categoriesApi.endpoints.getCategories.initiate());

    expect(server.requests[0].headers.get('X-Time-Zone')).toBe('Pacific/Auckland');
  });

  it('follows a runtime config set after start-up', async () => {
    const server = mockApi();
    setRuntimeConfig({ apiBaseUrl: 'https://elsewhere.test/api', remotes: {} });
    const store = createAppStore();

    await store.dispatch(sessionApi.endpoints.logout.initiate());

    expect(server.requests[0].url).toBe('https://elsewhere.test/api/auth/logout');
    expect(server.requests[0].method).toBe('POST');
  });

  it('gives up on a silent server after 10 seconds with a timeout error', async () => {
    jest.useFakeTimers();
    try {
      const silence = deferred<MockReply>();
      mockApi({ 'GET /categories': () => silence.promise });
      const store = createAppStore();

      const request = store.dispatch(categoriesApi.endpoints.getCategories.initiate());
      let settled = false;
      void request.then(() => {
        settled = true;
      });
      await jest.advanceTimersByTimeAsync(9_999);
      expect(settled).toBe(false);

      await jest.advanceTimersByTimeAsync(1);
      const result = await request;
      expect(result.error).toMatchObject({ status: 'TIMEOUT_ERROR' });
    } finally {
      jest.useRealTimers();
    }
  });

  it('ends the session as expired and clears personal data on a 401 to a signed request', async () => {
    mockApi({ 'GET /categories': { status: 401, body: { message: 'Session expired' } } });
    const store = seedSignedInDevice();

    await store.dispatch(categoriesApi.endpoints.getCategories.initiate());

    expect(store.getState().session).toMatchObject({
      status: 'unauthenticated',
      isAuthenticated: false,
      user: null,
      token: null,
      endedBy: 'expiry',
    });
    for (const key of ['token', 'USER', 'lastAnalyticsUpdate', 'session', 'wallet-store']) {
      expect(window.localStorage.getItem(key)).toBeNull();
    }
    expect(window.localStorage.getItem('theme')).toBe('dark');
  });

  it('leaves the session alone on a 401 to a request that carried no token (a failed login)', async () => {
    mockApi({ 'POST /auth/logout': { status: 401, body: { message: 'Invalid username or password' } } });
    window.localStorage.setItem('lastAnalyticsUpdate', '2026-11-20');
    const store = createAppStore();
    const before = store.getState().session;

    await store.dispatch(sessionApi.endpoints.logout.initiate());

    expect(store.getState().session).toEqual(before);
    expect(store.getState().session.endedBy).toBeNull();
    expect(window.localStorage.getItem('lastAnalyticsUpdate')).toBe('2026-11-20');
  });

  it('keeps the session on other failures of a signed request', async () => {
    mockApi({ 'GET /categories': { status: 500, body: { message: 'Internal server error' } } });
    const store = seedSignedInDevice();

    await store.dispatch(categoriesApi.endpoints.getCategories.initiate());

    expect(store.getState().session.status).toBe('authenticated');
    expect(window.localStorage.getItem('token')).toBe('token-abc');
  });
});
