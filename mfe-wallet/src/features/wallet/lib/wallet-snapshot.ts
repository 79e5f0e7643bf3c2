import { DEFAULT_BUDGET_HOURS, readItem, WALLET_STORE_KEY, writeItem } from '@time-wallet/api';
import { isValidHours, remainingHours } from '@time-wallet/shared-ui/lib';

/**
 * The last known wallet, persisted under 'wallet-store' so the next visit paints it while the fetch runs. The hours are
 * today's ledger as the server counts it: spent (SPEC's name) is planned, the budget is today's weekday's.
 */
export interface WalletSnapshot {
  spentHours: number;
  budgetHours: number;
  /** max(0, budget - planned), as the server computes it from minutes (remainingMinutes / 60, one decimal). */
  remainingHours: number;
  trackedHours: number;
  /** The estimates of today's unscheduled tasks, which cost no planned hours. */
  unscheduledHours: number;
  /** max(0, planned - budget), as the server computes it from minutes (overMinutes / 60, one decimal). */
  overHours: number;
  /** ISO date-time of the fetch that produced it. */
  lastUpdated: string;
}

const hoursOr0 = (hours: unknown): number => (isValidHours(hours) ? hours : 0);

/**
 * Reads GET /tasks/today as a wallet. A spentHours that is not a non-negative number counts as 0 without an error.
 * Remaining and over are the server's, never worked out here from the rounded hours: the server computes them once,
 * from minutes, and the calendar and Today show the same figures (docs/product.md, "One time ledger"); 15 - 5.3
 * would say 9.7 where the server's 585 minutes say 9.8. Only an answer without a remaining figure falls back to
 * SPEC's max(0, budget - spent), so the three cards still agree. Another figure a snapshot stored before the ledger
 * does not have counts as 0 until the next fetch.
 */
export function toWalletSnapshot(response: unknown, lastUpdated: string): WalletSnapshot {
  const body = typeof response === 'object' && response !== null ? (response as Record<string, unknown>) : {};
  const spentHours = hoursOr0(body.spentHours);
  const budgetHours = isValidHours(body.budgetHours) ? body.budgetHours : DEFAULT_BUDGET_HOURS;
  return {
    spentHours,
    budgetHours,
    remainingHours: isValidHours(body.remainingHours)
      ? body.remainingHours
      : remainingHours(budgetHours, spentHours),
    trackedHours: hoursOr0(body.trackedHours),
    unscheduledHours: hoursOr0(body.unscheduledHours),
    overHours: hoursOr0(body.overHours),
    lastUpdated,
  };
}

export function readWalletSnapshot(): WalletSnapshot | null {
  const raw = readItem(WALLET_STORE_KEY);
  if (!raw) return null;
  try {
    const stored: unknown = JSON.parse(raw);
    if (typeof stored !== 'object' || stored === null) return null;
    const { lastUpdated } = stored as Record<string, unknown>;
    return toWalletSnapshot(stored, typeof lastUpdated === 'string' ? lastUpdated : '');
  } catch {
    return null;
  }
}

export function writeWalletSnapshot(snapshot: WalletSnapshot): void {
  writeItem(WALLET_STORE_KEY, JSON.stringify(snapshot));
}
