import { Type } from '@sinclair/typebox';
import type { TaskRow } from '../db/schema.js';
import { SERIES_LIMITS } from '../lib/recurrence.js';

/** The series fields of an event or task as read (services/series.ts). */
export const SeriesFields = {
  seriesId: Type.String({
    description:
      "The _id of the series this is an occurrence of (or, for a series as created, its own _id); '' for a single item",
  }),
  rrule: Type.String({
    description:
      "The series' RFC 5545 recurrence rule (the RRULE value, e.g. FREQ=WEEKLY;BYDAY=MO,WE); '' for a single item",
  }),
  recurrenceId: Type.String({
    description:
      "The occurrence's original start (ISO UTC), which names it in its series even after it was moved; '' for a single item",
  }),
};

export const RruleInput = Type.String({
  maxLength: 500,
  description: `Makes it repeat: an RFC 5545 RRULE value without "RRULE:", e.g. FREQ=WEEKLY;BYDAY=MO,WE;COUNT=6. FREQ is DAILY, WEEKLY, MONTHLY or YEARLY (a series repeats at most daily, at its start time: no BYHOUR/BYMINUTE/BYSECOND); COUNT at most ${SERIES_LIMITS.count}; UNTIL a date or a UTC date-time. The series is stored once and expanded on every read`,
});

export const SeriesScope = Type.Union(
  [Type.Literal('this'), Type.Literal('following'), Type.Literal('all')],
  {
    description:
      "For an occurrence of a series: 'this' (default) edits that occurrence only, 'following' this one and the later ones (the series is split there), 'all' the whole series (time changes move every occurrence by as much)",
  },
);

export const EditScopeQuery = Type.Object(
  { scope: Type.Optional(SeriesScope) },
  { additionalProperties: false },
);

export const DeleteOccurrenceQuery = Type.Object(
  {
    scope: Type.Optional(
      Type.Union([Type.Literal('this'), Type.Literal('following'), Type.Literal('all')], {
        description:
          "For an occurrence of a series: 'this' (the default for an occurrence's id) skips it, 'following' deletes it and every later one (the series ends before it), 'all' (the default for a series' own id) deletes the whole series. Undo is POST /{the id deleted}/restore, whatever the scope",
      }),
    ),
    occurrence: Type.Optional(
      Type.String({
        maxLength: 40,
        description:
          "With a series' _id: skip the occurrence that starts (started, before any move) at this ISO instant, instead of deleting the series",
      }),
    ),
  },
  { additionalProperties: false },
);

/** The series fields of a read row: a master reads as the series, an occurrence or override as part of it. */
export function seriesJsonOf(
  row: Pick<TaskRow, 'id' | 'rrule' | 'occurrenceMs' | 'seriesId' | 'recurrenceAt'>,
) {
  return {
    seriesId: row.seriesId ?? (row.occurrenceMs !== null ? row.id : ''),
    rrule: row.rrule ?? '',
    recurrenceId: row.recurrenceAt === null ? '' : new Date(row.recurrenceAt).toISOString(),
  };
}

/** Where a read row ends: a master's end_at is its series' span, its own end is one occurrence after its start. */
export const ownEndOf = (row: Pick<TaskRow, 'startAt' | 'endAt' | 'occurrenceMs'>) =>
  row.occurrenceMs === null ? row.endAt : row.startAt + row.occurrenceMs;
