import { api } from './api-slice';
import type { Category } from './contract';

/** The category list is read by the shell's layout, the wallet and the tag editor alike: it lives here once. */
export const categoriesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCategories: build.query<Category[], void>({
      query: () => '/categories',
      // The spec reads a non-array answer as no categories.
      transformResponse: (response: Category[] | null) => (Array.isArray(response) ? response : []),
      providesTags: (categories = []) => [
        { type: 'Category', id: 'LIST' },
        ...categories.map((category) => ({ type: 'Category' as const, id: category._id })),
      ],
    }),
  }),
});

export const { useGetCategoriesQuery } = categoriesApi;
