import { DEFAULT_CATEGORY_COLOR, type WeeklyAnalytics } from '@time-wallet/api';
import { roundHours } from '@time-wallet/shared-ui/lib';

export const TOP_CATEGORY_COUNT = 3;
export const NO_DATA_CATEGORY_NAME = 'No data';

/** One category's minutes in a week, as the server counts them; a missing colour reads as the default. */
export type CategoryMinutes = Omit<WeeklyAnalytics['byCategory'][number], 'color' | 'percent'> & {
  color?: string | null;
};

export interface CategoryShare {
  categoryId: string | null;
  name: string;
  minutes: number;
  percent: number;
  color: string;
}

/** A whole-number percentage of part in total; 0 when there is no total. */
export function roundPercent(part: number, total: number): number {
  if (!(total > 0) || !(part > 0)) return 0;
  return Math.round((part / total) * 100);
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
 * The categories with the most minutes and their share of all categorised minutes,
 * padded with 'No data' 0% entries so the card always shows `count` rows.
 */
export function topCategories(
  byCategory: readonly CategoryMinutes[] | null | undefined,
  count: number = TOP_CATEGORY_COUNT,
): CategoryShare[] {
  const withTime = (byCategory ?? []).filter((category) => category.minutes > 0);
  const totalMinutes = withTime.reduce((sum, category) => sum + category.minutes, 0);
  const top: CategoryShare[] = [...withTime]
    .sort((a, b) => b.minutes - a.minutes)
    .slice(0, count)
    .map((category) => ({
      categoryId: category.categoryId,
      name: category.name,
      minutes: category.minutes,
      percent: roundPercent(category.minutes, totalMinutes),
      color: category.color || DEFAULT_CATEGORY_COLOR,
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
