import { Type } from '@sinclair/typebox';

// The account fields' rules, once: the request schemas below publish them in the OpenAPI document and
// lib/account-rules.ts words their failures as SPEC does. The server accepts the union of the client's rules (SPEC
// section 5) and its own, so anything the registration form lets through is accepted here. Lengths count characters
// (Unicode code points), as JSON Schema does.
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 50;
export const USERNAME_PATTERN = '^[A-Za-z0-9_]+$';
export const EMAIL_MIN = 5;
export const EMAIL_MAX = 254;
export const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$';
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 100;
/** A lowercase letter, an uppercase letter, a digit and a character that is none of those; no control character. */
export const PASSWORD_PATTERN =
  '^(?=[\\s\\S]*[a-z])(?=[\\s\\S]*[A-Z])(?=[\\s\\S]*\\d)(?=[\\s\\S]*[^A-Za-z0-9])[^\\u0000-\\u001f\\u007f]*$';
export const NAME_MIN = 5;
export const NAME_MAX = 100;
/** Passwords checked against a stored hash (sign-in, a password change, account deletion) are bounded, not judged. */
export const PASSWORD_CHECKED_MAX = 200;

const TRIMMED = 'Surrounding spaces are removed before the checks.';

export const Username = Type.String({
  minLength: USERNAME_MIN,
  maxLength: USERNAME_MAX,
  pattern: USERNAME_PATTERN,
  description: 'Letters, digits and underscores',
  examples: ['timeKeeper1'],
});

export const Email = Type.String({
  minLength: EMAIL_MIN,
  maxLength: EMAIL_MAX,
  pattern: EMAIL_PATTERN,
  description: TRIMMED,
  examples: ['keeper@example.com'],
});

export const NewPassword = Type.String({
  minLength: PASSWORD_MIN,
  maxLength: PASSWORD_MAX,
  pattern: PASSWORD_PATTERN,
  description:
    'At least one lowercase letter, one uppercase letter, one digit and one other character (such as !@#$%^&*)',
});

export const CheckedPassword = Type.String({ minLength: 1, maxLength: PASSWORD_CHECKED_MAX });

export const PersonName = Type.String({ minLength: NAME_MIN, maxLength: NAME_MAX, description: TRIMMED });
