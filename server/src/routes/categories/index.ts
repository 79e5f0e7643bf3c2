import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { CategoryRow } from '../../db/schema.js';
import { HttpError, notFound, validationFailed } from '../../lib/http-errors.js';
import { newId } from '../../lib/ids.js';
import { requireRoomFor } from '../../lib/quotas.js';
import { signedInUser } from '../../plugins/app/authentication.js';
import { undoableDeleteRoutes } from '../../services/undoable-delete.js';
import {
  CategoryRef,
  CreateCategoryBody,
  UpdateCategoryBody,
  toCategoryJson,
} from '../../schemas/category.js';
import { IdParams, bearerAuth } from '../../schemas/common.js';
import { DEFAULT_CATEGORY_COLOR } from '../../schemas/product.js';

const NAME_MAX = 40;

function categoryName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0) throw validationFailed([{ field: 'name', message: 'Name is required' }]);
  if (trimmed.length > NAME_MAX) {
    throw validationFailed([{ field: 'name', message: `Name must not exceed ${NAME_MAX} characters` }]);
  }
  return trimmed;
}

const CATEGORY_NOT_FOUND = 'Category not found';

/** Tag names compare without regard to case (and Unicode normal form): "Work" and "work" are one tag. */
const nameKey = (name: string) => name.normalize('NFC').toLocaleLowerCase('und');

/** 409 when another of the user's tags already has this name in any case; `exceptId` is the tag being renamed. */
async function requireUniqueName(app: FastifyInstance, userId: string, name: string, exceptId?: string) {
  const key = nameKey(name);
  const clash = (await app.categoriesRepository.list(userId)).find(
    (category) => category.id !== exceptId && nameKey(category.name) === key,
  );
  if (clash) {
    const message = `A tag named "${clash.name}" already exists`;
    throw new HttpError(409, message, { errors: [{ field: 'name', message }] });
  }
}

const categoriesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['categories'];

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: 'The signed-in user’s categories',
        security: bearerAuth,
        response: { 200: Type.Array(CategoryRef) },
      },
    },
    async (request) => (await app.categoriesRepository.list(signedInUser(request).id)).map(toCategoryJson),
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        summary: 'Create a category',
        security: bearerAuth,
        body: CreateCategoryBody,
        response: { 201: CategoryRef },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const name = categoryName(request.body.name);
      requireRoomFor('categories', app.config.quotas, await app.categoriesRepository.countOf(user.id));
      await requireUniqueName(app, user.id, name);
      const now = app.now();
      const category = await app.categoriesRepository.create({
        id: newId(),
        userId: user.id,
        name,
        color: (request.body.color ?? DEFAULT_CATEGORY_COLOR).toUpperCase(),
        createdAt: now,
        updatedAt: now,
      });
      return reply.code(201).send(toCategoryJson(category));
    },
  );

  app.patch(
    '/:id',
    {
      config: { notFoundMessage: CATEGORY_NOT_FOUND },
      schema: {
        tags,
        summary: 'Rename or recolour a category',
        security: bearerAuth,
        params: IdParams,
        body: UpdateCategoryBody,
        response: { 200: CategoryRef },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const changes: Partial<Pick<CategoryRow, 'name' | 'color'>> = {};
      if (request.body.name !== undefined) {
        changes.name = categoryName(request.body.name);
        await requireUniqueName(app, user.id, changes.name, request.params.id);
      }
      if (request.body.color !== undefined) changes.color = request.body.color.toUpperCase();
      const category = await app.categoriesRepository.update(user.id, request.params.id, changes, app.now());
      if (!category) throw notFound(CATEGORY_NOT_FOUND);
      return toCategoryJson(category);
    },
  );

  await app.register(
    undoableDeleteRoutes({
      kind: 'categories',
      noun: 'category',
      notFoundMessage: CATEGORY_NOT_FOUND,
      toJson: toCategoryJson,
      response: CategoryRef,
      // Its tasks kept its id meanwhile and match it again; its name must still be its own.
      beforeRestore: (userId, row) => requireUniqueName(app, userId, row.name),
    }),
  );
};

export default categoriesRoutes;
