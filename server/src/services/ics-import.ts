import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EventRow, UserRow } from '../db/schema.js';
import { HttpError } from '../lib/http-errors.js';
import { ownEventIdOf } from '../lib/ics/conventions.js';
import {
  InvalidCalendarError,
  PARSE_LIMITS,
  uidOfKey,
  unfoldedText,
  type ImportedEvent,
  type ParsedCalendar,
  type SkippedEvent,
} from '../lib/ics/parse.js';
import { occurrenceId } from '../lib/recurrence.js';
import { newId } from '../lib/ids.js';
import { requireRoomForImport } from '../lib/quotas.js';
import { yieldPoint } from '../lib/yield-point.js';
import { ownCalendarId } from '../plugins/app/calendars-repository.js';
import { SINGLE_ITEM, masterColumns } from './series.js';

export interface ImportSummary {
  created: number;
  /** Always 0: an import never changes what is stored (kept in the answer's shape for SPEC's clients). */
  updated: number;
  /** Events not imported: duplicates and unreadable ones. */
  skipped: number;
  duplicates: number;
  skippedEvents: SkippedEvent[];
  /** Series imported as their first occurrence, their rule being unusable here (the first few, with why). */
  importedOnce: SkippedEvent[];
}

/**
 * The text of the upload's one part, a file in the field "file". Another field or file is refused, as an unknown JSON
 * field is on every other route; the multipart plugin's limits (size, one file, parts) answer with their own errors.
 */
export async function readIcsUpload(request: FastifyRequest): Promise<string> {
  if (!request.isMultipart())
    throw new HttpError(415, 'Send the .ics file as multipart/form-data in the field "file"');
  let content: string | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file' && part.fieldname === 'file') {
        content = unfoldedText(await part.toBuffer());
      } else if (part.type === 'file') {
        throw new HttpError(400, 'Attach the .ics file in the field "file"');
      } else {
        throw new HttpError(400, 'The upload takes one field only: the .ics file in the field "file"');
      }
    }
  } catch (error) {
    if (error instanceof HttpError || typeof (error as { statusCode?: unknown }).statusCode === 'number')
      throw error;
    // The multipart parser's own errors (no boundary, a body cut short) describe the upload, not a server fault.
    throw new HttpError(400, 'The upload is not a valid multipart/form-data body');
  }
  if (content === undefined) throw new HttpError(400, 'Attach the .ics file in the field "file"');
  return content;
}

/**
 * Aborts when the client goes away before its answer is sent: a queued import then leaves the queue, a running one
 * has its worker terminated. 499 is nginx's code for a request its client closed; nobody reads it but the log.
 */
export function abortedOnDisconnect(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const disconnected = () => controller.abort(new HttpError(499, 'The client closed the connection'));
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) disconnected();
  });
  if (request.raw.socket?.destroyed) disconnected();
  return controller.signal;
}

/** A calendar file read into rows of one calendar, and the events that could not be stored, with why. */
export interface CalendarRows {
  /** By UID key; an override's row has its occurrence's id and follows its master. */
  rows: Map<string, EventRow>;
  skipped: number;
  skippedEvents: SkippedEvent[];
  /** Series stored as their first occurrence only, their rule being unusable here: the first reportedSkips, with why. */
  importedOnce: SkippedEvent[];
}

/**
 * The rows a parsed calendar becomes in `calendarId`: a series is one master row (expanded on reads), an override the
 * row of its occurrence (id = the occurrence's id), anything else a single event. `idOf` gives the id a master or
 * single event gets (a new one, or, on a refresh, the one its key had). `keep` says which UIDs to store at all.
 */
