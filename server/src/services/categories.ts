import type { FastifyInstance } from 'fastify';
import type { UserRow } from '../db/schema.js';
import { fieldError } from '../lib/input-rules.js';

/** '' and null mean uncategorised; any other id must be one of the user's own categories. */
export async function ownCategoryId(
  app: FastifyInstance,
  user: UserRow,
  categoryId: string | null | undefined,
): Promise<string | null> {
  if (categoryId === undefined || categoryId === null || categoryId === '') return null;
  const category = await app.categoriesRepository.find(user.id, categoryId);
  if (!category) throw fieldError('categoryId', 'Category not found: choose one of your categories');
  return category.id;
}

/**
 * The category an edit leaves on a task or event: unchanged when the body leaves it out or repeats the current id
 * (which may point at a deleted category: editing other fields must still work), else the new one, checked.
 */
export async function editedCategoryId(
  app: FastifyInstance,
  user: UserRow,
  sent: string | null | undefined,
  current: string | null,
): Promise<string | null> {
  if (sent === undefined || (sent !== null && sent === current)) return current;
  return ownCategoryId(app, user, sent);
}
