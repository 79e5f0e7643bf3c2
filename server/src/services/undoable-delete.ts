import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static, TSchema } from '@sinclair/typebox';
import { isUniqueViolation } from '../lib/db-errors.js';
import { HttpError, notFound } from '../lib/http-errors.js';
import { requireRoomFor } from '../lib/quotas.js';
import { signedInUser } from '../plugins/app/authentication.js';
import type { TrashedRow, TrashKind } from '../plugins/app/trash-repository.js';
import { IdParams, NoBody, bearerAuth } from '../schemas/common.js';
import { DeleteOccurrenceQuery } from '../schemas/series.js';
import type { SeriesDeletes } from './series-edits.js';
import { fieldError } from '../lib/input-rules.js';
import type { FastifyInstance } from 'fastify';

/** The kinds with a DELETE and restore route of this shape (calendars and time entries have their own). */
type RecordKind = Exclude<TrashKind, 'calendars' | 'timeEntries'>;

export interface UndoableDeleteOptions<Kind extends RecordKind> {
  kind: Kind;
  /** 'task', 'event', 'category': the word the messages use. */
  noun: string;
  notFoundMessage: string;
  /** The JSON a read of the kind answers, and its schema. */
  toJson: (row: TrashedRow<Kind>) => unknown;
  response: TSchema;
  /** Checks a delete must pass (an event of a subscribed calendar cannot be deleted here). */
  beforeDelete?: (userId: string, id: string) => Promise<void>;
  /** Checks a restore must pass besides the quota (a category's name still unique). */
  beforeRestore?: (userId: string, row: TrashedRow<Kind>) => Promise<void>;
  /**
   * For kinds that repeat: deleting an occurrence (by its id, or a series' id with ?occurrence=) skips it, deleting
   * a series deletes it with its overrides, and restoring a skipped occurrence brings it back.
   */
  series?: (app: FastifyInstance) => SeriesDeletes;
}

/**
 * DELETE /{id} and POST /{id}/restore for one kind of record: the delete keeps the record whole for a while (the trash
 * repository), and the restore puts it back with its own id, so a client's "Undo" returns exactly what was deleted.
 * One pattern for tasks, events and categories.
 */
export function undoableDeleteRoutes<Kind extends RecordKind>(
  options: UndoableDeleteOptions<Kind>,
): FastifyPluginAsyncTypebox {
  const { kind, noun, notFoundMessage } = options;
  return async (app) => {
    const tags = [kind];
    app.delete(
      '/:id',
      {
        config: { notFoundMessage },
        schema: {
          tags,
          summary: `Delete a ${noun}; POST /${kind}/{id}/restore undoes it for an hour`,
          ...(options.series && {
            description: `An occurrence's id (or a series' id with ?occurrence=<its original start>) skips that occurrence of its series, or with ?scope=following deletes it and the later ones, with ?scope=all the whole series; a series' id without it deletes the series with every occurrence. Each is one transaction. Undo (POST /{the id deleted}/restore) brings back what was deleted, a series with its edited occurrences`,
            querystring: DeleteOccurrenceQuery,
          }),
          security: bearerAuth,
          params: IdParams,
          body: NoBody,
          response: { 204: { type: 'null' } },
        },
      },
      async (request, reply) => {
        const user = signedInUser(request);
        const now = app.now();
        await options.beforeDelete?.(user.id, request.params.id);
        if (options.series) {
          const series = options.series(app);
          const { occurrence, scope } = request.query as Static<typeof DeleteOccurrenceQuery>;
          const named = await series.resolve(user.id, request.params.id);
          if (!named) throw notFound(notFoundMessage);
          const { id } = request.params;
          if (named.is === 'single') {
            if (occurrence !== undefined) {
              throw fieldError(
                'occurrence',
                `occurrence names an occurrence of a series: this ${noun} does not repeat`,
              );
            }
          } else if (occurrence !== undefined || named.is === 'occurrence') {
            const start = named.is === 'occurrence' ? named.start : Date.parse(occurrence!);
            if (Number.isNaN(start)) throw fieldError('occurrence', 'occurrence must be an ISO date-time');
            const none = () =>
              notFound(`No occurrence of this ${noun} starts at ${new Date(start).toISOString()}`);
            if (scope === 'all') {
              await app.trashRepository.discard(kind, user.id, named.seriesId, now, {
                withOverrides: true,
                key: id,
              });
              return reply.code(204).send();
            }
            if (scope === 'following') {
              const deleted = await series.deleteFollowing(user.id, named.seriesId, start, (partId, trx) =>
                app.trashRepository.discard(kind, user.id, partId, now, {
                  withOverrides: true,
                  key: id,
                  trx,
                }),
              );
              if (!deleted) throw none();
              return reply.code(204).send();
            }
            // An edited occurrence goes to the trash first, so that Undo brings its state back.
            if (named.is === 'occurrence' && named.saved) {
              await app.trashRepository.discard(kind, user.id, id, now);
            }
            if (!(await series.skip(user.id, named.seriesId, start))) throw none();
            return reply.code(204).send();
          } else if (scope === 'this' || scope === 'following') {
            throw fieldError(
              'scope',
              `scope '${scope}' names an occurrence: send the occurrence's id, or ?occurrence=<its start>`,
            );
          }
        }
        const deleted = await app.trashRepository.discard(kind, user.id, request.params.id, now, {
          withOverrides: options.series !== undefined,
        });
        if (!deleted) throw notFound(notFoundMessage);
        return reply.code(204).send();
      },
    );

    app.post(
      '/:id/restore',
      {
        config: { notFoundMessage },
        schema: {
          tags,
          summary: `Undo the delete of a ${noun}: it comes back whole, with its id`,
          description:
            "Within an hour of the delete, while the account's trash still holds it (its 100 latest deletes, 1 MiB at most as stored, the oldest dropped first; a delete larger than that alone cannot be undone). 404 when there is nothing to undo; 409 when the record would break a limit, as creating it would, or clash with one made since.",
          security: bearerAuth,
          params: IdParams,
          body: NoBody,
          response: { 200: options.response },
        },
      },
      async (request) => {
        const user = signedInUser(request);
        const { id } = request.params;
        const trashed = await app.trashRepository.find(kind, user.id, id, app.now());
        const nothingToUndo = `Nothing to undo: this ${noun} was not deleted in the last hour`;
        if (trashed) {
          const repository = {
            tasks: app.tasksRepository,
            events: app.eventsRepository,
            categories: app.categoriesRepository,
          }[kind];
          // The series' overrides count too: the quota is checked as if they were one row each added now. Checked
          // before anything changes, so a refused Undo leaves an edited occurrence skipped, not back as the plain one.
          const stored = (await repository.countOf(user.id)) + trashed.dependents.length;
          requireRoomFor(kind, app.config.quotas, stored);
          // A series comes back only within the series an account may keep, an occurrence within its series' bound.
          if ('requireRoomFor' in repository) {
            await repository.requireRoomFor(trashed.row as Parameters<typeof repository.requireRoomFor>[0]);
          }
          await options.beforeRestore?.(user.id, trashed.row);
        }
        const skipped = options.series ? await options.series(app).unskip(user.id, id) : null;
        if (skipped && !trashed) return options.toJson(skipped as TrashedRow<Kind>);
        if (!trashed) throw notFound(nothingToUndo);
        const { row } = trashed;
        try {
          if (!(await app.trashRepository.restore(kind, user.id, id, trashed))) throw notFound(nothingToUndo);
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          throw new HttpError(409, `This ${noun} cannot come back: one like it has been added since`);
        }
        return options.toJson(row);
      },
    );
  };
}
