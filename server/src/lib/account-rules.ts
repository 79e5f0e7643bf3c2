import type { FieldError } from './http-errors.js';

// The server accepts the union of the client's rules (SPEC section 5) and the server's documented ones, so anything
// the registration form lets through is accepted here.
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 50;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 100;
export const NAME_MIN = 5;
export const NAME_MAX = 100;
export const EMAIL_MIN = 5;
export const EMAIL_MAX = 254;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function usernameError(username: string): string | null {
  if (username.length < USERNAME_MIN) return `Username must be at least ${USERNAME_MIN} characters`;
  if (username.length > USERNAME_MAX) return `Username must not exceed ${USERNAME_MAX} characters`;
  if (!/^[A-Za-z0-9_]+$/.test(username))
    return 'Username has an invalid format: use only letters, digits and underscores';
  return null;
}

export function emailError(email: string): string | null {
  if (email.length < EMAIL_MIN) return `Email must be at least ${EMAIL_MIN} characters`;
  if (email.length > EMAIL_MAX || !EMAIL_PATTERN.test(email)) return 'Invalid email format';
  return null;
}

export function passwordError(password: string): string | null {
  if (password.length < PASSWORD_MIN) return `Password must be at least ${PASSWORD_MIN} characters`;
  if (password.length > PASSWORD_MAX) return `Password must not exceed ${PASSWORD_MAX} characters`;
  if (!/[a-z]/.test(password)) return 'Password must contain at least one lowercase letter';
  if (!/[A-Z]/.test(password)) return 'Password must contain at least one uppercase letter';
  if (!/\d/.test(password)) return 'Password must contain at least one digit';
  if (!/[^A-Za-z0-9]/.test(password))
    return 'Password must contain at least one special character (!@#$%^&*)';
  if ([...password].some((character) => character.charCodeAt(0) < 32 || character.charCodeAt(0) === 127)) {
    return 'Password has an invalid format: control characters are not allowed';
  }
  return null;
}

export function nameError(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed.length < NAME_MIN) return `Name must be at least ${NAME_MIN} characters`;
  if (trimmed.length > NAME_MAX) return `Name must not exceed ${NAME_MAX} characters`;
  return null;
}

export function collectFieldErrors(checks: Array<[field: string, message: string | null]>): FieldError[] {
  return checks.flatMap(([field, message]) => (message ? [{ field, message }] : []));
}
