import { DEFAULT_CATEGORY_COLOR, type WeeklyAnalytics } from '@time-wallet/api';
import { roundHours } from '@time-wallet/shared-ui/lib';

export const TOP_CATEGORY_COUNT = 3;
export const NO_DATA_CATEGORY_NAME = 'No data';

/** One category's planned minutes in a week and its share, as the server counts them ('' = No category). */
export type CategoryMinutes = WeeklyAnalytics['byCategory'][number];

export interface CategoryShare {
  /** null for a 'No data' filler row. */
  categoryId: string | null;
  name: string;
  minutes: number;
  percent: number;
  color: string;
}

/** The colour a category is drawn in: its own, else the product's default. */
export function categoryColor(color: string): string {
  return color || DEFAULT_CATEGORY_COLOR;
}

/**
 * Rest-and-self-care hours for a day (SPEC section 9): 24 - p when p > 12, else min(12, 24 - p); 12 with no data.
 * Never below 0, so an impossible productive figure above 24 h cannot show negative rest.
 */
export function restAndSelfCareHours(productiveHours: number | null | undefined): number {
  if (typeof productiveHours !== 'number' || Number.isNaN(productiveHours)) return 12;
  const rest = productiveHours > 12 ? 24 - productiveHours : Math.min(12, 24 - productiveHours);
  return roundHours(Math.max(0, rest));
}

/**
 * The categories with the most minutes, each with the share the server gives it (of the week's planned time),
 * padded with 'No data' 0% entries so the card always shows `count` rows.
 */
export function topCategories(
  byCategory: readonly CategoryMinutes[] | null | undefined,
  count: number = TOP_CATEGORY_COUNT,
): CategoryShare[] {
  const top: CategoryShare[] = (byCategory ?? [])
    .filter((category) => category.minutes > 0)
    .sort((a, b) => b.minutes - a.minutes)
    .slice(0, count)
    .map(({ categoryId, name, minutes, percent, color }) => ({
      categoryId,
      name,
      minutes,
      percent,
      color: categoryColor(color),
    }));
  while (top.length < count) {
    top.push({
      categoryId: null,
      name: NO_DATA_CATEGORY_NAME,
      minutes: 0,
      percent: 0,
      color: DEFAULT_CATEGORY_COLOR,
    });
  }
  return top;
}
