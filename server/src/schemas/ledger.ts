import { Type, type Static } from '@sinclair/typebox';

/**
 * The time ledger's definitions, once: services/ledger.ts computes them and every schema that reports a figure
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
    "Tracked time is time entries: intervals of a task's, recorded by its timer or by hand, to the second, one person's entries never overlapping (GET /time-entries). Tracked time of a local day is the length of the union of the entries overlapping that day, clamped to it, like blocks: never more than the day's length. A running timer counts up to now, and stops itself at 12 hours. Entries stay on the moment they were recorded: moving, rescheduling or putting back a task moves its plan, never its entries. A task's trackedMinutes is the sum of its entries, in whole minutes.",
  budget:
    "A day's budget is its weekday's entry of budgetHoursByWeekday (Sunday first) when set, else budgetHours, as they stood on that day: a change applies from the local day it is made on, and earlier days keep the budget then in force.",
  over: 'Over and remaining are computed once, from minutes: overMinutes = max(0, plannedMinutes - budgetMinutes), remainingMinutes = max(0, budgetMinutes - plannedMinutes). Hours elsewhere are these minutes / 60 at one decimal; screens round only for display.',
  categories:
    'Time per category counts each planned minute once: where blocks overlap, the minute belongs to the block that started last (the one the person switched to), and a block with no category counts as "No category".',
  membership:
    "A scheduled task belongs to the local days (the request's time zone) its block overlaps, wherever it was planned; an unscheduled task, or an unscheduled series' occurrence, belongs to the day it is dated, in any zone. Every list, figure and range read uses this one rule.",
  done: 'Done means the user ticked it off (SPEC).',
  dismissed:
    "A dismissed task (put aside from Yesterday) has left the pending list and counts in no figure: not planned, not tracked, not productive, not in analytics. It is not deleted, and done is a separate flag (SPEC's done: true from other clients still means done).",
  productive:
    'Productive time of a local day is the length of the union of the time entries, the blocks of done tasks whose entries hold less time than their block (timing a done task never lowers it), and the timed events that have ended (of calendars counted in the budget), clamped to the day: never a sum, never more than the day.',
  weeks:
    "A week's figures are the sums of its days' figures. Averages divide the figures of the days elapsed up to today (in the request's zone) by those days; future days count in neither.",
} as const;

export const LedgerDay = Type.Object(
  {
    date: Type.String({ description: 'The local day, YYYY-MM-DD' }),
    plannedMinutes: Type.Integer({ description: DEFINITIONS.planned }),
    trackedMinutes: Type.Integer({ description: DEFINITIONS.tracked }),
    unscheduledMinutes: Type.Integer({ description: DEFINITIONS.unscheduled }),
    productiveMinutes: Type.Integer({ description: DEFINITIONS.productive }),
    budgetMinutes: Type.Integer({ description: DEFINITIONS.budget }),
    overMinutes: Type.Integer({ description: `max(0, plannedMinutes - budgetMinutes). ${DEFINITIONS.over}` }),
    remainingMinutes: Type.Integer({
      description: `max(0, budgetMinutes - plannedMinutes). ${DEFINITIONS.over}`,
    }),
  },
  { $id: 'LedgerDay' },
);
export type LedgerDay = Static<typeof LedgerDay>;
export const LedgerDayRef = Type.Unsafe<LedgerDay>({ $ref: 'LedgerDay#' });

export const LedgerDays = Type.Object({ days: Type.Array(LedgerDayRef) });
