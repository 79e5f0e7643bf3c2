import { Type } from '@sinclair/typebox';
import type { SessionRow } from '../db/schema.js';
import { UserRef } from './user.js';

/** How much of the User-Agent a session keeps: enough to tell devices apart. */
export const USER_AGENT_KEPT = 200;

// Field rules live in lib/account-rules.ts so every failing field is reported at once with a message the client maps.
const Text = Type.String({ maxLength: 1000 });

export const RegisterUserBody = Type.Object(
  {
    username: Type.Optional(Text),
    email: Type.Optional(Text),
    password: Type.Optional(Text),
    name: Type.Optional(Text),
    profilePicture: Type.Optional(Type.String({ maxLength: 2048 })),
  },
  { additionalProperties: false },
);

export const RegisterBody = Type.Object(
  {
    email: Type.Optional(Text),
    password: Type.Optional(Text),
    name: Type.Optional(Text),
  },
  { additionalProperties: false },
);

export const LoginBody = Type.Object(
  {
    username: Type.Optional(Type.String({ maxLength: 254, description: 'Username or email' })),
    email: Type.Optional(Type.String({ maxLength: 254 })),
    password: Type.String({ maxLength: 200 }),
  },
  { additionalProperties: false },
);

export const ForgotPasswordBody = Type.Object(
  { email: Type.String({ maxLength: 254 }) },
  { additionalProperties: false },
);

export const ResetPasswordBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }), password: Type.String({ maxLength: 1000 }) },
  { additionalProperties: false },
);

export const ChangePasswordBody = Type.Object(
  { currentPassword: Type.String({ maxLength: 200 }), newPassword: Type.String({ maxLength: 1000 }) },
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
