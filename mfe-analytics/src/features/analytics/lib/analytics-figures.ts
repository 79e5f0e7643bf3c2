import type { WeeklyAnalytics } from '@time-wallet/api';
import { overAmount, roundHours } from '@time-wallet/shared-ui/lib';
import { restAndSelfCareHours, topCategories, type CategoryShare } from './category-shares';

const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
/** The week's days in order, Sunday first (a week is Sunday to Saturday), three letters each, for the chart's axis. */
export const SHORT_WEEKDAYS = WEEKDAY_NAMES.map((name) => name.slice(0, 3));

/** Hours as every figure on the page shows them: one decimal, always written, e.g. '3.0'. */
export function formatHours(hours: number): string {
  return roundHours(Number.isFinite(hours) ? hours : 0).toFixed(1);
}

/** A number of days as a figure and its unit, e.g. 1 day, 3 days. */
export function daysFigure(days: number): { value: string; unit: string } {
  return { value: String(days), unit: days === 1 ? 'day' : 'days' };
}

/** The three categories with the most planned minutes this week, each with the server's share, padded with 'No data'. */
export function categoryTimeShare(week: WeeklyAnalytics | undefined): CategoryShare[] {
  return topCategories(week?.byCategory);
}

/** 'active time' is the server's average productive hours a day; the rest of the day follows SPEC section 9. */
export function dailySpendComparison(week: WeeklyAnalytics | undefined) {
  const activeHours = week ? week.averageProductiveHours : null;
  return {
    activeHours: activeHours ?? 0,
    restAndSelfCareHours: restAndSelfCareHours(activeHours),
  };
}

/** One day of the week's ledger in hours, as the server counts it. */
export interface DayBar {
  date: string;
  weekday: string;
  plannedHours: number;
  trackedHours: number;
  /** That weekday's budget. */
  budgetHours: number;
  /** The server's overMinutes in hours: how far the plan passes the budget, 0 when it does not. */
  overHours: number;
  /** Over budget as the server says it (overMinutes > 0); never compared here. */
  overBudget: boolean;
  /** How far over, in the words every screen uses ('2 min', '1.5 h'); '' within budget. */
  overAmount: string;
  /** The server's remainingMinutes in hours. */
  remainingHours: number;
}

/** The day of the week of a YYYY-MM-DD date, 0 for Sunday. */
export function weekdayIndexOf(dateKey: string): number {
  const [year, month, day] = dateKey.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}

function weekdayOf(dateKey: string): string {
  return WEEKDAY_NAMES[weekdayIndexOf(dateKey)];
}

/**
 * This week's planned, tracked, budget and over hours per day, straight from the server's daily figures: over is the
 * server's overMinutes, never planned compared with budget here. Hours are not rounded; only their display is.
 */
export function hoursPerDay(week: WeeklyAnalytics | undefined): DayBar[] {
  return (week?.daily ?? []).map((day) => {
    return {
      date: day.date,
      weekday: weekdayOf(day.date),
      plannedHours: day.plannedMinutes / 60,
      trackedHours: day.trackedMinutes / 60,
      budgetHours: day.budgetMinutes / 60,
      overHours: day.overMinutes / 60,
      overBudget: day.overMinutes > 0,
      overAmount: overAmount(day.overMinutes),
      remainingHours: day.remainingMinutes / 60,
    };
  });
}
