import { api, type BodyOf, type ResponseOf } from '@time-wallet/api';

export type LoginRequest = BodyOf<'/api/auth/login', 'post'>;
export type RegistrationRequest = BodyOf<'/api/auth/register/user', 'post'>;

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<ResponseOf<'/api/auth/login', 'post'>, LoginRequest>({
      query: (body) => ({ url: '/auth/login', method: 'POST', body }),
    }),
    register: build.mutation<ResponseOf<'/api/auth/register/user', 'post'>, RegistrationRequest>({
      query: (body) => ({ url: '/auth/register/user', method: 'POST', body }),
    }),
    requestPasswordReset: build.mutation<
      ResponseOf<'/api/auth/forgot-password', 'post'>,
      BodyOf<'/api/auth/forgot-password', 'post'>
    >({
      query: (body) => ({ url: '/auth/forgot-password', method: 'POST', body }),
    }),
    resetPassword: build.mutation<
      ResponseOf<'/api/auth/reset-password', 'post'>,
      BodyOf<'/api/auth/reset-password', 'post'>
    >({
      query: (body) => ({ url: '/auth/reset-password', method: 'POST', body }),
    }),
  }),
});

export const {
  useLoginMutation,
  useRegisterMutation,
  useRequestPasswordResetMutation,
  useResetPasswordMutation,
} = authApi;
