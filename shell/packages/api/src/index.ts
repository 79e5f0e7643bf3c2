export { api, API_TIMEOUT_MS, TAG_TYPES } from './api-slice';
export {
  errorBodyOf,
  fieldErrorsOf,
  isNetworkError,
  serverMessageOf,
  type ApiError,
  type FieldErrors,
} from './api-errors';
export { useFieldErrors } from './use-field-errors';
// RTK's own packages are not shared: a remote takes the few values and types it needs from here, and the shell's
// bundle keeps only the parts of RTK that are used.
export { skipToken } from '@reduxjs/toolkit/query/react';
export type { SerializedError } from '@reduxjs/toolkit';
export type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
export { categoriesApi, useGetCategoriesQuery } from './categories-api';
export {
  ledgerApi,
  TASK_CHANGES,
  useGetLedgerQuery,
  useGetTasksInRangeQuery,
  usePlaceTaskMutation,
  useSetTrackedMinutesMutation,
  useStartTimerMutation,
  useStopTimerMutation,
  type DayRange,
  type TaskPlacement,
} from './ledger-api';
export { adoptEarlyResponse, type EarlyResponse } from './early-responses';
export {
  ANALYTICS_MARKER_KEY,
  clearPersonalData,
  isUsableUser,
  readItem,
  readStoredToken,
  readStoredUser,
  removeItem,
  SESSION_KEY,
  THEME_KEY,
  TOKEN_KEY,
  USER_KEY,
  WALLET_STORE_KEY,
  writeItem,
} from './local-storage';
export {
  getRuntimeConfig,
  INACTIVITY_TIMEOUT_MS,
  parseRuntimeConfig,
  setRuntimeConfig,
  type RuntimeConfig,
} from './runtime-config';
export { sessionApi, useLogoutMutation } from './session-api';
export {
  selectCurrentUser,
  selectIsSignedIn,
  selectSession,
  selectSessionStatus,
  sessionConfirmed,
  sessionEndedElsewhere,
  sessionExpired,
  sessionRestoredFromDevice,
  signedIn,
  signedOut,
  signedOutForInactivity,
  userUpdated,
  type SessionState,
  type SessionStatus,
} from './session-slice';
export {
  createAppStore,
  followOtherTabs,
  useAppDispatch,
  useAppSelector,
  type AppDispatch,
  type AppStore,
  type RootState,
} from './store';
export {
  forcedThemeReleased,
  lightThemeForced,
  selectAppliedTheme,
  selectThemePreference,
  THEME_PREFERENCES,
  themePreferenceChanged,
  type ThemePreference,
} from './theme-slice';
export type {
  ApiErrorBody,
  ApiPath,
  BodyOf,
  Calendar,
  CalendarEvent,
  Category,
  DailyAnalytics,
  LedgerDay,
  QueryOf,
  ResponseOf,
  Task,
  TimeEntry,
  User,
  WeeklyAnalytics,
} from './contract';
export {
  DEFAULT_BUDGET_HOURS,
  DEFAULT_CATEGORY_COLOR,
  SESSION_IDLE_MINUTES,
  TITLE_MAX_LENGTH,
} from './generated/product-defaults';
export { signInDestination } from './navigation';
export { toastUndoableDelete, UNDO_WINDOW_MS, type UndoableDelete } from './undo-toast';
export { ThemeToggle } from './theme-toggle';
