import { ENGLISH_WEEKDAYS, isValidHours } from '@time-wallet/shared-ui/lib';

/** A day has 24 hours: the server refuses a bigger budget. */
export const MAX_BUDGET_HOURS = 24;

export const BUDGET_HOURS_MESSAGE = `Enter a number of hours from 0 to ${MAX_BUDGET_HOURS}.`;

/** The server's order for budgetHoursByWeekday: Sunday first, as Date.getDay() counts. */
export const WEEKDAYS = ENGLISH_WEEKDAYS;

/** The message for a budget the wallet cannot accept (not a number, NaN, negative or over a day), else null. */
export function budgetHoursError(text: string): string | null {
  const hours = text.trim() === '' ? Number.NaN : Number(text);
  return isValidHours(hours) && hours <= MAX_BUDGET_HOURS ? null : BUDGET_HOURS_MESSAGE;
}

/** The seven budgets the form starts from: the person's own per weekday, else the one budget every day. */
export function weekdayBudgetsOf(
  budgetHours: number,
  budgetHoursByWeekday: readonly number[] | null,
): string[] {
  return WEEKDAYS.map((_weekday, index) => String(budgetHoursByWeekday?.[index] ?? budgetHours));
}
