import { roundHours } from '@time-wallet/shared-ui/lib';

const pad2 = (value: number) => String(value).padStart(2, '0');

/** Seconds as a stopwatch shows them, 'H:MM:SS', so the width stays the same while it runs. */
export function formatStopwatch(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${Math.floor(seconds / 3600)}:${pad2(Math.floor(seconds / 60) % 60)}:${pad2(seconds % 60)}`;
}

/** Minutes of the ledger as the hours every figure of the product shows: one decimal at most. */
export const hoursOf = (minutes: number): number => roundHours(minutes / 60);
