import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../lib/http-errors.js';
import { requireDayRange, MAX_RANGE_DAYS } from '../../lib/input-rules.js';
import { startOfLocalDay } from '../../lib/time-zone.js';
import { signedInUser } from '../../plugins/app/authentication.js';
import { IdParams, NoBody, bearerAuth, errorResponses } from '../../schemas/common.js';
import { DayRangeQuery } from '../../schemas/event.js';
import { DEFINITIONS } from '../../schemas/ledger.js';
import {
  CreateTimeEntryBody,
  TimeEntryList,
  TimeEntryRef,
  UpdateTimeEntryBody,
  toTimeEntryJson,
} from '../../schemas/time-entry.js';
import {
  TIME_ENTRY_NOT_FOUND,
  createEntry,
  listEntries,
  requireRestorable,
  recountTracked,
  updateEntry,
} from '../../services/time-entries.js';
import { stopTimer } from '../../services/timer.js';

const timeEntriesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['time-entries'];

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: `The tracked time overlapping the local days from (inclusive) to (exclusive), at most ${MAX_RANGE_DAYS} days, by start`,
        description: DEFINITIONS.tracked,
        security: bearerAuth,
        querystring: DayRangeQuery,
        response: { 200: TimeEntryList },
      },
    },
    async (request) => {
      const { from, to } = requireDayRange(request.query.from, request.query.to);
      const zone = request.timeZone;
      const rows = await listEntries(
        app,
        signedInUser(request).id,
        startOfLocalDay(zone, from),
        startOfLocalDay(zone, to),
      );
      return { entries: rows.map(toTimeEntryJson) };
    },
  );

  app.post(
    '/',
    {
      config: { notFoundMessage: 'Task not found' },
      schema: {
        tags,
        summary: "Add tracked time to a task by hand (source 'manual')",
        description:
          "start before end, at most 24 hours apart, ending no later than now; kept to the second. 409 when it overlaps another of the person's entries (the message names that task), or past the limit of entries.",
        security: bearerAuth,
        body: CreateTimeEntryBody,
        response: { 201: TimeEntryRef, ...errorResponses(400, 404, 409) },
      },
    },
    async (request, reply) => {
      const row = await createEntry(app, signedInUser(request), request.timeZone, request.body);
      return reply.code(201).send(toTimeEntryJson(row));
    },
  );

  app.patch(
    '/:id',
    {
      config: { notFoundMessage: TIME_ENTRY_NOT_FOUND },
      schema: {
        tags,
        summary: 'Move, trim or reassign an entry (it becomes manual)',
        description:
          "A running entry's start may move and its task change; its end comes from stopping the timer. The same rules as POST: 400 for a bad span, 409 for an overlap.",
        security: bearerAuth,
        params: IdParams,
        body: UpdateTimeEntryBody,
        response: { 200: TimeEntryRef, ...errorResponses(400, 404, 409) },
      },
    },
    async (request) =>
      toTimeEntryJson(
        await updateEntry(app, signedInUser(request), request.timeZone, request.params.id, request.body),
      ),
  );

  app.delete(
    '/:id',
    {
      config: { notFoundMessage: TIME_ENTRY_NOT_FOUND },
      schema: {
        tags,
        summary: 'Delete an entry; POST /time-entries/{id}/restore undoes it for an hour',
        description: "A running entry's timer stops at the delete, then the entry goes.",
        security: bearerAuth,
        params: IdParams,
        body: NoBody,
        response: { 204: { type: 'null' } },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const { id } = request.params;
      const now = app.now();
      const deleted = await app.db.transaction().execute(async (trx) => {
        const entry = await trx
          .selectFrom('timeEntries')
          .select(['taskId', 'endAt'])
          .where('userId', '=', user.id)
          .where('id', '=', id)
          .executeTakeFirst();
        if (!entry) return false;
        if (entry.endAt === null) await stopTimer(app, user.id, entry.taskId, trx);
        const discarded = await app.trashRepository.discard('timeEntries', user.id, id, now, { trx });
        await recountTracked(trx, user.id, [entry.taskId]);
        return discarded;
      });
      if (!deleted) throw notFound(TIME_ENTRY_NOT_FOUND);
      return reply.code(204).send();
    },
  );

  app.post(
    '/:id/restore',
    {
      config: { notFoundMessage: TIME_ENTRY_NOT_FOUND },
      schema: {
        tags,
        summary: 'Undo the delete of an entry: it comes back with its id and times',
        description:
          '404 when there is nothing to undo (after an hour, or its task is gone); 409 when time tracked since overlaps it.',
        security: bearerAuth,
        params: IdParams,
        body: NoBody,
        response: { 200: TimeEntryRef, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const { id } = request.params;
      const nothing = 'Nothing to undo: this time entry was not deleted in the last hour';
      const trashed = await app.trashRepository.find('timeEntries', user.id, id, app.now());
      if (!trashed) throw notFound(nothing);
      const restored = await app.trashRepository.restore('timeEntries', user.id, id, trashed, (trx) =>
        requireRestorable(app, trx, user, request.timeZone, trashed.row),
      );
      if (!restored) throw notFound(nothing);
      return toTimeEntryJson(trashed.row);
    },
  );
};

export default timeEntriesRoutes;
