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
    budgetHoursByWeekday: Type.Union([Type.Array(Type.Number(), { minItems: 7, maxItems: 7 }), Type.Null()], {
      description:
        "Budget hours per weekday, Sunday first, or null when every day has budgetHours. A day's budget is its entry here when set",
    }),
    timeZone: Type.String(),
  },
  { $id: 'User' },
);
export type User = Static<typeof User>;

export const UserRef = Type.Unsafe<User>({ $ref: 'User#' });

const BUDGET_HOURS = { minimum: 0, maximum: 24 };

/** The stored per-weekday budgets, or null when the day's budget is the one budgetHours. */
export function budgetsByWeekdayOf(row: Pick<UserRow, 'budgetHoursByWeekday'>): number[] | null {
  if (row.budgetHoursByWeekday === null) return null;
  const parsed: unknown = JSON.parse(row.budgetHoursByWeekday);
  return Array.isArray(parsed) && parsed.length === 7 ? (parsed as number[]) : null;
}

export function toUserJson(row: UserRow): User {
  return {
    id: row.id,
    _id: row.id,
    email: row.email,
    username: row.username,
    name: row.name,
    profilePicture: row.profilePicture,
    budgetHours: row.budgetHours,
    budgetHoursByWeekday: budgetsByWeekdayOf(row),
    timeZone: row.timeZone,
  };
}

export const UserEnvelope = Type.Object({ user: UserRef });

export const UpdateMeBody = Type.Object(
  {
    name: Type.Optional(PersonName),
    budgetHours: Type.Optional(Type.Number(BUDGET_HOURS)),
    budgetHoursByWeekday: Type.Optional(
      Type.Union([Type.Array(Type.Number(BUDGET_HOURS), { minItems: 7, maxItems: 7 }), Type.Null()], {
        errorMessage:
          'must be seven numbers of hours from 0 to 24, Sunday first, or null for the same every day',
        description: 'Seven budgets (hours, 0 to 24), Sunday first; null for the same budget every day',
      }),
    ),
    timeZone: Type.Optional(Type.String({ maxLength: 64 })),
    profilePicture: Type.Optional(Type.String({ maxLength: 2048 })),
  },
  { additionalProperties: false },
);

export const DeleteMeBody = Type.Object({ password: CheckedPassword }, { additionalProperties: false });
