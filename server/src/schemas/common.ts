import { Type, type Static } from '@sinclair/typebox';

export const ErrorResponse = Type.Object(
  {
    message: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
  },
  { $id: 'ErrorResponse' },
);

/** A record's id: opaque, at most 100 characters, no control characters. */
export const RecordId = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[^\\u0000-\\u001f\\u007f]+$',
});

// Ids are opaque; one that could never have been issued (control characters, over-long) answers 404 like a missing one.
export const IdParams = Type.Object({ id: RecordId }, { additionalProperties: false });

/** The body of a route that reads none: nothing, or an empty JSON object. Any field is refused like everywhere else. */
export const NoBody = Type.Union([Type.Null(), Type.Object({}, { additionalProperties: false })], {
  errorMessage: 'must be empty: this request takes no fields',
});

export const LocalDate = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  errorMessage: 'must be a date in YYYY-MM-DD format',
  examples: ['2026-03-08'],
});

/** The HH:MM rule; without `examples`, which OpenAPI 3.0 does not allow inside an anyOf branch. */
export const HHMM_RULE = {
  pattern: '^([01]\\d|2[0-3]):[0-5]\\d$',
  errorMessage: 'must be a time in HH:MM format (00:00 to 23:59)',
};

export const HHMM = Type.String({ ...HHMM_RULE, examples: ['09:30'] });

/** An ISO 8601 date-time; without an offset it is read in the request's time zone. */
export const DateTime = Type.String({
  minLength: 10,
  maxLength: 40,
  description: 'ISO 8601 date-time, e.g. 2026-03-08T14:00:00.000Z',
  examples: ['2026-03-08T14:00:00.000Z'],
});

export const Color = Type.String({
  pattern: '^#[0-9A-Fa-f]{6}$',
  errorMessage: 'must be a colour in #RRGGBB format',
  examples: ['#2D967C'],
});

export const TIME_ZONE_HEADER = 'x-time-zone';

export const ErrorResponseRef = Type.Unsafe<Static<typeof ErrorResponse>>({ $ref: 'ErrorResponse#' });

/** Response schemas for the error statuses a route answers with: each is the error handler's {message, errors?}. */
export function errorResponses<Status extends number>(
  ...statuses: Status[]
): Record<Status, typeof ErrorResponseRef> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorResponseRef])) as Record<
    Status,
    typeof ErrorResponseRef
  >;
}

export const bearerAuth = [{ bearerAuth: [] }];
