import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';
import type { ApiErrorBody } from './contract';

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

export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

/**
 * The server's reason for a failed form submission, on the fields the form shows: the first `errors[]` message per
 * field it names, else (a `{message}` that names no field) the message alone. One mapping for every form of every
 * remote, so a rule the server enforces is shown where the person can act on it.
 */
export function fieldErrorsOf<Field extends string>(
  error: ApiError,
  fields: readonly Field[],
): { fieldErrors: FieldErrors<Field>; message: string | null } {
  const body = errorBodyOf(error);
  const fieldErrors: FieldErrors<Field> = {};
  for (const entry of Array.isArray(body?.errors) ? body.errors : []) {
    const field = fields.find((candidate) => candidate === entry?.field);
    if (field && typeof entry.message === 'string' && !fieldErrors[field]) fieldErrors[field] = entry.message;
  }
  const status = error && 'status' in error ? error.status : undefined;
  // A 5xx says 'Internal server error' and nothing a person can act on.
  const message = typeof status === 'number' && status >= 500 ? null : body?.message || body?.error || null;
  return { fieldErrors, message };
}
