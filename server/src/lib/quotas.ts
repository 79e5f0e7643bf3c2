import { HttpError } from './http-errors.js';

/** How many records of each kind one account may keep: far above real use, and a bound on every per-user read. */
export interface RecordQuotas {
  events: number;
  tasks: number;
  categories: number;
  timeEntries: number;
}

/**
 * 20,000 tasks is 20 a day for almost three years, 20,000 events four imports at their 5,000-event cap, 500 categories
 * more than a tag list can show. A list read returns at most the quota of its kind, bounding what one request reads.
 */
export const RECORD_QUOTAS: RecordQuotas = {
  events: 20_000,
  tasks: 20_000,
  categories: 500,
  // 50,000 entries is 45 timer runs a day for three years.
  timeEntries: 50_000,
};

/** Rows per page when an export reads a whole kind of record: one query each, so memory stays at one page. */
export const EXPORT_PAGE_SIZE = 1000;

const count = (value: number) => value.toLocaleString('en-US');

/**
 * 409 Conflict: the request is valid but conflicts with the state of the account, which the user can change
 * (delete some) before sending it again; 403 would say the user may not do this at all.
 */
export function requireRoomFor(kind: keyof RecordQuotas, quotas: RecordQuotas, stored: number): void {
  requireRoom(quotas[kind], stored, kind);
}

/** The same 409 for any bounded kind of record: `what` names it in the plural ("repeating events"). */
export function requireRoom(limit: number, stored: number, what: string): void {
  if (stored < limit) return;
  throw new HttpError(
    409,
    `You have reached the limit of ${count(limit)} ${what}; delete some before adding more`,
  );
}

/** An import is refused whole, before it writes anything, when its new events would pass the quota. */
export function requireRoomForImport(quotas: RecordQuotas, stored: number, adding: number): void {
  if (adding === 0 || stored + adding <= quotas.events) return;
  throw new HttpError(
    409,
    `This import would pass the limit of ${count(quotas.events)} events (you have ${count(stored)}; it adds ${count(adding)}); delete some before importing`,
  );
}
