import { HttpError } from './http-errors.js';
import { isValidLocalDate, localDaysBetween, parseInstant } from './time-zone.js';

import { TITLE_MAX_LENGTH } from '../schemas/product.js';

/** Days outside these bounds are typos, not plans; they would also overflow date arithmetic near year 10000. */
export const EARLIEST_DATE = '1900-01-01';
export const LATEST_DATE = '2999-12-31';
export const EARLIEST_INSTANT = Date.UTC(1900, 0, 1);
export const LATEST_INSTANT = Date.UTC(3000, 0, 1);

/** A 400 whose message names the problem, with the same text as a field error for forms. */
export function fieldError(field: string, message: string): HttpError {
  return new HttpError(400, message, { errors: [{ field, message }] });
}

export function requireTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed.length === 0) throw fieldError('title', 'Title is required');
  if (trimmed.length > TITLE_MAX_LENGTH) {
    throw fieldError('title', `Title must not exceed ${TITLE_MAX_LENGTH} characters`);
  }
  return trimmed;
}

export function requireCalendarDate(date: string, field = 'date'): string {
  if (!isValidLocalDate(date)) throw fieldError(field, `${field} is not a valid calendar date`);
  if (date < EARLIEST_DATE || date > LATEST_DATE) {
    throw fieldError(field, `${field} must be between ${EARLIEST_DATE} and ${LATEST_DATE}`);
  }
  return date;
}

/** The calendar asks a week plus a day; a month view of 6 weeks plus a day asks 43. Two months fit with room. */
export const MAX_RANGE_DAYS = 62;

/** A range of local days, from inclusive to exclusive, checked: `to` after `from`, at most MAX_RANGE_DAYS days. */
export function requireDayRange(from: string, to: string): { from: string; to: string; days: number } {
  requireCalendarDate(from, 'from');
  requireCalendarDate(to, 'to');
  const days = localDaysBetween(from, to);
  if (days <= 0) throw fieldError('to', 'to must be after from');
  if (days > MAX_RANGE_DAYS) {
    throw fieldError(
      'to',
      `The range must not exceed ${MAX_RANGE_DAYS} days: ask for longer periods in parts`,
    );
  }
  return { from, to, days };
}

export function isInstantInRange(instant: number): boolean {
  return instant >= EARLIEST_INSTANT && instant < LATEST_INSTANT;
}

export function requireInstant(value: string, field: 'start' | 'end', timeZone: string): number {
  const instant = parseInstant(value, timeZone);
  if (instant === null) throw fieldError(field, `${field} must be an ISO 8601 date-time`);
  if (!isInstantInRange(instant)) {
    throw fieldError(field, `${field} must be between ${EARLIEST_DATE} and ${LATEST_DATE}`);
  }
  return instant;
}

/**
 * C0 control characters other than tab, line feed and carriage return, and DEL. PostgreSQL cannot store NUL in text
 * at all, and none of the others belongs in a title, a name or a note. A character-code test, because a regular
 * expression that names control characters is exactly what it looks like to a linter: a likely mistake.
 */
export function isForbiddenControlCharacter(code: number): boolean {
  return (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f;
}

export function hasForbiddenControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    if (isForbiddenControlCharacter(text.charCodeAt(index))) return true;
  }
  return false;
}

/** The path ('title', 'items.0.name', 'body') of the first string or key in a parsed JSON value with one. */
export function fieldWithControlCharacter(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return hasForbiddenControlCharacter(value) ? path || 'body' : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = fieldWithControlCharacter(item, path ? `${path}.${index}` : String(index));
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (hasForbiddenControlCharacter(key)) return path || 'body';
      const found = fieldWithControlCharacter(item, path ? `${path}.${key}` : key);
      if (found) return found;
    }
  }
  return null;
}
