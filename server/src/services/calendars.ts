import type { FastifyInstance } from 'fastify';
import { PostgresAdapter, type Kysely } from 'kysely';
import type { CalendarRow, Database, EventRow, UserRow } from '../db/schema.js';
import { isUniqueViolation } from '../lib/db-errors.js';
import { HttpError } from '../lib/http-errors.js';
import { unfoldedText } from '../lib/ics/parse.js';
import { newId } from '../lib/ids.js';
import { fieldError } from '../lib/input-rules.js';
import { OutboundError, fetchCalendar, normalizeSubscriptionUrl } from '../lib/outbound/fetch-calendar.js';
import { CALENDAR_NAME_MAX_LENGTH, type RefreshResult } from '../schemas/calendar.js';
import { calendarRows, parseInPool } from './ics-import.js';

// Subscriptions mirror a calendar kept elsewhere (docs/decisions/0003-import-copies-subscriptions-mirror.md): each
// refresh fetches the source (conditionally), parses it whole, then replaces the calendar's events in one transaction.
// Events keep their ids across refreshes by UID key, so a client showing one still finds it; they are never merged
// with anything made here, and never edited here (a copy in the own calendar is).

export const SUBSCRIPTION_LIMITS = { perUser: 20 } as const;

/** Colours a new subscription takes in turn when none is given. */
const SUBSCRIPTION_COLORS = ['#0d9488', '#9333ea', '#ea580c', '#db2777', '#65a30d', '#0891b2'];

/** How many due subscriptions one scan sends at most; the rest are due at the next tick. */
const DUE_PER_SCAN = 100;

export const REFRESH_JOB = 'subscription-refresh';

const unchanged: RefreshResult = { created: 0, updated: 0, deleted: 0, unchanged: true };

/** The columns a refresh compares: an event whose columns all match its last copy is left as it is. */
const COMPARED = [
  'id',
  'title',
  'startAt',
  'endAt',
  'allDay',
  'rrule',
  'exdates',
  'seriesZone',
  'occurrenceMs',
  'seriesId',
  'recurrenceAt',
] as const satisfies readonly (keyof EventRow)[];

const sameEvent = (a: EventRow, b: EventRow) => COMPARED.every((column) => a[column] === b[column]);

/** The name the source gives itself (X-WR-CALNAME), cut to fit, or its host. */
function nameOf(text: string, url: URL): string {
  const written = /^X-WR-CALNAME(?:;[^:\r\n]*)?:(.*)$/im.exec(text)?.[1];
  const name = (written ?? '').replace(/\\([,;\\])/g, '$1').trim() || url.hostname;
  return name.slice(0, CALENDAR_NAME_MAX_LENGTH);
}

/** The source's calendar text, or a failure as an OutboundError (never thrown past the caller's catch). */
async function fetched(app: FastifyInstance, calendar: Pick<CalendarRow, 'url' | 'etag' | 'lastModified'>) {
  return fetchCalendar(calendar.url!, {
    allowPrivateHosts: app.config.subscriptions.allowPrivateHosts,
    timeoutMs: app.config.subscriptions.fetchTimeoutMs,
    etag: calendar.etag,
    lastModified: calendar.lastModified,
  });
}

/** Parses a source's text as a subscription's: a file that is no calendar says so. */
async function parsedSource(app: FastifyInstance, user: UserRow, body: Buffer, signal: AbortSignal) {
  try {
    return await parseInPool(app, user.id, { text: unfoldedText(body), timeZone: user.timeZone }, signal);
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 400) {
      throw new HttpError(422, `This address does not serve a calendar: ${error.message}`);
    }
    throw error;
  }
}

const tooManySubscriptions = () =>
  new HttpError(
    409,
    `You can subscribe to at most ${SUBSCRIPTION_LIMITS.perUser} calendars; remove one to add another`,
  );

/**
 * The subscription limit, counted in the transaction that adds one (after its insert): subscriptions added at once
 * cannot pass it. On PostgreSQL the person's row is locked first, so such transactions count one after another;
 * SQLite has one writer at a time.
 */
