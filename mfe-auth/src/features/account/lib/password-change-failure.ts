import { fieldErrorsOf, isNetworkError, type ApiError, type FieldErrors } from '@time-wallet/api';

export type PasswordChangeField = 'currentPassword' | 'newPassword';
export type PasswordChangeFieldErrors = FieldErrors<PasswordChangeField>;

export interface PasswordChangeFailure {
  /** Messages for the fields the server named in `errors[]`. */
  fieldErrors: PasswordChangeFieldErrors;
  /** The server's own message (or ours when it has none to show), for a toast. */
  general: string;
}

export const NETWORK_FAILURE_MESSAGE = 'Network error. Please check your connection and try again.';
export const UNKNOWN_FAILURE_MESSAGE = 'Your password could not be changed. Please try again.';

const FIELDS: readonly PasswordChangeField[] = ['currentPassword', 'newPassword'];

/** Turns a failed POST /auth/change-password into messages per field and one general message. */
export function passwordChangeFailureFrom(error: ApiError): PasswordChangeFailure {
  if (isNetworkError(error)) return { fieldErrors: {}, general: NETWORK_FAILURE_MESSAGE };
  const { fieldErrors, message } = fieldErrorsOf(error, FIELDS);
  return { fieldErrors, general: message || UNKNOWN_FAILURE_MESSAGE };
}
