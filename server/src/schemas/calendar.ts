import { Type, type Static } from '@sinclair/typebox';
import type { CalendarRow } from '../db/schema.js';
import { Color } from './common.js';

export const Calendar = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    kind: Type.Union([Type.Literal('own'), Type.Literal('subscription')]),
    color: Type.String({ description: 'A #rrggbb colour its events are drawn in' }),
    countsInBudget: Type.Boolean({
      description: 'Whether its timed events spend the wallet; the own calendar always counts',
    }),
    url: Type.Optional(Type.String({ description: "A subscription's address (as given, webcal:// kept)" })),
    lastRefreshedAt: Type.Optional(
      Type.String({ description: 'ISO UTC date-time of the last successful fetch of a subscription' }),
    ),
    lastError: Type.Optional(
      Type.String({ description: 'Why the last refresh failed; the last good events are kept meanwhile' }),
    ),
    eventCount: Type.Integer({ description: 'Events and series it holds (a series counts once)' }),
  },
  { $id: 'Calendar' },
);
export type Calendar = Static<typeof Calendar>;
export const CalendarRef = Type.Unsafe<Calendar>({ $ref: 'Calendar#' });

export function toCalendarJson(row: CalendarRow, eventCount: number): Calendar {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    color: row.color,
    countsInBudget: row.countsInBudget === 1,
    ...(row.url !== null ? { url: row.url } : {}),
    ...(row.lastRefreshedAt !== null ? { lastRefreshedAt: new Date(row.lastRefreshedAt).toISOString() } : {}),
    ...(row.lastError !== null ? { lastError: row.lastError } : {}),
    eventCount,
  };
}

export const CALENDAR_NAME_MAX_LENGTH = 100;
const Name = Type.String({ maxLength: CALENDAR_NAME_MAX_LENGTH });

export const CalendarList = Type.Object({ calendars: Type.Array(CalendarRef) });

export const SubscribeBody = Type.Object(
  {
    url: Type.String({
      maxLength: 2000,
      description: 'An http, https or webcal address of an .ics calendar',
    }),
    name: Type.Optional(Name),
    color: Type.Optional(Color),
    countsInBudget: Type.Optional(Type.Boolean({ description: 'Default true' })),
  },
  { additionalProperties: false },
);

export const UpdateCalendarBody = Type.Object(
  { name: Type.Optional(Name), color: Type.Optional(Color), countsInBudget: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

export const RefreshResult = Type.Object({
  created: Type.Integer(),
  updated: Type.Integer(),
  deleted: Type.Integer(),
  unchanged: Type.Boolean({ description: 'True when the source had not changed (304, or the same events)' }),
});
export type RefreshResult = Static<typeof RefreshResult>;

export const FeedUrl = Type.Object({
  url: Type.Union([Type.String(), Type.Null()], {
    description: 'The secret address of the private feed, or null when none is published',
  }),
});
