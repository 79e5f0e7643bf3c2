import { errorBodyOf, isNetworkError, type ApiError } from '@time-wallet/api';

export type PasswordChangeField = 'currentPassword' | 'newPassword';
export type PasswordChangeFieldErrors = Partial<Record<PasswordChangeField, string>>;

export interface PasswordChangeFailure {
  /** Messages for the fields the server named in `errors[]`. */
  fieldErrors: PasswordChangeFieldErrors;
  /** The server's own message (or ours when it has none to show), for a toast. */
  general: string;
}

export const NETWORK_FAILURE_MESSAGE = 'Network error. Please check your connection and try again.';
export const UNKNOWN_FAILURE_MESSAGE = 'Your password could not be changed. Please try again.';

const FIELDS: readonly string[] = ['currentPassword', 'newPassword'] satisfies PasswordChangeField[];
const isField = (value: unknown): value is PasswordChangeField =>
  typeof value === 'string' && FIELDS.includes(value);

/** Turns a failed POST /auth/change-password into messages per field and one general message. */
export function passwordChangeFailureFrom(error: ApiError): PasswordChangeFailure {
  if (isNetworkError(error)) return { fieldErrors: {}, general: NETWORK_FAILURE_MESSAGE };
  const body = errorBodyOf(error);
  const fieldErrors: PasswordChangeFieldErrors = {};
  for (const entry of Array.isArray(body?.errors) ? body.errors : []) {
    if (isField(entry?.field) && typeof entry.message === 'string' && !fieldErrors[entry.field])
      fieldErrors[entry.field] = entry.message;
  }
  const status = error && 'status' in error ? error.status : undefined;
  // A 5xx says 'Internal server error' and nothing a person can act on.
  const serverMessage = typeof status === 'number' && status >= 500 ? '' : body?.message || body?.error;
  return { fieldErrors, general: serverMessage || UNKNOWN_FAILURE_MESSAGE };
}
