import {
  isNetworkError,
  readStoredToken,
  readStoredUser,
  sessionApi,
  sessionConfirmed,
  sessionExpired,
  sessionRestoredFromDevice,
  type AppDispatch,
} from '@time-wallet/api';

/**
 * The start-up check: the server confirms the stored token. A 401 signs out; a server that cannot be reached
 * keeps the person signed in on the stored user (if it is usable) so a flaky network signs nobody out.
 */
export async function restoreSession(dispatch: AppDispatch): Promise<void> {
  if (!readStoredToken()) {
    dispatch(sessionExpired());
    return;
  }
  const check = dispatch(sessionApi.endpoints.validateSession.initiate(undefined, { forceRefetch: true }));
  try {
    const result = await check;
    if (result.data?.valid && result.data.user) {
      dispatch(sessionConfirmed({ user: result.data.user }));
      return;
    }
    const storedUser = readStoredUser();
    const unauthorized = result.error && 'status' in result.error && result.error.status === 401;
    if (!unauthorized && storedUser && (isNetworkError(result.error) || result.error)) {
      dispatch(sessionRestoredFromDevice({ user: storedUser }));
      return;
    }
    dispatch(sessionExpired());
  } catch {
    dispatch(sessionExpired());
  } finally {
    check.unsubscribe();
  }
}
