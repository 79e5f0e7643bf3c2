import { DEFAULT_BUDGET_HOURS, readItem, WALLET_STORE_KEY, writeItem } from '@time-wallet/api';
import { isValidHours, remainingHours } from '@time-wallet/shared-ui/lib';

/** The last known wallet, persisted under 'wallet-store' so the next visit paints it while the fetch runs. */
export interface WalletSnapshot {
  spentHours: number;
  budgetHours: number;
  remainingHours: number;
  /** ISO date-time of the fetch that produced it. */
  lastUpdated: string;
}

/**
 * Reads GET /tasks/today as a wallet. A spentHours that is not a non-negative number counts as 0 without an error,
 * and remaining is always max(0, budget - spent) so the three figures agree.
 */
export function toWalletSnapshot(response: unknown, lastUpdated: string): WalletSnapshot {
  const body = typeof response === 'object' && response !== null ? (response as Record<string, unknown>) : {};
  const spentHours = isValidHours(body.spentHours) ? body.spentHours : 0;
  const budgetHours = isValidHours(body.budgetHours) ? body.budgetHours : DEFAULT_BUDGET_HOURS;
  return {
    spentHours,
    budgetHours,
    remainingHours: remainingHours(budgetHours, spentHours),
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