export async function requireRoomForSubscription(trx: Kysely<Database>, userId: string): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  }
  const row = await trx
    .selectFrom('calendars')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('userId', '=', userId)
    .where('kind', '=', 'subscription')
    .executeTakeFirstOrThrow();
  if (Number(row.count) > SUBSCRIPTION_LIMITS.perUser) throw tooManySubscriptions();
}

/** The changes that make a subscription's stored events what its source now says. */
async function mirrorChanges(
  app: FastifyInstance,
  user: UserRow,
  calendarId: string,
  parsed: Awaited<ReturnType<typeof parsedSource>>,
) {
  const stored = await app.eventsRepository.listOfCalendar(user.id, calendarId);
  const byKey = new Map(stored.map((row) => [row.icsKey, row]));
  const now = app.now();
  const { rows } = await calendarRows(
    parsed,
    { userId: user.id, calendarId, timeZone: user.timeZone, now },
    (key) => byKey.get(key)?.id ?? newId(),
  );
  const created: EventRow[] = [];
  const replaced: EventRow[] = [];
  for (const [key, row] of rows) {
    const before = byKey.get(key);
    if (!before) created.push(row);
    else if (!sameEvent(before, row)) replaced.push({ ...row, createdAt: before.createdAt });
  }
  const deleted = stored.filter((row) => row.icsKey === null || !rows.has(row.icsKey)).map((row) => row.id);
  return { created, replaced, deleted };
}

/**
 * Subscribes the person to the calendar at `url`: fetched and parsed before anything is stored, so an address that
 * does not serve a calendar is refused with why (on the field) and nothing is saved.
 */
export async function subscribe(
  app: FastifyInstance,
  user: UserRow,
  body: { url: string; name?: string; color?: string; countsInBudget?: boolean },
  signal: AbortSignal,
): Promise<CalendarRow> {
  let url: URL;
  try {
    url = normalizeSubscriptionUrl(body.url);
  } catch (error) {
    if (error instanceof OutboundError) throw fieldError('url', error.message);
    throw error;
  }
  // Checked now so a full account gets its answer before any fetch, and again where the calendar is written.
  const count = await app.calendarsRepository.countSubscriptions(user.id);
  if (count >= SUBSCRIPTION_LIMITS.perUser) throw tooManySubscriptions();
  let source;
  try {
    source = await fetched(app, { url: body.url.trim(), etag: null, lastModified: null });
  } catch (error) {
    if (error instanceof OutboundError) throw fieldError('url', error.message);
    throw error;
  }
  if (source.status !== 'ok') throw fieldError('url', 'The calendar server answered without a calendar');
  let parsed;
  try {
    parsed = await parsedSource(app, user, source.body, signal);
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 422) throw fieldError('url', error.message);
    throw error;
  }
  const now = app.now();
  const calendar: CalendarRow = {
    id: newId(),
    userId: user.id,
    kind: 'subscription',
    name: body.name?.trim() || nameOf(source.body.toString('utf8', 0, 64 * 1024), url),
    color: body.color ?? SUBSCRIPTION_COLORS[count % SUBSCRIPTION_COLORS.length]!,
    countsInBudget: body.countsInBudget === false ? 0 : 1,
    url: body.url.trim(),
    etag: source.etag,
    lastModified: source.lastModified,
    lastRefreshedAt: now,
    lastError: null,
    nextRefreshAt: now + app.config.subscriptions.refreshMinutes * 60_000,
    feedNonce: null,
    feedTokenHash: null,
    createdAt: now,
    updatedAt: now,
  };
  const { created } = await mirrorChanges(app, user, calendar.id, parsed);
  await app.eventsRepository.writeCalendar(user.id, { created }, async (trx) => {
    await trx.insertInto('calendars').values(calendar).execute();
    await requireRoomForSubscription(trx, user.id);
  });
  return calendar;
}

