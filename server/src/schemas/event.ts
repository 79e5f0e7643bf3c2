import { Type, type Static } from '@sinclair/typebox';
import { TITLE_MAX_LENGTH } from './product.js';
import { ownCalendarId } from '../plugins/app/calendars-repository.js';
import type { EventRow } from '../db/schema.js';
import { DateTime, LocalDate } from './common.js';
import { RruleInput, SeriesFields, ownEndOf, seriesJsonOf } from './series.js';

export const CalendarEvent = Type.Object(
  {
    _id: Type.String(),
    title: Type.String(),
    start: Type.String({ description: 'ISO UTC date-time' }),
    end: Type.String({ description: 'ISO UTC date-time' }),
    allDay: Type.Boolean({
      description: 'An all-day event is a marker (holiday, birthday): shown on the grid, it costs no hours',
    }),
    categoryId: Type.String({
      description:
        "The category's _id, or '' when uncategorised; a timed event's time counts in its category's share",
    }),
    source: Type.Union([Type.Literal('manual'), Type.Literal('ics')]),
    calendarId: Type.String({
      description: "The calendar holding it (GET /calendars): the person's own, or a subscription",
    }),
    readOnly: Type.Boolean({
      description:
        'True for an event of a subscribed calendar: it changes only at its source (PATCH and DELETE answer 409); POST /events/{id}/copy copies it into the own calendar',
    }),
    ...SeriesFields,
  },
  { $id: 'CalendarEvent' },
);
export type CalendarEvent = Static<typeof CalendarEvent>;
export const CalendarEventRef = Type.Unsafe<CalendarEvent>({ $ref: 'CalendarEvent#' });

export function toEventJson(row: EventRow): CalendarEvent {
  return {
    _id: row.id,
    title: row.title,
    start: new Date(row.startAt).toISOString(),
    end: new Date(ownEndOf(row)).toISOString(),
    allDay: row.allDay === 1,
    categoryId: row.categoryId ?? '',
    source: row.source,
    calendarId: row.calendarId,
    readOnly: row.calendarId !== ownCalendarId(row.userId),
    ...seriesJsonOf(row),
  };
}

const Title = Type.String({ maxLength: TITLE_MAX_LENGTH });
const CategoryId = Type.Union([Type.String({ maxLength: 100 }), Type.Null()], {
  description: "One of the user's categories; '' or null for none",
});

export const CreateEventBody = Type.Object(
  {
    title: Title,
    start: DateTime,
    end: DateTime,
    allDay: Type.Optional(Type.Boolean()),
    categoryId: Type.Optional(CategoryId),
    rrule: Type.Optional(RruleInput),
  },
  { additionalProperties: false },
);

export const UpdateEventBody = Type.Object(
  {
    title: Type.Optional(Title),
    start: Type.Optional(DateTime),
    end: Type.Optional(DateTime),
    allDay: Type.Optional(Type.Boolean()),
    categoryId: Type.Optional(CategoryId),
    rrule: Type.Optional(
      Type.Union([RruleInput, Type.Literal('')], {
        description:
          "The series' new rule (with scope 'all' or 'following'); '' makes the occurrence a single event",
      }),
    ),
  },
  { additionalProperties: false },
);

/** The local days from (inclusive) to (exclusive): the events, tasks and ledger range reads all take it. */
export const DayRangeQuery = Type.Object({ from: LocalDate, to: LocalDate }, { additionalProperties: false });

export const EventList = Type.Array(CalendarEventRef);

/** An event of an imported file named by its UID and SUMMARY, with what happened to it. */
const eventWithReason = (reason: string) =>
  Type.Object({ uid: Type.String(), summary: Type.String(), reason: Type.String({ description: reason }) });

export const ImportResult = Type.Object({
  created: Type.Integer(),
  updated: Type.Integer({
    description: 'Always 0: an import copies, it never changes an event already here',
  }),
  skipped: Type.Integer({
    description: 'Events not imported: duplicates of events already in the own calendar, and unreadable ones',
  }),
  duplicates: Type.Integer({
    description:
      'Events whose UID (and RECURRENCE-ID) the own calendar already holds, or that this server exported: skipped',
  }),
  skippedEvents: Type.Array(eventWithReason('Why the event could not be read'), {
    description: 'The first 20 unreadable events, each with its reason (the rest of the file was imported)',
  }),
  importedOnce: Type.Array(eventWithReason('Why its repeat rule cannot be used'), {
    description:
      'The first 20 events whose repeat rule (RRULE) cannot be used here: each was imported as its first ' +
      'occurrence (counted in created), and its changed occurrences as events of their own',
  }),
});

/** The multipart body of POST /events/import: documented in the OpenAPI document, read and checked by the service. */
export const IcsUpload = Type.Object(
  { file: Type.String({ format: 'binary', description: 'An .ics file, at most 1 MiB' }) },
  { additionalProperties: false },
);