export async function calendarRows(
  parsed: ParsedCalendar,
  target: { userId: string; calendarId: string; timeZone: string; now: number },
  idOf: (key: string) => string,
  keep: (imported: ImportedEvent) => boolean = () => true,
): Promise<CalendarRows> {
  const result: CalendarRows = {
    rows: new Map(),
    skipped: parsed.skipped,
    skippedEvents: [...parsed.skippedEvents],
    importedOnce: [],
  };
  const report = (list: SkippedEvent[], imported: ImportedEvent, reason: string) => {
    if (list.length < PARSE_LIMITS.reportedSkips) {
      list.push({ uid: uidOfKey(imported.key).slice(0, 200), summary: imported.title, reason });
    }
  };
  const skip = (imported: ImportedEvent, reason: string) => {
    result.skipped += 1;
    report(result.skippedEvents, imported, reason);
  };
  const row = (imported: ImportedEvent, id: string, columns: Partial<EventRow>): EventRow => ({
    id,
    userId: target.userId,
    calendarId: target.calendarId,
    title: imported.title,
    allDay: imported.allDay ? 1 : 0,
    categoryId: null,
    source: 'ics',
    icsKey: imported.key,
    ...SINGLE_ITEM,
    startAt: imported.startAt,
    endAt: imported.endAt,
    ...columns,
    createdAt: target.now,
    updatedAt: target.now,
  });
  const letOthersRun = yieldPoint();
  // Series and single events first: an override needs its master's id.
  const masters = new Map<string, EventRow>();
  const overridden = new Set<string>();
  for (const imported of parsed.events) {
    if (imported.recurrenceAt !== null || !keep(imported)) continue;
    await letOthersRun();
    let series = {};
    let ruleProblem = imported.ruleProblem;
    try {
      if (imported.series) {
        series = await masterColumns(
          imported.series.rrule,
          {
            startAt: imported.startAt,
            durationMs: imported.endAt - imported.startAt,
            allDay: imported.allDay,
            zone: imported.series.zone || target.timeZone,
          },
          [...new Set(imported.series.exdates)].sort((a, b) => a - b),
        );
      }
    } catch (error) {
      // A series the rule checks refuse here (too costly to read, say) is kept as its first occurrence, as is one
      // whose rule fails in a way no check names: a file never answers 500 for one event.
      ruleProblem = error instanceof HttpError ? error.message : 'Its repeat rule cannot be stored';
    }
    const stored = row(imported, idOf(imported.key), series);
    result.rows.set(imported.key, stored);
    if (ruleProblem === undefined) {
      if (imported.series) masters.set(uidOfKey(imported.key), stored);
    } else report(result.importedOnce, imported, ruleProblem);
  }
  for (const imported of parsed.events) {
    if (imported.recurrenceAt === null || !keep(imported)) continue;
    const master = masters.get(uidOfKey(imported.key));
    if (!master) {
      // A changed occurrence of a series kept as its first occurrence: an event of its own.
      result.rows.set(imported.key, row(imported, idOf(imported.key), {}));
      continue;
    }
    const id = occurrenceId(master.id, imported.recurrenceAt);
    if (overridden.has(id)) {
      skip(imported, 'Another event in the file already changes the same occurrence');
      continue;
    }
    overridden.add(id);
    result.rows.set(
      imported.key,
      row(imported, id, {
        rrule: master.rrule,
        seriesId: master.id,
        recurrenceAt: imported.recurrenceAt,
      }),
    );
  }
  return result;
}

/** Reads calendar text in the app's parse pool (a worker thread, one at a time per account). */
export async function parseInPool(
  app: FastifyInstance,
  userId: string,
  job: { text: string; timeZone: string },
  signal: AbortSignal,
): Promise<ParsedCalendar> {
  try {
    return await app.icsParsePool.parse(userId, { ...job, now: app.now() }, signal);
  } catch (error) {
    if (error instanceof InvalidCalendarError) throw new HttpError(400, error.message);
    throw error;
  }
}

/**
 * Copies a calendar file into the person's own calendar, as Thunderbird's import does: an event whose UID (and
 * RECURRENCE-ID) is already there is a duplicate, skipped and counted, never merged; a series already there brings
 * none of its overrides either. This server's own export comes back by id ('<id>@time-wallet'). Nothing stored is
 * changed, so an event edited or split here is never touched. All or nothing: 409 past the account's quota.
 */
export async function importCalendar(
  app: FastifyInstance,
  user: UserRow,
  upload: { text: string; timeZone: string; signal: AbortSignal },
): Promise<ImportSummary> {
  const parsed = await parseInPool(app, user.id, upload, upload.signal);
  const calendarId = ownCalendarId(user.id);
  const [keys, ownIds] = await Promise.all([
    app.eventsRepository.keysIn(
      calendarId,
      parsed.events.map((event) => event.key),
    ),
    app.eventsRepository.idsIn(
      user.id,
      calendarId,
      parsed.events.map((event) => ownEventIdOf(event.key)).filter((id) => id !== null),
    ),
  ]);
  const isStored = (key: string) => keys.has(key) || ownIds.has(ownEventIdOf(key) ?? '');
  // A UID whose series or single event is here already is one calendar object: all of it is a duplicate.
  const storedUids = new Set(
    parsed.events
      .filter((event) => event.recurrenceAt === null && isStored(event.key))
      .map((event) => uidOfKey(event.key)),
  );
  const duplicate = (event: ImportedEvent) => storedUids.has(uidOfKey(event.key)) || isStored(event.key);
  const duplicates = parsed.events.filter(duplicate).length;
  const copied = await calendarRows(
    parsed,
    { userId: user.id, calendarId, timeZone: upload.timeZone, now: app.now() },
    () => newId(),
    (event) => !duplicate(event),
  );
  const created = [...copied.rows.values()];
  requireRoomForImport(app.config.quotas, await app.eventsRepository.countOf(user.id), created.length);
  await app.eventsRepository.writeCalendar(user.id, { created });
  return {
    created: created.length,
    updated: 0,
    skipped: copied.skipped + duplicates,
    duplicates,
    skippedEvents: copied.skippedEvents,
    importedOnce: copied.importedOnce,
  };
}
