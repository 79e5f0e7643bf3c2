import { Type, type Static } from '@sinclair/typebox';
import type { UserRow } from '../db/schema.js';
import { CheckedPassword, PersonName } from './account.js';
import { DEFAULT_BUDGET_HOURS } from './product.js';

export const User = Type.Object(
  {
    id: Type.String(),
    _id: Type.String(),
    email: Type.String(),
    username: Type.String(),
    name: Type.String(),
    profilePicture: Type.String(),
    budgetHours: Type.Number({
      default: DEFAULT_BUDGET_HOURS,
      description: 'Hours in the daily wallet; a new account starts with the default',
    }),
    timeZone: Type.String(),
  },
  { $id: 'User' },
);
export type User = Static<typeof User>;

export const UserRef = Type.Unsafe<User>({ $ref: 'User#' });

export function toUserJson(row: UserRow): User {
  return {
    id: row.id,
    _id: row.id,
    email: row.email,
    username: row.username,
    name: row.name,
    profilePicture: row.profilePicture,
    budgetHours: row.budgetHours,
    timeZone: row.timeZone,
  };
}

export const UserEnvelope = Type.Object({ user: UserRef });

export const UpdateMeBody = Type.Object(
  {
    name: Type.Optional(PersonName),
    budgetHours: Type.Optional(Type.Number({ minimum: 0, maximum: 24 })),
    timeZone: Type.Optional(Type.String({ maxLength: 64 })),
    profilePicture: Type.Optional(Type.String({ maxLength: 2048 })),
  },
  { additionalProperties: false },
);

export const DeleteMeBody = Type.Object({ password: CheckedPassword }, { additionalProperties: false });
