import { DEFAULT_BUDGET_HOURS, type WeeklyAnalytics } from '@time-wallet/api';
import { isValidHours, roundHours } from '@time-wallet/shared-ui/lib';
import { restAndSelfCareHours, topCategories, type CategoryShare } from './category-shares';

const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Hours as every figure on the page shows them: one decimal, always written, e.g. '3.0'. */
export function formatHours(hours: number): string {
  return roundHours(Number.isFinite(hours) ? hours : 0).toFixed(1);
}

/** A number of days as a figure and its unit, e.g. 1 day, 3 days. */
export function daysFigure(days: number): { value: string; unit: string } {
  return { value: String(days), unit: days === 1 ? 'day' : 'days' };
}

/** The three categories with the most minutes this week, each with its whole-number share, padded with 'No data'. */
export function categoryTimeShare(week: WeeklyAnalytics | undefined): CategoryShare[] {
  return topCategories(week?.byCategory);
}

/** 'active time' is the week's average productive hours a day; the rest of the day follows SPEC section 9. */
export function dailySpendComparison(week: WeeklyAnalytics | undefined) {
  const activeHours = week ? week.averageProductiveHours : null;
  return {
    activeHours: activeHours ?? 0,
    restAndSelfCareHours: restAndSelfCareHours(activeHours),
  };
}

export interface DayBar {
  date: string;
  weekday: string;
  /** Three letters, for the chart's axis. */
  shortWeekday: string;
  hours: number;
  productiveHours: number;
  overBudget: boolean;
}

function weekdayOf(dateKey: string): string {
  const [year, month, day] = dateKey.split('-').map(Number);
  return WEEKDAY_NAMES[new Date(Date.UTC(year, month - 1, day)).getUTCDay()];
}

/** This week's hours per day (tasks and events the wallet spent), against the daily budget. */
export function hoursPerDay(week: WeeklyAnalytics | undefined, budgetHours: number): DayBar[] {
  return (week?.daily ?? []).map((day) => {
    const hours = roundHours(day.minutes / 60);
    const weekday = weekdayOf(day.date);
    return {
      date: day.date,
      weekday,
      shortWeekday: weekday.slice(0, 3),
      hours,
      productiveHours: roundHours(day.productiveMinutes / 60),
      overBudget: hours > budgetHours,
    };
  });
}

/** The signed-in user's daily budget, or the product's default when the profile has none. */
export function dailyBudgetHours(budgetHours: number | undefined): number {
  return isValidHours(budgetHours) ? budgetHours : DEFAULT_BUDGET_HOURS;
}
