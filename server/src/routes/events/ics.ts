import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EventRow } from '../../db/schema.js';
import { HttpError } from '../../lib/http-errors.js';
import { calendarChunks, InvalidCalendarError, ownEventIdOf, type ImportedEvent } from '../../lib/ics.js';
import { newId } from '../../lib/ids.js';
import { requireRoomForImport } from '../../lib/quotas.js';
import { signedInUser } from '../../plugins/app/authentication.js';
import { bearerAuth } from '../../schemas/common.js';
import { ImportResult } from '../../schemas/event.js';

function isUnchanged(existing: EventRow, imported: ImportedEvent): boolean {
  return (
    existing.title === imported.title &&
    existing.startAt === imported.startAt &&
    existing.endAt === imported.endAt &&
    existing.allDay === (imported.allDay ? 1 : 0)
  );
}

/**
 * Aborts when the client goes away before its answer is sent: a queued import then leaves the queue, a running one
 * has its worker terminated. 499 is nginx's code for a request its client closed; nobody reads it but the log.
 */
function abortedOnDisconnect(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const disconnected = () => controller.abort(new HttpError(499, 'The client closed the connection'));
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) disconnected();
  });
  if (request.raw.socket?.destroyed) disconnected();
  return controller.signal;
}

const icsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['events'];

  app.post(
    '/import',
    {
      schema: {
        tags,
        summary:
          'Import an .ics file (multipart field "file", at most 1 MiB); importing the same file again changes nothing',
        description:
          "Events keep their UID (plus RECURRENCE-ID): a re-import updates changed events and skips unchanged ones. RRULE series are expanded one year either side of today, at most 1000 occurrences per series; a rule that can never produce an occurrence, or that RFC 5545 forbids, skips its event. Files are read one at a time per account: 429 when the account already has two waiting, 503 when the server has too many waiting (both with Retry-After). 409 when the new events would pass the account's event quota (nothing is imported).",
        security: bearerAuth,
        consumes: ['multipart/form-data'],
        body: Type.Object({
          file: Type.String({ format: 'binary', description: 'An .ics file, at most 1 MiB' }),
        }),
        response: { 200: ImportResult },
      },
      // The body schema documents the upload; the handler reads and checks the multipart stream itself.
      validatorCompiler: () => () => true,
    },
    async (request, reply) => {
      const user = signedInUser(request);
      if (!request.isMultipart())
        throw new HttpError(415, 'Send the .ics file as multipart/form-data in the field "file"');
      // The file and nothing else: another form field is refused, as an unknown JSON field is on every other route.
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

      const now = app.now();
      let parsed;
      try {
        parsed = await app.icsParsePool.parse(
          user.id,
          { text: content, timeZone: request.timeZone, now },
          abortedOnDisconnect(request, reply),
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
    },
  );

  app.get(
    '/export.ics',
    {
      schema: {
        tags,
        summary: 'All events as an iCalendar file',
        security: bearerAuth,
        produces: ['text/calendar'],
        // Documented as the text it is; the handler sends it as a stream.
        response: { 200: Type.Unsafe<Readable>(Type.String({ description: 'text/calendar' })) },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      // Streamed: events are read a page at a time and written in batches, with turns of the event loop between.
      async function* exportableEvents() {
        for await (const page of app.eventsRepository.pagesByStart(user.id)) {
          yield page.map((event) => ({
            id: event.id,
            title: event.title,
            startAt: event.startAt,
            endAt: event.endAt,
            allDay: event.allDay === 1,
            icsKey: event.icsKey,
          }));
        }
      }
      const calendar = calendarChunks(exportableEvents(), request.timeZone, app.now());
      return reply
        .type('text/calendar; charset=utf-8')
        .header('content-disposition', 'attachment; filename="time-wallet.ics"')
        .send(Readable.from(calendar, { objectMode: false }));
    },
  );
};

export default icsRoutes;
