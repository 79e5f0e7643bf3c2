import { combineReducers, configureStore, createListenerMiddleware, isAnyOf } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { useDispatch, useSelector } from 'react-redux';
import { api } from './api-slice';
import { clearPersonalData, SESSION_KEY, THEME_KEY, TOKEN_KEY, USER_KEY, writeItem } from './local-storage';
import {
  sessionConfirmed,
  sessionExpired,
  sessionRestoredFromDevice,
  sessionSlice,
  signedIn,
  signedOut,
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
    matcher: isAnyOf(signedOut, sessionExpired),
    effect: (_action, { dispatch }) => {
      clearPersonalData();
      // The next person on this device must never see the previous one's cached data.
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