/**
 * Fetches a subscription again and mirrors it: a 304 (or the same events) changes nothing; a failed fetch, a file that
 * is no calendar or one past a limit keeps the last good events, records why in lastError and answers 422 with it.
 * `conditional: false` fetches whole (an Undo of a removal, whose validators belong to events no longer stored).
 */
export async function refreshSubscription(
  app: FastifyInstance,
  calendar: CalendarRow,
  { conditional = true, signal }: { conditional?: boolean; signal?: AbortSignal } = {},
): Promise<RefreshResult> {
  const user = await app.usersRepository.findById(calendar.userId);
  if (!user || calendar.kind !== 'subscription' || calendar.url === null) return unchanged;
  const now = app.now();
  const next = now + app.config.subscriptions.refreshMinutes * 60_000;
  const succeeded = async (trx: Kysely<Database>, validators: Partial<CalendarRow> = {}) => {
    const updated = await app.calendarsRepository.update(
      user.id,
      calendar.id,
      { ...validators, lastRefreshedAt: now, lastError: null, nextRefreshAt: next },
      trx,
    );
    // Removed while it was being fetched: its new events must not outlive it (the transaction rolls back).
    if (!updated) throw new HttpError(404, 'Calendar not found');
  };
  try {
    const source = await fetched(
      app,
      conditional ? calendar : { url: calendar.url, etag: null, lastModified: null },
    );
    if (source.status === 'not-modified') {
      await succeeded(app.db);
      return unchanged;
    }
    const parsed = await parsedSource(app, user, source.body, signal ?? new AbortController().signal);
    const changes = await mirrorChanges(app, user, calendar.id, parsed);
    await app.eventsRepository.writeCalendar(user.id, changes, (trx) =>
      succeeded(trx, { etag: source.etag, lastModified: source.lastModified }),
    );
    const { created, replaced, deleted } = changes;
    return {
      created: created.length,
      updated: replaced.length,
      deleted: deleted.length,
      unchanged: created.length + replaced.length + deleted.length === 0,
    };
  } catch (error) {
    // Two refreshes of one calendar at once (a click while the background job runs): the first one's events stand.
    if (isUniqueViolation(error)) {
      throw new HttpError(409, 'This calendar is being refreshed already; try again in a moment');
    }
    // Busy (the parse pool's 429/503) is no fault of the source: the refresh is simply tried again later.
    const recorded =
      error instanceof OutboundError ||
      (error instanceof HttpError && (error.statusCode === 409 || error.statusCode === 422));
    // Recorded as lastError, and answered as 422: the source (or its size) is at fault, not this request.
    if (!recorded) throw error;
    await app.calendarsRepository.update(user.id, calendar.id, {
      lastError: error.message,
      nextRefreshAt: next,
    });
    throw new HttpError(422, error.message);
  }
}

/**
 * The background refresh (plugins/app/jobs.ts): every instance's scan sends the due subscriptions, keyed so one waits
 * at most once; the run claims its due time first, so of several instances (or a run sent twice) exactly one fetches.
 */
export function scheduleSubscriptionRefresh(app: FastifyInstance): void {
  app.jobs.handle<{ id: string }>(REFRESH_JOB, async ({ id }) => {
    const calendar = await app.calendarsRepository.findById(id);
    if (!calendar || calendar.nextRefreshAt === null) return;
    const now = app.now();
    const next = now + app.config.subscriptions.refreshMinutes * 60_000;
    if (!(await app.calendarsRepository.claimDue(id, now, next))) return;
    try {
      await refreshSubscription(app, calendar);
    } catch (error) {
      // Recorded on the calendar (lastError) when it is the source's fault, or another refresh got there first (409),
      // or it was removed meanwhile (404); anything else is the job's to log and retry.
      if (!(error instanceof HttpError && [404, 409, 422].includes(error.statusCode))) throw error;
    }
  });
  app.jobs.every(REFRESH_JOB, async () => {
    for (const { id } of await app.calendarsRepository.due(app.now(), DUE_PER_SCAN)) {
      await app.jobs.send(REFRESH_JOB, { id }, { key: id });
    }
  });
}
