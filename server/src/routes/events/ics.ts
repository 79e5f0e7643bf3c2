import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { calendarChunks } from '../../lib/ics/export.js';
import { signedInUser } from '../../plugins/app/authentication.js';
import { bearerAuth, errorResponses } from '../../schemas/common.js';
import { IcsUpload, ImportResult } from '../../schemas/event.js';
import { abortedOnDisconnect, importCalendar, readIcsUpload } from '../../services/ics-import.js';
import { exportableEventPages } from '../../services/ics-export.js';

const icsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['events'];

  app.post(
    '/import',
    {
      // The upload is a stream the service reads part by part, never a parsed body the schema could check: it is
      // documented here and enforced by readIcsUpload (one file, in the field "file", within the size limit).
      config: { multipartBody: IcsUpload },
      schema: {
        tags,
        summary:
          'Import an .ics file (multipart field "file", at most 1 MiB); importing the same file again changes nothing',
        description:
          "Copies the file into the own calendar: an event whose UID (plus RECURRENCE-ID) is already there, or that this server exported, is a duplicate, skipped and counted in duplicates, never merged; a series already there brings none of its overrides. An RRULE event is stored as one series (its EXDATEs skipped, its RECURRENCE-ID overrides kept as its occurrences, its RDATEs as events of their own) and expanded on every read. Lenient: a start without an end is a point in time (a date, the whole day); an event that cannot be read (a rule that repeats more than daily, could never produce an occurrence or that RFC 5545 forbids, a start that cannot be read, a VEVENT cut off) is skipped and listed with its reason (the first 20 in skippedEvents); the rest imports. 400 when the file holds no event that can be read. Files are read one at a time per account: 429 when the account already has two waiting, 503 when the server has too many waiting (both with Retry-After). 409 when the new events would pass the account's event quota (nothing is imported).",
        security: bearerAuth,
        consumes: ['multipart/form-data'],
        response: { 200: ImportResult, ...errorResponses(400, 401, 409, 413, 415, 429, 503) },
      },
    },
    async (request, reply) => {
      const text = await readIcsUpload(request);
      return importCalendar(app, signedInUser(request), {
        text,
        timeZone: request.timeZone,
        signal: abortedOnDisconnect(request, reply),
      });
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
      const calendar = calendarChunks(exportableEventPages(app, user.id), request.timeZone, app.now());
      return reply
        .type('text/calendar; charset=utf-8')
        .header('content-disposition', 'attachment; filename="time-wallet.ics"')
        .send(Readable.from(calendar, { objectMode: false }));
    },
  );
};

export default icsRoutes;
