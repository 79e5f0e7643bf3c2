import type { Kysely } from 'kysely';
import { compiledOnce } from './compiled-query.js';
import type { CategoryRow, Database } from '../../db/schema.js';
import { RECORD_QUOTAS } from '../../lib/quotas.js';

/** `maxRows` bounds the list (the category quota). */
export function createCategoriesRepository(db: Kysely<Database>, maxRows: number = RECORD_QUOTAS.categories) {
  return {
    list: compiledOnce(db, (userId: string) =>
      db
        .selectFrom('categories')
        .selectAll()
        .where('userId', '=', userId)
        .orderBy('createdAt')
        .orderBy('name')
        .orderBy('id')
        .limit(maxRows),
    ),

    /** An index-only count (categories_user_id), for the quota. */
    async countOf(userId: string): Promise<number> {
      const row = await db
        .selectFrom('categories')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('userId', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async find(userId: string, id: string): Promise<CategoryRow | undefined> {
      return db
        .selectFrom('categories')
        .selectAll()
        .where('userId', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async create(category: CategoryRow): Promise<CategoryRow> {
      await db.insertInto('categories').values(category).execute();
      return category;
    },

    async update(
      userId: string,
      id: string,
      changes: Partial<Pick<CategoryRow, 'name' | 'color'>>,
      now: number,
    ) {
      await db
        .updateTable('categories')
        .set({ ...changes, updatedAt: now })
        .where('userId', '=', userId)
        .where('id', '=', id)
        .execute();
      return this.find(userId, id);
    },
  };
}

export type CategoriesRepository = ReturnType<typeof createCategoriesRepository>;
