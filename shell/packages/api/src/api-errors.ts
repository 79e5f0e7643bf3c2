import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';
import type { ApiErrorBody } from './types';

export type ApiError = FetchBaseQueryError | SerializedError | undefined;

export function isNetworkError(error: ApiError): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'status' in error &&
    (error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR')
  );
}

export function errorBodyOf(error: ApiError): ApiErrorBody | null {
  if (!error || !('status' in error) || typeof error.data !== 'object' || error.data === null) return null;
  return error.data as ApiErrorBody;
}

/** The server's `message` (or `error`) for a failed call, else the given fallback. */
export function serverMessageOf(error: ApiError, fallback: string): string {
  const body = errorBodyOf(error);
  return body?.message || body?.error || fallback;
}
