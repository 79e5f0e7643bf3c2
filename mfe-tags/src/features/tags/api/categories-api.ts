import { api, type BodyOf, type Category } from '@time-wallet/api';

/** What the tag form sends: a name and a colour (the server's default colour when none is picked). */
export type CategoryDraft = Required<BodyOf<'/api/categories/', 'post'>>;

// A tag's name and colour show in task lists and analytics, so those refetch too.
const CATEGORY_CHANGED = [{ type: 'Category' as const, id: 'LIST' }, 'Task' as const, 'Analytics' as const];

export const tagsCategoriesApi = api.injectEndpoints({
  endpoints: (build) => ({
    addCategory: build.mutation<Category, CategoryDraft>({
      query: (draft) => ({ url: '/categories', method: 'POST', body: draft }),
      invalidatesTags: CATEGORY_CHANGED,
    }),
    updateCategory: build.mutation<Category, CategoryDraft & { id: string }>({
      query: ({ id, ...draft }) => ({
        url: `/categories/${encodeURIComponent(id)}`,
        method: 'PATCH',
        body: draft,
      }),
      invalidatesTags: CATEGORY_CHANGED,
    }),
    deleteCategory: build.mutation<void, string>({
      query: (id) => ({ url: `/categories/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: CATEGORY_CHANGED,
    }),
    /** Undoes a delete: the tag comes back whole, with its id, so its tasks match it again. */
    restoreCategory: build.mutation<Category, string>({
      query: (id) => ({ url: `/categories/${encodeURIComponent(id)}/restore`, method: 'POST' }),
      invalidatesTags: CATEGORY_CHANGED,
    }),
  }),
});

export const {
  useAddCategoryMutation,
  useUpdateCategoryMutation,
  useDeleteCategoryMutation,
  useRestoreCategoryMutation,
} = tagsCategoriesApi;
