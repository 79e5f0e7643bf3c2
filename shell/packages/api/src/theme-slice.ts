import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { readItem, THEME_KEY } from './local-storage';

export type ThemePreference = 'light' | 'dark' | 'system';
export const THEME_PREFERENCES: readonly ThemePreference[] = ['light', 'dark', 'system'];

export interface ThemeState {
  preference: ThemePreference;
  /** A screen that must look one way (login, registration) forces it; the preference itself is untouched. */
  forced: 'light' | null;
}

function storedPreference(): ThemePreference {
  const stored = readItem(THEME_KEY);
  return THEME_PREFERENCES.find((preference) => preference === stored) ?? 'system';
}

export const themeSlice = createSlice({
  name: 'theme',
  initialState: (): ThemeState => ({ preference: storedPreference(), forced: null }),
  reducers: {
    themePreferenceChanged(state, action: PayloadAction<ThemePreference>) {
      state.preference = action.payload;
    },
    lightThemeForced(state) {
      state.forced = 'light';
    },
    forcedThemeReleased(state) {
      state.forced = null;
    },
  },
  selectors: {
    selectThemePreference: (state) => state.preference,
    selectAppliedTheme: (state): ThemePreference => state.forced ?? state.preference,
  },
});

export const { themePreferenceChanged, lightThemeForced, forcedThemeReleased } = themeSlice.actions;
export const { selectThemePreference, selectAppliedTheme } = themeSlice.selectors;
