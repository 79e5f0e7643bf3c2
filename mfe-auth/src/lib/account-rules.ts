import type { FieldError } from '@time-wallet/shared-ui/lib';

export interface RegistrationInput {
  username: string;
  email: string;
  password: string;
  name: string;
}

export type RegistrationField = keyof RegistrationInput;

export interface LoginInput {
  username: string;
  password: string;
}

export type LoginField = keyof LoginInput;

interface Rule {
  fails: (value: string) => boolean;
  message: string;
}

const PASSWORD_SPECIALS = /[!@#$%^&*]/;

/**
 * Rules per field, in the order SPEC section 5 lists them, the first failing rule being the field's message; except
 * the e-mail length, checked before the format: every address the format accepts is already 5 characters long, so
 * the spec's 'Email must be at least 5 characters' could otherwise never be shown.
 */
const REGISTRATION_RULES: Readonly<Record<RegistrationField, readonly Rule[]>> = {
  username: [
    { fails: (v) => v.length < 8, message: 'Username must be at least 8 characters' },
    { fails: (v) => v.length > 15, message: 'Username must not exceed 15 characters' },
    { fails: (v) => !/^[A-Za-z0-9]+$/.test(v), message: 'Username can only contain letters and digits' },
  ],
  email: [
    { fails: (v) => v.length < 5, message: 'Email must be at least 5 characters' },
    { fails: (v) => !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), message: 'Invalid email format' },
  ],
  password: [
    { fails: (v) => v.length < 8, message: 'Password must be at least 8 characters' },
    { fails: (v) => v.length > 20, message: 'Password must not exceed 20 characters' },
    { fails: (v) => !/[a-z]/.test(v), message: 'Password must contain at least one lowercase letter' },
    { fails: (v) => !/[A-Z]/.test(v), message: 'Password must contain at least one uppercase letter' },
    { fails: (v) => !/\d/.test(v), message: 'Password must contain at least one digit' },
    {
      fails: (v) => !PASSWORD_SPECIALS.test(v),
      message: 'Password must contain at least one special character (!@#$%^&*)',
    },
    {
      fails: (v) => !/^[A-Za-z\d!@#$%^&*]+$/.test(v),
      message: 'Password can only contain letters, digits, and special characters (!@#$%^&*)',
    },
  ],
  name: [{ fails: (v) => v.trim().length < 5, message: 'Name must be at least 5 characters' }],
};

const REGISTRATION_FIELDS: readonly RegistrationField[] = ['username', 'email', 'password', 'name'];

/** Client-side registration check: at most one error per field, in form order. Empty list = valid. */
export function validateRegistration(input: RegistrationInput): FieldError<RegistrationField>[] {
  const errors: FieldError<RegistrationField>[] = [];
  for (const field of REGISTRATION_FIELDS) {
    const failed = REGISTRATION_RULES[field].find((rule) => rule.fails(input[field] ?? ''));
    if (failed) errors.push({ field, message: failed.message });
  }
  return errors;
}

/** Login only needs both fields filled; the server decides the rest. Empty list = valid. */
export function validateLogin(input: LoginInput): FieldError<LoginField>[] {
  const errors: FieldError<LoginField>[] = [];
  if (!input.username?.trim()) errors.push({ field: 'username', message: 'Username is required' });
  if (!input.password) errors.push({ field: 'password', message: 'Password is required' });
  return errors;
}

/** The registration password rules on their own (a new password on the reset screen): the first failure, or null. */
export function validatePassword(password: string): string | null {
  return REGISTRATION_RULES.password.find((rule) => rule.fails(password))?.message ?? null;
}
