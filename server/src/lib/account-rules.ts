import type { TObject } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import {
  EMAIL_MAX,
  EMAIL_MIN,
  EMAIL_PATTERN,
  NAME_MAX,
  NAME_MIN,
  PASSWORD_MAX,
  PASSWORD_MIN,
  USERNAME_MAX,
  USERNAME_MIN,
  USERNAME_PATTERN,
} from '../schemas/account.js';
import { validationFailed, type FieldError } from './http-errors.js';

// The SPEC's wording of the account rules that schemas/account.ts declares. The checks below and the schema keywords
// say the same thing; these run first so that every failing field is reported at once, each with its own sentence.

/** Characters as JSON Schema's minLength and maxLength count them: code points, not UTF-16 units. */
const characterCount = (text: string) => [...text].length;

const usernamePattern = new RegExp(USERNAME_PATTERN);
const emailPattern = new RegExp(EMAIL_PATTERN);

export function usernameError(username: string): string | null {
  const length = characterCount(username);
  if (length < USERNAME_MIN) return `Username must be at least ${USERNAME_MIN} characters`;
  if (length > USERNAME_MAX) return `Username must not exceed ${USERNAME_MAX} characters`;
  if (!usernamePattern.test(username))
    return 'Username has an invalid format: use only letters, digits and underscores';
  return null;
}

export function emailError(email: string): string | null {
  const length = characterCount(email);
  if (length < EMAIL_MIN) return `Email must be at least ${EMAIL_MIN} characters`;
  if (length > EMAIL_MAX || !emailPattern.test(email)) return 'Invalid email format';
  return null;
}

export function passwordError(password: string): string | null {
  const length = characterCount(password);
  if (length < PASSWORD_MIN) return `Password must be at least ${PASSWORD_MIN} characters`;
  if (length > PASSWORD_MAX) return `Password must not exceed ${PASSWORD_MAX} characters`;
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
  const length = characterCount(name.trim());
  if (length < NAME_MIN) return `Name must be at least ${NAME_MIN} characters`;
  if (length > NAME_MAX) return `Name must not exceed ${NAME_MAX} characters`;
  return null;
}

export interface AccountFieldRule {
  /** The field's name in SPEC's messages: 'Username', 'New password'. */
  label: string;
  /** The rule's message for a present, non-empty value; without one, the field only has to be there. */
  check?: (value: string) => string | null;
  /** Surrounding spaces are removed from the body before any check (emails, names, sign-in identifiers). */
  trim?: boolean;
  /** May be left out; when sent, it is checked like any other. */
  optional?: boolean;
}

export type AccountFieldRules = Record<string, AccountFieldRule>;

/** The rules of the account fields, as the request bodies name them. */
export const ACCOUNT_FIELDS = {
  username: { label: 'Username', check: usernameError },
  email: { label: 'Email', check: emailError, trim: true },
  password: { label: 'Password', check: passwordError },
  name: { label: 'Name', check: nameError, trim: true },
  newPassword: { label: 'New password', check: passwordError },
  /** Checked against the stored hash, not judged: an older password may predate today's rules. */
  currentPassword: { label: 'Current password' },
} satisfies AccountFieldRules;

/** Sign-in's fields: username (a username or an email) or email, and the password as typed. */
export const SIGN_IN_FIELDS: AccountFieldRules = {
  username: { label: 'Username', trim: true, optional: true },
  email: { label: 'Email', trim: true, optional: true },
  password: { label: 'Password' },
};

/** Sign-in's normalize step: a blank identifier counts as absent, and one of username and email must remain. */
export function oneSignInIdentifier(body: Record<string, string | undefined>): FieldError[] {
  if (body.username === '') delete body.username;
  if (body.email === '') delete body.email;
  const named = body.username !== undefined || body.email !== undefined;
  return named ? [] : [{ field: 'username', message: 'Username is required' }];
}

/** One message per failing field, in the order of `rules`; a missing or empty required field is "<label> is required". */
export function accountFieldErrors(
  body: Record<string, string | undefined>,
  rules: AccountFieldRules,
): FieldError[] {
  return Object.entries(rules).flatMap(([field, rule]) => {
    const value = body[field];
    if (value === undefined && rule.optional) return [];
    const message =
      value === undefined || value.length === 0 ? `${rule.label} is required` : (rule.check?.(value) ?? null);
    return message ? [{ field, message }] : [];
  });
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A preValidation hook for a body whose schema declares account fields: it trims the fields that are trimmed, then
 * refuses the body with every failing rule in SPEC's words. What it lets through meets the same rules in the schema,
 * which then validates the whole body. A body the schema refuses for its shape (not an object, an unknown field, a
 * value that is not a string) is left to the schema's own answer. `normalize` runs after the trimming (sign-in drops a
 * blank identifier there).
 */
export function checkAccountFields(
  schema: TObject,
  rules: AccountFieldRules,
  normalize?: (body: Record<string, string | undefined>) => FieldError[],
) {
  const declared = new Set(Object.keys(schema.properties));
  return async function accountFieldsHook(request: FastifyRequest): Promise<void> {
    const body: unknown = request.body;
    if (!isPlainObject(body)) return;
    if (Object.keys(body).some((field) => !declared.has(field))) return;
    if (Object.keys(rules).some((field) => body[field] !== undefined && typeof body[field] !== 'string'))
      return;
    const fields = body as Record<string, string | undefined>;
    for (const [field, rule] of Object.entries(rules)) {
      if (rule.trim && fields[field] !== undefined) fields[field] = fields[field].trim();
    }
    const errors = [...(normalize?.(fields) ?? []), ...accountFieldErrors(fields, rules)];
    if (errors.length > 0) throw validationFailed(errors);
  };
}
