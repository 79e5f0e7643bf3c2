import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { browserTimeZone } from '@time-wallet/shared-ui/lib';
import { fetchWithEarlyResponse } from './early-responses';
import { getRuntimeConfig } from './runtime-config';
import { sessionExpired, type SessionState } from './session-slice';

export const API_TIMEOUT_MS = 10_000;

export const TAG_TYPES = [
  'Category',
  'Task',
  'Wallet',
  'Event',
  'Calendar',
  'TimeEntry',
  'Analytics',
  'User',
  'Session',
] as const;

// The session in this page's store says who is signed in; sending whatever token storage holds now could act for
// someone another tab signed in since.
const sessionTokenOf = (state: unknown) => (state as { session: SessionState }).session.token;

const rawBaseQuery = fetchBaseQuery({
  baseUrl: '',
  credentials: 'include',
  timeout: API_TIMEOUT_MS,
  fetchFn: fetchWithEarlyResponse,
  prepareHeaders(headers, { getState }) {
    const token = sessionTokenOf(getState());
    if (token) headers.set('Authorization', `Bearer ${token}`);
    headers.set('X-Time-Zone', browserTimeZone());
    return headers;
  },
});

/** Resolves every path against the API base URL from the runtime config and signs out on any 401. */
const baseQueryWithSession: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (
  args,
  api,
  extraOptions,
) => {
  const { apiBaseUrl } = getRuntimeConfig();
  const request = typeof args === 'string' ? { url: args } : args;
  const sentToken = sessionTokenOf(api.getState());
  const result = await rawBaseQuery({ ...request, url: `${apiBaseUrl}${request.url}` }, api, extraOptions);
  // Signing out with a token the server already revoked is still a sign-out, not an expiry.
  if (result.error?.status === 401 && sentToken && api.endpoint !== 'logout') api.dispatch(sessionExpired());
  return result;
};

/** The one api slice of the product. Remotes add their endpoints with `injectEndpoints`. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: baseQueryWithSession,
  tagTypes: TAG_TYPES,
  endpoints: () => ({}),
});
