import { categoriesApi } from './categories-api';
import { signedIn } from './session-slice';
import { createAppStore, followOtherTabs } from './store';
import { mockApi, resetTestEnvironment } from './testing/mock-api';
import { TEST_USER } from './testing/fixtures';

function tokenChangedInAnotherTab(newToken: string | null) {
  if (newToken === null) window.localStorage.removeItem('token');
  else window.localStorage.setItem('token', newToken);
  window.dispatchEvent(new StorageEvent('storage', { key: 'token', newValue: newToken }));
}

describe('sessions across tabs', () => {
  let stopFollowing: (() => void) | undefined;
  const pageStore = () => {
    const store = createAppStore();
    stopFollowing = followOtherTabs(store);
    return store;
  };

  beforeEach(() => resetTestEnvironment());
  afterEach(() => {
    stopFollowing?.();
    jest.restoreAllMocks();
  });

  it("signs requests with this page's session, not with a token another tab stored since", async () => {
    const server = mockApi({ 'GET /categories': { body: [] } });
    const store = pageStore();
    store.dispatch(signedIn({ token: 'token-of-ada', user: TEST_USER }));
    window.localStorage.setItem('token', 'token-of-someone-else');

    await store.dispatch(categoriesApi.endpoints.getCategories.initiate());

    expect(server.requests[0].headers.get('Authorization')).toBe('Bearer token-of-ada');
  });

  it('ends this session when another tab signs out, and drops the cached data', async () => {
    mockApi({ 'GET /categories': { body: [{ _id: 'c1', name: 'Work', color: '#2D967C' }] } });
    const store = pageStore();
    store.dispatch(signedIn({ token: 'token-of-ada', user: TEST_USER }));
    await store.dispatch(categoriesApi.endpoints.getCategories.initiate());
    expect(categoriesApi.endpoints.getCategories.select()(store.getState()).data).toHaveLength(1);

    tokenChangedInAnotherTab(null);

    expect(store.getState().session).toMatchObject({ status: 'unauthenticated', user: null, token: null });
    expect(categoriesApi.endpoints.getCategories.select()(store.getState()).data).toBeUndefined();
  });

  it('ignores storage changes that leave the token as this page knows it', () => {
    const store = pageStore();
    store.dispatch(signedIn({ token: 'token-of-ada', user: TEST_USER }));

    window.localStorage.setItem('theme', 'dark');
    window.dispatchEvent(new StorageEvent('storage', { key: 'theme', newValue: 'dark' }));
    tokenChangedInAnotherTab('token-of-ada');

    expect(store.getState().session.status).toBe('authenticated');
  });
});
