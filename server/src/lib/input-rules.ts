import { HttpError } from './http-errors.js';
import { isValidLocalDate, parseInstant } from './time-zone.js';

export const TITLE_MAX = 200;

/** A 400 whose message names the problem, with the same text as a field error for forms. */
export function fieldError(field: string, message: string): HttpError {
  return new HttpError(400, message, { errors: [{ field, message }] });
}

export function requireTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed.length === 0) throw fieldError('title', 'Title is required');
  if (trimmed.length > TITLE_MAX) throw fieldError('title', `Title must not exceed ${TITLE_MAX} characters`);
  return trimmed;
}

export function requireCalendarDate(date: string, field = 'date'): string {
  if (!isValidLocalDate(date)) throw fieldError(field, `${field} is not a valid calendar date`);
  return date;
}

export function requireInstant(value: string, field: 'start' | 'end', timeZone: string): number {
  const instant = parseInstant(value, timeZone);
  if (instant === null) throw fieldError(field, `${field} must be an ISO 8601 date-time`);
  return instant;
}
