import { api } from './api-slice';
import type { Category } from './types';

/** The category list is read by the shell's layout, the wallet and the tag editor alike: it lives here once. */
export const categoriesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getCategories: build.query<Category[], void>({
      query: () => '/categories',
      transformResponse: (response: unknown) => (Array.isArray(response) ? (response as Category[]) : []),
      providesTags: (categories = []) => [
        { type: 'Category', id: 'LIST' },
        ...categories.map((category) => ({ type: 'Category' as const, id: category._id })),
      ],
    }),
  }),
});

export const { useGetCategoriesQuery } = categoriesApi;
