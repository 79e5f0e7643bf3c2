import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import { isUniqueViolation } from '../lib/db-errors.js';
import { HttpError, notFound } from '../lib/http-errors.js';
import { requireRoomFor } from '../lib/quotas.js';
import { signedInUser } from '../plugins/app/authentication.js';
import type { TrashedRow, TrashKind } from '../plugins/app/trash-repository.js';
import { IdParams, NoBody, bearerAuth } from '../schemas/common.js';

export interface UndoableDeleteOptions<Kind extends TrashKind> {
  kind: Kind;
  /** 'task', 'event', 'category': the word the messages use. */
  noun: string;
  notFoundMessage: string;
  /** The JSON a read of the kind answers, and its schema. */
  toJson: (row: TrashedRow<Kind>) => unknown;
  response: TSchema;
  /** Checks a restore must pass besides the quota (a category's name still unique). */
  beforeRestore?: (userId: string, row: TrashedRow<Kind>) => Promise<void>;
}

/**
 * DELETE /{id} and POST /{id}/restore for one kind of record: the delete keeps the record whole for a while (the trash
 * repository), and the restore puts it back with its own id, so a client's "Undo" returns exactly what was deleted.
 * One pattern for tasks, events and categories.
 */
export function undoableDeleteRoutes<Kind extends TrashKind>(
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
          security: bearerAuth,
          params: IdParams,
          body: NoBody,
          response: { 204: { type: 'null' } },
        },
      },
      async (request, reply) => {
        const user = signedInUser(request);
        const deleted = await app.trashRepository.discard(kind, user.id, request.params.id, app.now());
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
            "Within an hour of the delete (and among the account's 100 latest deletes). 404 when there is nothing to undo; 409 when the record would break a limit or clash with one made since.",
          security: bearerAuth,
          params: IdParams,
          body: NoBody,
          response: { 200: options.response },
        },
      },
      async (request) => {
        const user = signedInUser(request);
        const { id } = request.params;
        const row = await app.trashRepository.find(kind, user.id, id, app.now());
        const nothingToUndo = `Nothing to undo: this ${noun} was not deleted in the last hour`;
        if (!row) throw notFound(nothingToUndo);
        const repository = {
          tasks: app.tasksRepository,
          events: app.eventsRepository,
          categories: app.categoriesRepository,
        }[kind];
        requireRoomFor(kind, app.config.quotas, await repository.countOf(user.id));
        await options.beforeRestore?.(user.id, row);
        try {
          if (!(await app.trashRepository.restore(kind, user.id, id, row))) throw notFound(nothingToUndo);
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          throw new HttpError(409, `This ${noun} cannot come back: one like it has been added since`);
        }
        return options.toJson(row);
      },
    );
  };
}
