import { addDays, overAmount, roundHours, toLocalDateKey } from '@time-wallet/shared-ui/lib';

/**
 * A preview, in the browser, of the server's definition of a day's planned time (docs/product.md, "One time ledger"):
 * the length of the union of the timed blocks (scheduled tasks, timed events) overlapping the local day, clamped to
 * it; overlaps count once, all-day events cost nothing. Only used while something is dragged: once the drop is
 * saved, the server's figure replaces it. Over and remaining are never counted here: the headers show the ledger's.
 */

const MINUTE_MS = 60_000;

/** A block of the timeline: its id (as the grid knows it) and its instants in ms. */
export interface TimeBlock {
  id: string;
  start: number;
  end: number;
}

/** Where a dragged block would land: new instants, or off the timeline (back to the unscheduled list). */
export type BlockMove = { blockId: string; start: number; end: number } | { blockId: string; removed: true };

/** The instants a local day runs from (inclusive) and to (exclusive); DST days are 23 or 25 hours long. */
export function localDayBounds(dateKey: string): { start: number; end: number } {
  const [year, month, day] = dateKey.split('-').map(Number);
  return {
    start: new Date(year, month - 1, day).getTime(),
    end: new Date(year, month - 1, day + 1).getTime(),
  };
}

/** The local days a block overlaps, first to last; a block ending at midnight does not touch the next day. */
export function dayKeysOf({ start, end }: Pick<TimeBlock, 'start' | 'end'>): string[] {
  if (!(end > start)) return [];
  const last = toLocalDateKey(new Date(end - 1));
  const days = [toLocalDateKey(new Date(start))];
  while (days[days.length - 1] < last) days.push(addDays(days[days.length - 1], 1));
  return days;
}

/** Minutes covered by the union of the blocks within [dayStart, dayEnd): overlapping blocks count once. */
export function unionMinutes(
  blocks: readonly Pick<TimeBlock, 'start' | 'end'>[],
  dayStart: number,
  dayEnd: number,
): number {
  const clamped = blocks
    .map((block) => ({ start: Math.max(block.start, dayStart), end: Math.min(block.end, dayEnd) }))
    .filter((block) => block.end > block.start)
    .sort((a, b) => a.start - b.start);
  let covered = 0;
  let runStart = Number.NaN;
  let runEnd = Number.NaN;
  for (const block of clamped) {
    if (block.start > runEnd) {
      covered += runEnd - runStart;
      runStart = block.start;
      runEnd = block.end;
    } else if (Number.isNaN(runEnd)) {
      runStart = block.start;
      runEnd = block.end;
    } else {
      runEnd = Math.max(runEnd, block.end);
    }
  }
  if (!Number.isNaN(runEnd)) covered += runEnd - runStart;
  return Math.round(covered / MINUTE_MS);
}

/** A day's blocks with one of them moved (or added, when it was not on the grid yet), or taken off. */
export function blocksAfterMove(dayBlocks: readonly TimeBlock[], move: BlockMove): TimeBlock[] {
  const others = dayBlocks.filter((block) => block.id !== move.blockId);
  return 'removed' in move ? others : [...others, { id: move.blockId, start: move.start, end: move.end }];
}

/** A day's over and remaining minutes, as the server's ledger gives them (LedgerDay). */
export interface DayBalance {
  overMinutes: number;
  remainingMinutes: number;
}

/**
 * What a day header says: the server's hours left of the day's budget, or by how much the plan exceeds it. Only
 * rounded for display (minutes / 60 at one decimal), as the wallet shows the same day's remainingHours.
 */
export function dayFigureText({ overMinutes, remainingMinutes }: DayBalance): {
  text: string;
  over: boolean;
} {
  // The same words for the amount as the wallet's and Today's "Over budget by" (a minute over reads as over).
  const over = overAmount(overMinutes);
  if (over) return { text: `Over by ${over}`, over: true };
  return { text: `${roundHours(remainingMinutes / 60)} h left`, over: false };
}

/**
 * The server's balance of a day as a drag would change it: the planned minutes the move adds (or, negative, takes)
 * shift the server's own figures, so a preview never counts the budget its own way and equals the server's figure
 * when the move changes nothing. The figures stand for one number, planned - budget, split at zero.
 */
export function balanceAfter(server: DayBalance, plannedChange: number): DayBalance {
  if (plannedChange === 0) return server;
  const net = server.overMinutes - server.remainingMinutes + plannedChange;
  return { overMinutes: Math.max(0, net), remainingMinutes: Math.max(0, -net) };
}
