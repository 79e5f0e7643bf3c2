import { combineReducers, configureStore, createListenerMiddleware, isAnyOf } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { useDispatch, useSelector } from 'react-redux';
import { api } from './api-slice';
import { sessionApi } from './session-api';
import toast from 'react-hot-toast';
import {
  clearPersonalData,
  readStoredToken,
  SESSION_KEY,
  THEME_KEY,
  TOKEN_KEY,
  USER_KEY,
  writeItem,
} from './local-storage';
import {
  sessionConfirmed,
  sessionEndedElsewhere,
  sessionExpired,
  sessionRestoredFromDevice,
  sessionSlice,
  signedIn,
  signedOut,
  signedOutForInactivity,
  userUpdated,
} from './session-slice';
import { themePreferenceChanged, themeSlice } from './theme-slice';

const rootReducer = combineReducers({
  [sessionSlice.reducerPath]: sessionSlice.reducer,
  [themeSlice.reducerPath]: themeSlice.reducer,
  [api.reducerPath]: api.reducer,
});

export type RootState = ReturnType<typeof rootReducer>;

function persistenceMiddleware() {
  const listener = createListenerMiddleware<RootState>();
  listener.startListening({
    matcher: isAnyOf(signedIn, sessionConfirmed, sessionRestoredFromDevice, userUpdated),
    effect: (_action, { getState }) => {
      const { token, user, isAuthenticated } = getState().session;
      if (token) writeItem(TOKEN_KEY, token);
      if (user) writeItem(USER_KEY, JSON.stringify(user));
      writeItem(SESSION_KEY, JSON.stringify({ token, user, isAuthenticated }));
    },
  });
  listener.startListening({
    matcher: isAnyOf(signedOut, signedOutForInactivity, sessionExpired),
    effect: (_action, { dispatch }) => {
      clearPersonalData();
      // Nor the previous session's messages ('Login successful!', a deleted task's name).
      toast.remove();
      // The next person on this device must never see the previous one's cached data.
      dispatch(api.util.resetApiState());
    },
  });
  // Signing out starts with the server call: the old session's toasts ('Login successful!') go at once, not after.
  listener.startListening({
    matcher: sessionApi.endpoints.logout.matchPending,
    effect: () => {
      toast.remove();
    },
  });
  listener.startListening({
    actionCreator: sessionEndedElsewhere,
    effect: (_action, { dispatch }) => {
      toast.remove();
      dispatch(api.util.resetApiState());
    },
  });
  listener.startListening({
    actionCreator: themePreferenceChanged,
    effect: (action) => writeItem(THEME_KEY, action.payload),
  });
  return listener.middleware;
}

/** The product's one store. The shell creates it; a remote's standalone dev host calls the same factory. */
export function createAppStore() {
  const store = configureStore({
    reducer: rootReducer,
    middleware: (getDefault) => getDefault().prepend(persistenceMiddleware()).concat(api.middleware),
  });
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof createAppStore>;
export type AppDispatch = AppStore['dispatch'];

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();

/**
 * Keeps this page's session in step with the others on the device. A token removed elsewhere (sign-out in another
 * tab) ends this session too, with the spec's alert; a different token (someone signed in elsewhere) restarts the
 * page, so it never shows one person's data under another's name. The page's host starts it once.
 */
export function followOtherTabs(store: AppStore): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key !== TOKEN_KEY && event.key !== null) return;
    const storedToken = readStoredToken();
    const { token, isAuthenticated } = store.getState().session;
    if (storedToken === token) return;
    if (storedToken) {
      window.location.reload();
      return;
    }
    if (isAuthenticated)
      toast.error('Authentication token not found. Please log in.', { id: 'token-missing' });
    store.dispatch(sessionEndedElsewhere());
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}
