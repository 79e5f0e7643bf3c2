import { Type, type Static } from '@sinclair/typebox';
import type { CategoryRow } from '../db/schema.js';
import { Color } from './common.js';
import { DEFAULT_CATEGORY_COLOR } from './product.js';

export const Category = Type.Object(
  {
    _id: Type.String(),
    name: Type.String(),
    color: Type.String({
      default: DEFAULT_CATEGORY_COLOR,
      description: 'The colour a tag gets when none is given',
    }),
  },
  { $id: 'Category' },
);
export type Category = Static<typeof Category>;
export const CategoryRef = Type.Unsafe<Category>({ $ref: 'Category#' });

export const toCategoryJson = (row: CategoryRow): Category => ({
  _id: row.id,
  name: row.name,
  color: row.color,
});

const CategoryName = Type.String({ minLength: 1, maxLength: 200 });

export const CreateCategoryBody = Type.Object(
  { name: CategoryName, color: Type.Optional(Color) },
  { additionalProperties: false },
);

export const UpdateCategoryBody = Type.Object(
  { name: Type.Optional(CategoryName), color: Type.Optional(Color) },
  { additionalProperties: false },
);
