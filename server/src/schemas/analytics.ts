import { Type, type Static } from '@sinclair/typebox';
import { LocalDate } from './common.js';
import { DEFINITIONS } from './ledger.js';

export const WeeklyAnalytics = Type.Object(
  {
    weekStart: Type.String({ description: 'Sunday, YYYY-MM-DD' }),
    weekEnd: Type.String({ description: 'Saturday, YYYY-MM-DD (inclusive)' }),
    totalMinutes: Type.Integer({
      description: `Planned minutes of the week: the sum of daily[].plannedMinutes. ${DEFINITIONS.planned}`,
    }),
    byCategory: Type.Array(
      Type.Object({
        categoryId: Type.String({
          description: `'' for the time of blocks with no category (name 'No category'). ${DEFINITIONS.categories}`,
        }),
        name: Type.String(),
        color: Type.String(),
        minutes: Type.Integer(),
        percent: Type.Integer(),
      }),
    ),
    averageProductiveHours: Type.Number({
      description: `Productive minutes of the days of the week elapsed up to today / 60 / those days, one decimal. ${DEFINITIONS.weeks} ${DEFINITIONS.productive}`,
    }),
    streak: Type.Integer({
      description:
        'The longest run of consecutive days of the week, up to today, with at least one done task',
    }),
    daily: Type.Array(
      Type.Object({
        date: Type.String(),
        minutes: Type.Integer({
          description: 'The planned minutes (plannedMinutes, kept under its first name)',
        }),
        productiveMinutes: Type.Integer({ description: DEFINITIONS.productive }),
        plannedMinutes: Type.Integer({ description: DEFINITIONS.planned }),
        trackedMinutes: Type.Integer({ description: DEFINITIONS.tracked }),
        budgetMinutes: Type.Integer({ description: DEFINITIONS.budget }),
        overMinutes: Type.Integer({
          description: `max(0, plannedMinutes - budgetMinutes). ${DEFINITIONS.over}`,
        }),
        remainingMinutes: Type.Integer({
          description: `max(0, budgetMinutes - plannedMinutes). ${DEFINITIONS.over}`,
        }),
      }),
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
