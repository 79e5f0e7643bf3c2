export type MascotMood = 'neutral' | 'happy' | 'angry' | 'sleepy';
export type WalletMood = Exclude<MascotMood, 'sleepy'>;

export const DEFAULT_BUDGET_HOURS = 15;

/** Hours spent today from which the mascot changes mood. */
export const MOOD_THRESHOLDS = { happyFrom: 5, angryFrom: 8 } as const;

export const MOOD_MESSAGES: Readonly<Record<WalletMood, string>> = {
  neutral: "You're managing your time well!",
  happy: "You're working hard! Remember to take a break!",
  angry: "You're overworking! Remember to rest well!",
};

/** A number of hours the wallet accepts: a number, not NaN, at least 0. */
export function isValidHours(hours: unknown): hours is number {
  return typeof hours === 'number' && !Number.isNaN(hours) && hours >= 0;
}

/** Rounds hours to one decimal, as every hour figure in the product is shown. */
export function roundHours(hours: number): number {
  return Math.round(hours * 10) / 10;
}

/** How far spent runs past the budget, rounded as the wallet shows hours; 0 within budget. */
export function overBudgetHours(budget: number, spent: number): number {
  return roundHours(Math.max(0, spent - budget));
}

export function moodForHours(spentHours: number): { mood: WalletMood; message: string } {
  const hours = isValidHours(spentHours) ? spentHours : 0;
  const mood: WalletMood =
    hours >= MOOD_THRESHOLDS.angryFrom ? 'angry' : hours >= MOOD_THRESHOLDS.happyFrom ? 'happy' : 'neutral';
  return { mood, message: MOOD_MESSAGES[mood] };
}

/** max(0, budget - spent) to one decimal; an invalid figure counts as 0 hours. */
export function remainingHours(budgetHours: number, spentHours: number): number {
  const budget = isValidHours(budgetHours) ? budgetHours : 0;
  const spent = isValidHours(spentHours) ? spentHours : 0;
  return roundHours(Math.max(0, budget - spent));
}
