import type { EstimateInsight } from '@time-wallet/api/time-entries';
import { MINUTES_PER_DAY } from './task';

/** How many done tasks of a category with estimates and tracked time make its ratio worth offering. */
export const MIN_TASKS_FOR_OFFER = 5;

export interface EstimateOffer {
  /** The ratio as said, one decimal: '1.4'. */
  ratio: string;
  /** The typed estimate times the ratio, in whole minutes. */
  minutes: number;
}

/**
 * What the task form may offer for an estimate typed for a task of `categoryId`: how long that category's tasks took
 * against their estimates lately (GET /insights/estimates), with the estimate that ratio gives. Nothing for a
 * category with fewer than 5 such tasks, or when the offer would change nothing or not be 1 to 1440 minutes.
 */
export function estimateOffer(
  insights: readonly EstimateInsight[],
  categoryId: string,
  typedMinutes: number,
): EstimateOffer | null {
  const insight = insights.find((candidate) => candidate.categoryId === categoryId);
  if (!insight || insight.tasks < MIN_TASKS_FOR_OFFER || !(insight.ratio > 0)) return null;
  const minutes = Math.round(typedMinutes * insight.ratio);
  if (minutes === typedMinutes || minutes < 1 || minutes > MINUTES_PER_DAY) return null;
  return { ratio: insight.ratio.toFixed(1), minutes };
}
