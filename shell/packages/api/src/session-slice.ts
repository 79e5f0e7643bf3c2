import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { readStoredToken } from './local-storage';
import type { User } from './contract';

export type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated';

export interface SessionState {
  status: SessionStatus;
  token: string | null;
  user: User | null;
  isAuthenticated: boolean;
  /** True once the server confirmed the token in this page's life, false when running on the stored user. */
  confirmedByServer: boolean;
  /** How the last session ended: a person who signed out goes to /, an expired session to the login screen. */
  /** Why the last session ended: the person signed out, it expired, or it idled out (the landing page says so). */
  endedBy: 'signOut' | 'inactivity' | 'expiry' | null;
}

function initialSessionState(): SessionState {
  const token = readStoredToken();
  return {
    status: token ? 'loading' : 'unauthenticated',
    token,
    user: null,
    isAuthenticated: false,
    confirmedByServer: false,
    endedBy: null,
  };
}

const endedState = (endedBy: SessionState['endedBy']): SessionState => ({
  status: 'unauthenticated',
  token: null,
  user: null,
  isAuthenticated: false,
  confirmedByServer: false,
  endedBy,
});

export const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSessionState,
  reducers: {
    sessionConfirmed(state, action: PayloadAction<{ user: User }>) {
      state.status = 'authenticated';
      state.user = action.payload.user;
      state.isAuthenticated = true;
      state.confirmedByServer = true;
    },
    sessionRestoredFromDevice(state, action: PayloadAction<{ user: User }>) {
      state.status = 'authenticated';
      state.user = action.payload.user;
      state.isAuthenticated = true;
      state.confirmedByServer = false;
    },
    signedIn(_state, action: PayloadAction<{ token: string; user: User }>) {
      return {
        status: 'authenticated',
        token: action.payload.token,
        user: action.payload.user,
        isAuthenticated: true,
        confirmedByServer: true,
        endedBy: null,
      };
    },
    userUpdated(state, action: PayloadAction<User>) {
      state.user = action.payload;
    },
    signedOut: () => endedState('signOut'),
    signedOutForInactivity: () => endedState('inactivity'),
    sessionExpired: () => endedState('expiry'),
    /** Another tab signed out: this page's copy of the session ends too (storage is already clear). */
    sessionEndedElsewhere: () => endedState('expiry'),
  },
  selectors: {
    selectSession: (state) => state,
    selectSessionStatus: (state) => state.status,
    selectCurrentUser: (state) => state.user,
    selectIsSignedIn: (state) => state.isAuthenticated && state.user !== null,
  },
});

export const {
  sessionConfirmed,
  sessionRestoredFromDevice,
  signedIn,
  userUpdated,
  signedOut,
  signedOutForInactivity,
  sessionExpired,
  sessionEndedElsewhere,
} = sessionSlice.actions;
export const { selectSession, selectSessionStatus, selectCurrentUser, selectIsSignedIn } =
  sessionSlice.selectors;
