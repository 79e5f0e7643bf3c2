import {
  errorBodyOf,
  fieldErrorsOf,
  isNetworkError,
  type ApiError,
  type FieldErrors,
} from '@time-wallet/api';

export type RegistrationField = 'username' | 'email' | 'password' | 'name';
export type RegistrationFieldErrors = FieldErrors<RegistrationField>;

export interface RegistrationFailure {
  fieldErrors: RegistrationFieldErrors;
  general: string;
}

const FIELDS: readonly RegistrationField[] = ['username', 'email', 'password', 'name'];
const mentions = (text: string, ...words: string[]) => words.some((word) => text.includes(word));

/** The server's message matched by keyword, as SPEC section 8 tabulates it. 'username' is tested before 'name'. */
function fromServerMessage(message: string): RegistrationFailure | null {
  const text = message.toLowerCase();
  if (text.includes('username')) {
    if (mentions(text, 'already', 'exists'))
      return failure(
        'username',
        'This username is already taken. Please choose a different one.',
        'Username is already taken',
      );
    if (mentions(text, 'invalid', 'format'))
      return failure(
        'username',
        'Username must be 3-50 characters and contain only letters, numbers, and underscores.',
        'Invalid username format',
      );
    return failure('username', `Username error: ${message}`, 'Username issue');
  }
  if (text.includes('email')) {
    if (mentions(text, 'already', 'exists'))
      return failure(
        'email',
        'This email is already registered. Try logging in instead.',
        'Email is already registered',
      );
    if (text.includes('invalid'))
      return failure('email', 'Please enter a valid email address.', 'Invalid email format');
    return failure('email', `Email error: ${message}`, 'Email issue');
  }
  if (text.includes('password')) {
    if (mentions(text, 'weak', 'strength'))
      return failure(
        'password',
        'Password must contain at least 8 characters with uppercase, lowercase, number, and special character.',
        'Password too weak',
      );
    if (mentions(text, 'invalid', 'format'))
      return failure(
        'password',
        'Password must be 8-100 characters with uppercase, lowercase, number, and special character.',
        'Invalid password format',
      );
    return failure('password', `Password error: ${message}`, 'Password issue');
  }
  if (text.includes('name'))
    return failure('name', 'Name must be at least 5 characters.', 'Invalid name format');
  return null;
}

function failure(field: RegistrationField, fieldMessage: string, general: string): RegistrationFailure {
  return { fieldErrors: { [field]: fieldMessage }, general };
}

/** Turns a failed registration call into per-field messages and the general text shown above the form. */
export function registrationFailureFrom(error: ApiError): RegistrationFailure {
  if (isNetworkError(error)) {
    return { fieldErrors: {}, general: 'Network error. Please check your connection and try again.' };
  }
  const body = errorBodyOf(error);
  if (Array.isArray(body?.errors) && body.errors.length > 0) {
    return {
      fieldErrors: fieldErrorsOf(error, FIELDS).fieldErrors,
      general: 'Please fix the validation errors below',
    };
  }
  const serverText = body?.message || body?.error || '';
  return (
    (serverText && fromServerMessage(serverText)) || {
      fieldErrors: {},
      general: serverText || 'Registration failed. Please check your information and try again.',
    }
  );
}
