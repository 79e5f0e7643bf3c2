import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EventRow, UserRow } from '../db/schema.js';
import { HttpError } from '../lib/http-errors.js';
import { ownEventIdOf } from '../lib/ics/conventions.js';
import { InvalidCalendarError, type ImportedEvent } from '../lib/ics/parse.js';
import { newId } from '../lib/ids.js';
import { requireRoomForImport } from '../lib/quotas.js';

export interface ImportSummary {
  created: number;
  updated: number;
  skipped: number;
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
        content = (await part.toBuffer()).toString('utf8');
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

function isUnchanged(existing: EventRow, imported: ImportedEvent): boolean {
  return (
    existing.title === imported.title &&
    existing.startAt === imported.startAt &&
    existing.endAt === imported.endAt &&
    existing.allDay === (imported.allDay ? 1 : 0)
  );
}

/**
 * Reads the calendar in the app's parse pool and merges it into the user's events: an event already imported (same
 * UID and RECURRENCE-ID) or exported from here ('<id>@time-wallet') is updated when it changed and skipped when it did
 * not, any other is created. All or nothing: 409 when the new events would pass the account's quota.
 */
export async function importCalendar(
  app: FastifyInstance,
  user: UserRow,
  upload: { text: string; timeZone: string; signal: AbortSignal },
): Promise<ImportSummary> {
  const now = app.now();
  let parsed;
  try {
    parsed = await app.icsParsePool.parse(
      user.id,
      { text: upload.text, timeZone: upload.timeZone, now },
      upload.signal,
    );
  } catch (error) {
    if (error instanceof InvalidCalendarError) throw new HttpError(400, error.message);
    throw error;
  }

  const ownIds = parsed.events
    .map((event) => ownEventIdOf(event.key))
    .filter((id): id is string => id !== null);
  const [byKey, ownEvents] = await Promise.all([
    app.eventsRepository.findByIcsKeys(
      user.id,
      parsed.events.map((event) => event.key),
    ),
    Promise.all(ownIds.map((id) => app.eventsRepository.find(user.id, id))),
  ]);
  const existingByKey = new Map(byKey.map((event) => [event.icsKey!, event]));
  const existingById = new Map(
    ownEvents.filter((event) => event !== undefined).map((event) => [event.id, event]),
  );

  const created: EventRow[] = [];
  const updated: EventRow[] = [];
  let skipped = parsed.skipped;
  for (const imported of parsed.events) {
    const ownId = ownEventIdOf(imported.key);
    const existing = existingByKey.get(imported.key) ?? (ownId ? existingById.get(ownId) : undefined);
    if (existing && isUnchanged(existing, imported)) {
      skipped += 1;
    } else if (existing) {
      updated.push({
        ...existing,
        title: imported.title,
        startAt: imported.startAt,
        endAt: imported.endAt,
        allDay: imported.allDay ? 1 : 0,
        updatedAt: now,
      });
    } else {
      created.push({
        id: newId(),
        userId: user.id,
        title: imported.title,
        startAt: imported.startAt,
        endAt: imported.endAt,
        allDay: imported.allDay ? 1 : 0,
        categoryId: null,
        source: 'ics',
        icsKey: imported.key,
        createdAt: now,
        updatedAt: now,
      });
    }
  }
  requireRoomForImport(app.config.quotas, await app.eventsRepository.countOf(user.id), created.length);
  await app.eventsRepository.applyImport(user.id, created, updated);
  return { created: created.length, updated: updated.length, skipped };
}
