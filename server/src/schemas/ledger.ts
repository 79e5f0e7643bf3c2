import { Type, type Static } from '@sinclair/typebox';

/**
 * The time ledger's definitions, once: services/wallet.ts computes them and every schema that reports a figure
 * describes it with these words, so the OpenAPI document says what each number counts.
 */
export const DEFINITIONS = {
  blocks:
    'Blocks are scheduled tasks (not dismissed) and timed events. All-day events are markers: they show on the grid and cost no hours.',
  planned:
    "Planned time of a local day (the request's time zone) is the length of the union of the blocks overlapping that day, clamped to it: overlapping blocks count once, and a block crossing midnight counts on each day for its part. All-day events, unscheduled and dismissed tasks cost nothing.",
  unscheduled:
    "An unscheduled task has an estimate and no times yet (scheduled = false): it costs no planned time; the estimates of the day's unscheduled tasks not done yet are reported apart (unscheduledHours).",
  tracked:
    "Tracked time is what a task's timer recorded plus manual corrections (0 to 1440 minutes per task), counted on the task's day; a running timer counts up to now. One timer runs per user, and one left running stops itself at 12 hours.",
  budget:
    "A day's budget is its weekday's entry of budgetHoursByWeekday (Sunday first) when set, else budgetHours.",
  done: 'Done means the user ticked it off (SPEC).',
  dismissed:
    "A dismissed task (put aside from Yesterday) has left the pending list and counts in no figure: not planned, not tracked, not productive, not in analytics. It is not deleted, and done is a separate flag (SPEC's done: true from other clients still means done).",
  productive:
    'Productive time of a day is the union of the blocks of done tasks that were not tracked and of timed events that have ended, clamped to the day, plus the tracked minutes of done tasks that were tracked.',
} as const;

export const LedgerDay = Type.Object(
  {
    date: Type.String({ description: 'The local day, YYYY-MM-DD' }),
    plannedMinutes: Type.Integer({ description: DEFINITIONS.planned }),
    trackedMinutes: Type.Integer({ description: DEFINITIONS.tracked }),
    unscheduledMinutes: Type.Integer({ description: DEFINITIONS.unscheduled }),
    productiveMinutes: Type.Integer({ description: DEFINITIONS.productive }),
    budgetMinutes: Type.Integer({ description: DEFINITIONS.budget }),
    overMinutes: Type.Integer({ description: 'max(0, plannedMinutes - budgetMinutes)' }),
  },
  { $id: 'LedgerDay' },
);
export type LedgerDay = Static<typeof LedgerDay>;
export const LedgerDayRef = Type.Unsafe<LedgerDay>({ $ref: 'LedgerDay#' });

export const LedgerDays = Type.Object({ days: Type.Array(LedgerDayRef) });
