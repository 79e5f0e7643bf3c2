import { sessionConfirmed, signedIn, signedOut } from './session-slice';
import { createAppStore } from './store';
import {
  forcedThemeReleased,
  lightThemeForced,
  selectAppliedTheme,
  selectThemePreference,
  themePreferenceChanged,
} from './theme-slice';
import { resetTestEnvironment } from './testing/mock-api';
import { TEST_USER } from './testing/fixtures';

const stored = (key: string) => window.localStorage.getItem(key);

describe('session persistence', () => {
  beforeEach(() => resetTestEnvironment());

  it('writes token, USER and session when a person signs in', () => {
    const store = createAppStore();
    store.dispatch(signedIn({ token: 'token-abc', user: TEST_USER }));

    expect(stored('token')).toBe('token-abc');
    expect(JSON.parse(stored('USER')!)).toEqual(TEST_USER);
    expect(JSON.parse(stored('session')!)).toEqual({
      token: 'token-abc',
      user: TEST_USER,
      isAuthenticated: true,
    });
  });

  it('starts loading with a stored token and stores the user the server confirmed', () => {
    window.localStorage.setItem('token', 'token-abc');
    const store = createAppStore();
    expect(store.getState().session.status).toBe('loading');

    store.dispatch(sessionConfirmed({ user: TEST_USER }));

    expect(JSON.parse(stored('session')!)).toEqual({
      token: 'token-abc',
      user: TEST_USER,
      isAuthenticated: true,
    });
  });

  it('removes personal data but keeps the theme when a person signs out', () => {
    const store = createAppStore();
    store.dispatch(signedIn({ token: 'token-abc', user: TEST_USER }));
    store.dispatch(themePreferenceChanged('dark'));
    window.localStorage.setItem('lastAnalyticsUpdate', '2026-11-20');

    store.dispatch(signedOut());

    expect(store.getState().session).toMatchObject({ status: 'unauthenticated', endedBy: 'signOut' });
    for (const key of ['token', 'USER', 'session', 'lastAnalyticsUpdate']) expect(stored(key)).toBeNull();
    expect(stored('theme')).toBe('dark');
  });
});

describe('theme', () => {
  beforeEach(() => resetTestEnvironment());

  it("defaults to 'system'", () => {
    expect(selectThemePreference(createAppStore().getState())).toBe('system');
  });

  it.each(['light', 'dark', 'system'] as const)("starts from a stored '%s'", (preference) => {
    window.localStorage.setItem('theme', preference);
    expect(selectThemePreference(createAppStore().getState())).toBe(preference);
  });

  it("ignores an unknown stored value and uses 'system'", () => {
    window.localStorage.setItem('theme', 'sepia');
    expect(selectThemePreference(createAppStore().getState())).toBe('system');
  });

  it("stores a changed preference under 'theme'", () => {
    const store = createAppStore();
    store.dispatch(themePreferenceChanged('dark'));

    expect(stored('theme')).toBe('dark');
    expect(selectAppliedTheme(store.getState())).toBe('dark');
  });

  it('forces light without touching the preference and restores it on release', () => {
    window.localStorage.setItem('theme', 'dark');
    const store = createAppStore();

    store.dispatch(lightThemeForced());
    expect(selectAppliedTheme(store.getState())).toBe('light');
    expect(selectThemePreference(store.getState())).toBe('dark');
    expect(stored('theme')).toBe('dark');

    store.dispatch(forcedThemeReleased());
    expect(selectAppliedTheme(store.getState())).toBe('dark');
  });
});
