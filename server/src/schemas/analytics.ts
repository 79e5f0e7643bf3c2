import { Type, type Static } from '@sinclair/typebox';
import { LocalDate } from './common.js';

export const WeeklyAnalytics = Type.Object(
  {
    weekStart: Type.String({ description: 'Sunday, YYYY-MM-DD' }),
    weekEnd: Type.String({ description: 'Saturday, YYYY-MM-DD (inclusive)' }),
    totalMinutes: Type.Integer(),
    byCategory: Type.Array(
      Type.Object({
        categoryId: Type.String(),
        name: Type.String(),
        color: Type.String(),
        minutes: Type.Integer(),
        percent: Type.Integer(),
      }),
    ),
    averageProductiveHours: Type.Number(),
    streak: Type.Integer(),
    daily: Type.Array(
      Type.Object({ date: Type.String(), minutes: Type.Integer(), productiveMinutes: Type.Integer() }),
    ),
  },
  { $id: 'WeeklyAnalytics' },
);
export type WeeklyAnalytics = Static<typeof WeeklyAnalytics>;
export const WeeklyAnalyticsRef = Type.Unsafe<WeeklyAnalytics>({ $ref: 'WeeklyAnalytics#' });

export const WeeklyQuery = Type.Object({ date: Type.Optional(LocalDate) }, { additionalProperties: false });

export const WeeklySnapshotResponse = Type.Object({
  message: Type.String(),
  updatedAt: Type.String(),
  analytics: WeeklyAnalyticsRef,
});
