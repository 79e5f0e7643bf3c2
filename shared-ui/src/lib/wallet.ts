/** A number of hours the wallet accepts: a number, not NaN, at least 0. */
export function isValidHours(hours: unknown): hours is number {
  return typeof hours === 'number' && !Number.isNaN(hours) && hours >= 0;
}

/** Rounds hours to one decimal, as every hour figure in the product is shown. */
export function roundHours(hours: number): number {
  return Math.round(hours * 10) / 10;
}

/** max(0, budget - spent) to one decimal; an invalid figure counts as 0 hours. */
export function remainingHours(budgetHours: number, spentHours: number): number {
  const budget = isValidHours(budgetHours) ? budgetHours : 0;
  const spent = isValidHours(spentHours) ? spentHours : 0;
  return roundHours(Math.max(0, budget - spent));
}

/**
 * How far a day runs past its budget, from the server's overMinutes, as every screen says it: under an hour in
 * minutes (a plan one minute over reads as over, where hours at one decimal would read 0), from an hour in hours at
 * one decimal. '' within budget.
 */
export function overAmount(overMinutes: number): string {
  if (!(overMinutes > 0)) return '';
  return overMinutes < 60
    ? `${Math.max(1, Math.round(overMinutes))} min`
    : `${roundHours(overMinutes / 60)} h`;
}
