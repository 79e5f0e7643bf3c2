import { api, type ResponseOf } from '@time-wallet/api';

/** One place the person is signed in, as GET /auth/sessions lists it; times are ISO strings. */
export type AccountSession = ResponseOf<'/api/auth/sessions', 'get'>['sessions'][number];

export const SESSION_LIST = { type: 'Session' as const, id: 'LIST' };

const isSession = (value: unknown): value is AccountSession =>
  typeof value === 'object' && value !== null && typeof (value as { _id?: unknown })._id === 'string';

export const sessionsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSessions: build.query<AccountSession[], void>({
      query: () => '/auth/sessions',
      transformResponse: (response: ResponseOf<'/api/auth/sessions', 'get'> | null) =>
        Array.isArray(response?.sessions) ? response.sessions.filter(isSession) : [],
      providesTags: [SESSION_LIST],
      // Another device may sign in or out at any time: the list is read fresh on every visit.
      keepUnusedDataFor: 0,
    }),
    // Refetched on a failure too: a 404 means that session had already ended.
    signOutSession: build.mutation<void, string>({
      query: (sessionId) => ({ url: `/auth/sessions/${encodeURIComponent(sessionId)}`, method: 'DELETE' }),
      invalidatesTags: [SESSION_LIST],
    }),
    // Nothing refetches after it: this session ends too, and any request now would answer 401.
    signOutEverywhere: build.mutation<void, void>({
      query: () => ({ url: '/auth/logout-all', method: 'POST' }),
    }),
  }),
});

export const { useGetSessionsQuery, useSignOutSessionMutation, useSignOutEverywhereMutation } = sessionsApi;
