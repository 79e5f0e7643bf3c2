import { api, type User } from '@time-wallet/api';

export interface LoginRequest {
  username?: string;
  email?: string;
  password: string;
}

export interface RegistrationRequest {
  username: string;
  email: string;
  password: string;
  name: string;
  profilePicture: string;
}

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<{ token: string; user: User; message?: string }, LoginRequest>({
      query: (body) => ({ url: '/auth/login', method: 'POST', body }),
    }),
    register: build.mutation<{ message?: string; user?: User }, RegistrationRequest>({
      query: (body) => ({ url: '/auth/register/user', method: 'POST', body }),
    }),
    requestPasswordReset: build.mutation<{ message?: string }, { email: string }>({
      query: (body) => ({ url: '/auth/forgot-password', method: 'POST', body }),
    }),
    resetPassword: build.mutation<{ message?: string }, { token: string; password: string }>({
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
