import { Type, type Static } from '@sinclair/typebox';
import type { TimeEntryRow } from '../db/schema.js';
import { DateTime, RecordId } from './common.js';
import { DEFINITIONS } from './ledger.js';

/** The longest one entry may be: a day (a timer stops itself at 12 hours; a manual entry may hold a whole day). */
export const TIME_ENTRY_MAX_MS = 24 * 60 * 60_000;

export const TimeEntry = Type.Object(
  {
    id: Type.String(),
    taskId: Type.String({ description: "The task's _id whose time it is" }),
    start: Type.String({ description: 'ISO UTC date-time, to the second' }),
    end: Type.Union([Type.String(), Type.Null()], {
      description: "ISO UTC date-time, to the second; null while the task's timer runs",
    }),
    source: Type.Union([Type.Literal('timer'), Type.Literal('manual')], {
      description: "'timer': recorded by the task's timer; 'manual': added or corrected by hand",
    }),
  },
  { $id: 'TimeEntry', description: DEFINITIONS.tracked },
);
export type TimeEntry = Static<typeof TimeEntry>;
export const TimeEntryRef = Type.Unsafe<TimeEntry>({ $ref: 'TimeEntry#' });

export const TimeEntryList = Type.Object({ entries: Type.Array(TimeEntryRef) });

const Instant = (what: string) =>
  Type.String({
    ...DateTime,
    description: `${what}: an ISO 8601 date-time (without an offset it is read in the request's time zone); kept to the second`,
  });

export const CreateTimeEntryBody = Type.Object(
  {
    taskId: RecordId,
    start: Instant('The start'),
    end: Instant(
      'The end, after the start, at most 24 hours later and no later than now (a minute allowed for clocks)',
    ),
  },
  { additionalProperties: false },
);
export type CreateTimeEntryBody = Static<typeof CreateTimeEntryBody>;

export const UpdateTimeEntryBody = Type.Object(
  {
    taskId: Type.Optional(RecordId),
    start: Type.Optional(Instant('The new start')),
    end: Type.Optional(Instant("The new end (not of a running entry: stop the task's timer to end it)")),
  },
  { additionalProperties: false },
);
export type UpdateTimeEntryBody = Static<typeof UpdateTimeEntryBody>;

export function toTimeEntryJson(row: TimeEntryRow): TimeEntry {
  return {
    id: row.id,
    taskId: row.taskId,
    start: new Date(row.startAt).toISOString(),
    end: row.endAt === null ? null : new Date(row.endAt).toISOString(),
    source: row.source,
  };
}

export const EstimateInsightsQuery = Type.Object(
  {
    weeks: Type.Optional(
      // A query string stays a string (no type coercion): the range is checked where it is read.
      Type.String({
        pattern: '^[0-9]{1,2}$',
        description: 'How many weeks back, up to today: 1 to 52 (default 8)',
        errorMessage: 'must be a whole number of weeks from 1 to 52',
      }),
    ),
  },
  { additionalProperties: false },
);

export const EstimateInsights = Type.Object({
  categories: Type.Array(
    Type.Object({
      categoryId: Type.String({ description: "The category's _id, '' for tasks with no category" }),
      tasks: Type.Integer({ description: 'Done tasks of the period that had an estimate and time entries' }),
      estimateMinutes: Type.Integer({ description: 'The sum of their estimates' }),
      trackedMinutes: Type.Integer({ description: 'The sum of their entries' }),
      ratio: Type.Number({ description: 'trackedMinutes / estimateMinutes, two decimals' }),
    }),
  ),
});
