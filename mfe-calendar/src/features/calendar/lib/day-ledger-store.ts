import type { LedgerDay } from '@time-wallet/api';
import {
  balanceAfter,
  blocksAfterMove,
  dayFigureText,
  dayKeysOf,
  localDayBounds,
  unionMinutes,
  type BlockMove,
  type TimeBlock,
} from './day-plan';

/** One day header's line: the server's figure, or while something is dragged, what it would be after the drop. */
export interface DayFigure {
  text: string;
  over: boolean;
  /** True while the line shows a drag's preview that differs from the server's figure. */
  preview: boolean;
}

/**
 * The day headers' figures, kept outside React state so a drag re-renders only the headers whose text changes, never
 * the calendar. They are the ledger's overMinutes and remainingMinutes, rounded for display only. A preview shifts
 * them by what the move changes in the day's union of blocks, so the headers agree with the server until something
 * moves. A dropped move stays pinned until the ledger is read again.
 */
export class DayLedgerStore {
  private ledger = new Map<string, LedgerDay>();
  private ledgerVersion: unknown = undefined;
  private blocksById = new Map<string, TimeBlock>();
  private blocksByDay = new Map<string, TimeBlock[]>();
  private unionByDay = new Map<string, number>();
  private move: BlockMove | null = null;
  private pinned = false;
  private previewPlanned = new Map<string, number>();
  private figures = new Map<string, DayFigure>();
  private listeners = new Set<() => void>();

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** The line for a local day (YYYY-MM-DD), or null while the ledger has no entry for it. */
  figureOf = (dateKey: string): DayFigure | null => this.figures.get(dateKey) ?? null;

  /** The server's figures (`version` changes on every read of the ledger) and the blocks on the grid. */
  setData(ledgerDays: readonly LedgerDay[], blocks: readonly TimeBlock[], version: unknown): void {
    const ledgerRead = version !== this.ledgerVersion;
    this.ledgerVersion = version;
    this.ledger = new Map(ledgerDays.map((day) => [day.date, day]));
    this.blocksById = new Map(blocks.map((block) => [block.id, block]));
    this.blocksByDay = new Map();
    this.unionByDay = new Map();
    for (const block of blocks) {
      for (const day of dayKeysOf(block)) {
        const dayBlocks = this.blocksByDay.get(day);
        if (dayBlocks) dayBlocks.push(block);
        else this.blocksByDay.set(day, [block]);
      }
    }
    if (this.pinned && ledgerRead) {
      this.move = null;
      this.pinned = false;
    }
    // A pinned drop keeps the figures it showed: the blocks may already be read again while the ledger is not.
    if (!this.pinned) this.computePreview();
    this.publish();
  }

  /** While a block is dragged over the grid: where it would land. */
  previewMove(blockId: string, start: Date | number, end: Date | number): void {
    this.showMove({ blockId, start: +start, end: +end });
  }

  /** While a task is dragged over the unscheduled list: off the timeline. */
  previewRemoval(blockId: string): void {
    this.showMove({ blockId, removed: true });
  }

  /** The drag left the grid, or ended without a drop: the server's figures again. A pinned drop stays. */
  clearPreview(): void {
    if (this.pinned || !this.move) return;
    this.move = null;
    this.computePreview();
    this.publish();
  }

  /** A drop being saved: its figures stay until the ledger is read again. */
  pin(move: BlockMove): void {
    this.move = move;
    this.pinned = true;
    this.computePreview();
    this.publish();
  }

  /** The server refused the drop: back to its figures. */
  cancel(): void {
    this.pinned = false;
    this.move = null;
    this.computePreview();
    this.publish();
  }

  private showMove(move: BlockMove): void {
    if (this.pinned || sameMove(this.move, move)) return;
    this.move = move;
    this.computePreview();
    this.publish();
  }

  private unionOf(day: string): number {
    let minutes = this.unionByDay.get(day);
    if (minutes === undefined) {
      const { start, end } = localDayBounds(day);
      minutes = unionMinutes(this.blocksByDay.get(day) ?? [], start, end);
      this.unionByDay.set(day, minutes);
    }
    return minutes;
  }

  private computePreview(): void {
    this.previewPlanned = new Map();
    const { move } = this;
    if (!move) return;
    const moved = this.blocksById.get(move.blockId);
    const days = new Set([...(moved ? dayKeysOf(moved) : []), ...('removed' in move ? [] : dayKeysOf(move))]);
    for (const day of days) {
      const server = this.ledger.get(day);
      if (!server) continue;
      const { start, end } = localDayBounds(day);
      const after = unionMinutes(blocksAfterMove(this.blocksByDay.get(day) ?? [], move), start, end);
      this.previewPlanned.set(day, Math.max(0, server.plannedMinutes + after - this.unionOf(day)));
    }
  }

  private publish(): void {
    const figures = new Map<string, DayFigure>();
    let changed = this.figures.size !== this.ledger.size;
    for (const [day, server] of this.ledger) {
      // The server's over and remaining, shifted only by what a dragged block would change.
      const plannedChange = (this.previewPlanned.get(day) ?? server.plannedMinutes) - server.plannedMinutes;
      const next = {
        ...dayFigureText(balanceAfter(server, plannedChange)),
        preview: plannedChange !== 0,
      };
      const current = this.figures.get(day);
      const same =
        current &&
        current.text === next.text &&
        current.over === next.over &&
        current.preview === next.preview;
      figures.set(day, same ? current : next);
      if (!same) changed = true;
    }
    this.figures = figures;
    if (changed) for (const listener of this.listeners) listener();
  }
}

function sameMove(a: BlockMove | null, b: BlockMove): boolean {
  if (!a || a.blockId !== b.blockId) return false;
  if ('removed' in a || 'removed' in b) return 'removed' in a && 'removed' in b;
  return a.start === b.start && a.end === b.end;
}
