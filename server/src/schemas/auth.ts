import { Type } from '@sinclair/typebox';
import type { SessionRow } from '../db/schema.js';
import { CheckedPassword, EMAIL_MAX, Email, NewPassword, PersonName, Username } from './account.js';
import { UserRef } from './user.js';

/** How much of the User-Agent a session keeps: enough to tell devices apart. */
export const USER_AGENT_KEPT = 200;

// Every field the server requires is required here, with the rules it enforces (schemas/account.ts). A failing rule is
// answered in SPEC's words, every failing field at once: lib/account-rules.ts checks these bodies before the schema.
export const RegisterUserBody = Type.Object(
  {
    username: Username,
    email: Email,
    password: NewPassword,
    name: PersonName,
    profilePicture: Type.Optional(Type.String({ maxLength: 2048, default: '' })),
  },
  { additionalProperties: false },
);

export const RegisterBody = Type.Object(
  {
    email: Email,
    password: NewPassword,
    name: PersonName,
  },
  {
    additionalProperties: false,
    description: 'The username is made from the part of the email before the @, made unique with digits',
  },
);

const identifier = (description: string) => Type.String({ minLength: 1, maxLength: EMAIL_MAX, description });

export const LoginBody = Type.Object(
  {
    username: Type.Optional(identifier('A username or an email')),
    email: Type.Optional(identifier('An email')),
    password: CheckedPassword,
  },
  {
    additionalProperties: false,
    // Not an anyOf of two `required` lists: generators of client types read that as `unknown`.
    description:
      'One of username (a username or an email) and email is required to name the account; surrounding spaces are ignored, and a blank one counts as absent',
  },
);

export const ForgotPasswordBody = Type.Object({ email: Email }, { additionalProperties: false });

export const ResetPasswordBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 200, description: 'The token of the mailed link' }),
    password: NewPassword,
  },
  { additionalProperties: false },
);

export const ChangePasswordBody = Type.Object(
  { currentPassword: CheckedPassword, newPassword: NewPassword },
  { additionalProperties: false },
);

export const Message = Type.Object({ message: Type.String() });

export const RegistrationResponse = Type.Object({ message: Type.String(), user: UserRef });
export const SessionResponse = Type.Object({ token: Type.String(), user: UserRef });
export const LoginResponse = Type.Object({ message: Type.String(), token: Type.String(), user: UserRef });
export const ValidateResponse = Type.Object({ valid: Type.Boolean(), user: UserRef });

export const SessionJson = Type.Object({
  _id: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  lastSeenAt: Type.String({
    format: 'date-time',
    description: 'Last request, recorded at most once a minute',
  }),
  expiresAt: Type.String({ format: 'date-time' }),
  userAgent: Type.String({
    maxLength: USER_AGENT_KEPT,
    description: `The User-Agent it signed in with, at most ${USER_AGENT_KEPT} characters`,
  }),
  current: Type.Boolean({ description: 'The session of the token that asked' }),
});
export const SessionList = Type.Object({ sessions: Type.Array(SessionJson) });

export function toSessionJson(session: SessionRow, currentSessionId: string | null) {
  return {
    _id: session.id,
    createdAt: new Date(session.createdAt).toISOString(),
    lastSeenAt: new Date(session.lastSeenAt).toISOString(),
    expiresAt: new Date(session.expiresAt).toISOString(),
    userAgent: session.userAgent,
    current: session.id === currentSessionId,
  };
}
