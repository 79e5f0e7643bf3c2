import { api, type BodyOf, type ResponseOf } from '@time-wallet/api';
import { SESSION_LIST } from './sessions-api';

export type PasswordChange = BodyOf<'/api/auth/change-password', 'post'>;

export const passwordApi = api.injectEndpoints({
  endpoints: (build) => ({
    changePassword: build.mutation<ResponseOf<'/api/auth/change-password', 'post'>, PasswordChange>({
      query: (body) => ({ url: '/auth/change-password', method: 'POST', body }),
      // A new password signs every other session out, so the list of sessions changes with it.
      invalidatesTags: (_result, error) => (error ? [] : [SESSION_LIST]),
    }),
  }),
});

export const { useChangePasswordMutation } = passwordApi;
