import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { act, fireEvent, renderHook } from '@testing-library/react';
import { createAppStore, type AppStore } from '@time-wallet/api';
import {
  mockApi,
  NETWORK_FAILURE,
  resetTestEnvironment,
  TEST_USER,
  signedInStore,
} from '@time-wallet/api/testing';
import { ACTIVITY_REPORT_INTERVAL_MS, useInactivityLogout } from './use-inactivity-logout';

const TIMEOUT_MS = 1000;

function renderInactivityLogout() {
  const store = signedInStore();
  const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
  const { result } = renderHook(() => useInactivityLogout(), { wrapper });
  return Object.assign(store, { warning: () => result.current });
}

const advance = (ms: number) => act(() => jest.advanceTimersByTimeAsync(ms));
const session = (store: AppStore) => store.getState().session;

describe('useInactivityLogout', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    resetTestEnvironment({ inactivityTimeoutMs: TIMEOUT_MS });
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('signs out on the server and on this device after the configured time without activity', async () => {
    const server = mockApi({ 'POST /auth/logout': { status: 204 } });
    const store = renderInactivityLogout();

    await advance(TIMEOUT_MS - 1);
    expect(server.requests).toHaveLength(0);
    expect(session(store).status).toBe('authenticated');

    await advance(1);
    expect(server.requestsTo('POST', '/auth/logout')).toHaveLength(1);
    expect(server.requests[0].headers.get('Authorization')).toBe('Bearer token-abc');
    expect(session(store)).toMatchObject({ status: 'unauthenticated', endedBy: 'inactivity', user: null });
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('signs out on this device even when the server cannot be reached', async () => {
    mockApi({ 'POST /auth/logout': NETWORK_FAILURE });
    const store = renderInactivityLogout();

    await advance(TIMEOUT_MS);

    expect(session(store)).toMatchObject({ status: 'unauthenticated', endedBy: 'inactivity' });
  });

  it.each([
    ['a key press', () => fireEvent.keyDown(document.body, { key: 'a' })],
    ['a mouse move', () => fireEvent.mouseMove(document.body)],
    ['a scroll', () => fireEvent.scroll(window)],
    ['a touch', () => fireEvent.touchStart(document.body)],
    ['a click', () => fireEvent.mouseDown(document.body)],
    ['a wheel turn', () => fireEvent.wheel(document.body)],
  ])('starts the wait anew after %s', async (_case, beActive) => {
    const server = mockApi({ 'POST /auth/logout': { status: 204 } });
    const store = renderInactivityLogout();

    // Before the warning: once it shows, only 'Stay signed in' keeps the session.
    await advance(TIMEOUT_MS / 2 - 100);
    beActive();
    await advance(TIMEOUT_MS - 1);
    expect(server.requests).toHaveLength(0);
    expect(session(store).status).toBe('authenticated');

    await advance(1);
    expect(server.requestsTo('POST', '/auth/logout')).toHaveLength(1);
    expect(session(store).endedBy).toBe('inactivity');
  });

  it('warns a minute before (half the time-out when shorter), counting down, and only Stay signed in keeps the session', async () => {
    resetTestEnvironment({ inactivityTimeoutMs: 5 * 60_000 });
    const server = mockApi({
      'GET /auth/validate': { status: 200, body: { valid: true, user: TEST_USER } },
      'POST /auth/logout': { status: 204 },
    });
    const store = renderInactivityLogout();

    await advance(4 * 60_000 - 1);
    expect(store.warning().secondsLeft).toBeNull();
    await advance(1);
    expect(store.warning().secondsLeft).toBe(60);
    await advance(15_000);
    expect(store.warning().secondsLeft).toBe(45);

    fireEvent.mouseMove(document.body);
    await advance(0);
    expect(store.warning().secondsLeft).toBe(45);

    act(() => store.warning().staySignedIn());
    expect(store.warning().secondsLeft).toBeNull();
    await advance(0);
    expect(server.requestsTo('GET', '/auth/validate')).toHaveLength(1);
    await advance(4 * 60_000);
    expect(store.warning().secondsLeft).toBe(60);
    await advance(60_000);
    expect(server.requestsTo('POST', '/auth/logout')).toHaveLength(1);
    expect(session(store).endedBy).toBe('inactivity');
    expect(store.warning().secondsLeft).toBeNull();
  });

  it('waits 30 minutes when the runtime config sets no timeout', async () => {
    resetTestEnvironment();
    const server = mockApi({ 'POST /auth/logout': { status: 204 } });
    const store = renderInactivityLogout();

    await advance(1_799_999);
    expect(server.requests).toHaveLength(0);

    await advance(1);
    expect(server.requestsTo('POST', '/auth/logout')).toHaveLength(1);
    expect(session(store).endedBy).toBe('inactivity');
  });

  it('does nothing for a guest', async () => {
    const server = mockApi({ 'POST /auth/logout': { status: 204 } });
    const store = createAppStore();
    const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
    renderHook(() => useInactivityLogout(), { wrapper });

    await advance(TIMEOUT_MS * 5);

    expect(server.requests).toHaveLength(0);
    expect(session(store).endedBy).toBeNull();
  });

  it('tells the server about activity at most once a minute, so reading a page never idles the session out there', async () => {
    resetTestEnvironment({ inactivityTimeoutMs: 30 * 60_000 });
    const server = mockApi({
      'GET /auth/validate': { status: 200, body: { valid: true, user: TEST_USER } },
      'POST /auth/logout': { status: 204 },
    });
    renderInactivityLogout();

    // Ten minutes of reading: a mouse move every 10 s, and no request of the page's own.
    for (let second = 10; second <= 600; second += 10) {
      await advance(10_000);
      fireEvent.mouseMove(document.body);
    }
    await advance(0);
    const reports = server.requestsTo('GET', '/auth/validate');
    expect(reports).toHaveLength(600_000 / ACTIVITY_REPORT_INTERVAL_MS);
    expect(reports[0].headers.get('Authorization')).toBe('Bearer token-abc');

    // Without activity nothing more is sent until the browser's own sign-out.
    await advance(29 * 60_000);
    expect(server.requestsTo('GET', '/auth/validate')).toHaveLength(reports.length);
  });
});
