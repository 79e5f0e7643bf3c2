import type { DayLedgerStore } from './day-ledger-store';

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const contains = (box: Box | null, x: number, y: number) =>
  box !== null && x >= box.left && x < box.right && y >= box.top && y < box.bottom;

function pointOf(event: Event): { x: number; y: number } | null {
  if ('clientX' in event && typeof event.clientX === 'number') {
    return { x: event.clientX, y: (event as MouseEvent).clientY };
  }
  const touch = (event as TouchEvent).changedTouches?.[0] ?? (event as TouchEvent).touches?.[0];
  return touch ? { x: touch.clientX, y: touch.clientY } : null;
}

/**
 * One drag on the calendar page, between FullCalendar (which reports the slot a block is over) and the day headers'
 * preview. It also watches where the pointer is, which FullCalendar does not report once it leaves the grid: off the
 * grid the preview goes back to the server's figures, and a task from the grid held over the unscheduled list
 * previews being taken off the timeline (and the list shows it is a drop target). The places are measured once per
 * drag (and again after a scroll), so a pointer move costs a few comparisons.
 */
export class DragSession {
  private blockId: string | null = null;
  private canUnschedule = false;
  private boxes: { grid: Box | null; header: Box | null; panel: Box | null } | null = null;
  private gridElement: () => HTMLElement | null = () => null;
  private panelElement: () => HTMLElement | null = () => null;

  constructor(private readonly store: DayLedgerStore) {}

  /** Where the grid and the unscheduled list are, read when a drag starts. */
  setPlaces(grid: () => HTMLElement | null, panel: () => HTMLElement | null): void {
    this.gridElement = grid;
    this.panelElement = panel;
  }

  /**
   * A block's drag starts (a task from the grid may go back to the list); called again for each slot, it keeps the
   * drag it is in. Listening from here, after FullCalendar, lets its drop land before the release clears the preview.
   */
  start(blockId: string, canUnschedule: boolean): void {
    if (this.blockId === blockId) return;
    this.stop();
    this.blockId = blockId;
    this.canUnschedule = canUnschedule;
    document.addEventListener('mousemove', this.handleMove);
    document.addEventListener('touchmove', this.handleMove, { passive: true });
    document.addEventListener('scroll', this.handleScroll, { capture: true, passive: true });
    document.addEventListener('mouseup', this.handleRelease);
    document.addEventListener('touchend', this.handleRelease);
    document.addEventListener('touchcancel', this.handleRelease);
    if (canUnschedule) this.panelElement()?.setAttribute('data-task-drag', '');
  }

  /** FullCalendar's eventAllow: the block would land at start-end. */
  over(blockId: string, start: Date, end: Date): void {
    this.start(blockId, false);
    this.setDropTarget(false);
    this.store.previewMove(blockId, start, end);
  }

  /** Whether a drag of a task from the grid ended on the unscheduled list. */
  endsOnPanel(event: Event): boolean {
    const point = pointOf(event);
    return this.canUnschedule && point !== null && contains(this.measured().panel, point.x, point.y);
  }

  stop(): void {
    if (this.blockId === null) return;
    this.blockId = null;
    this.boxes = null;
    document.removeEventListener('mousemove', this.handleMove);
    document.removeEventListener('touchmove', this.handleMove);
    document.removeEventListener('scroll', this.handleScroll, { capture: true });
    document.removeEventListener('mouseup', this.handleRelease);
    document.removeEventListener('touchend', this.handleRelease);
    document.removeEventListener('touchcancel', this.handleRelease);
    const panel = this.panelElement();
    panel?.removeAttribute('data-task-drag');
    panel?.removeAttribute('data-drop-target');
  }

  private measured() {
    if (!this.boxes) {
      const grid = this.gridElement();
      const box = (element: Element | null | undefined) => element?.getBoundingClientRect() ?? null;
      this.boxes = {
        grid: box(grid?.querySelector('.fc-view-harness') ?? grid),
        header: box(grid?.querySelector('.fc-col-header')),
        panel: box(this.panelElement()),
      };
    }
    return this.boxes;
  }

  private setDropTarget(on: boolean): void {
    const panel = this.panelElement();
    if (on) panel?.setAttribute('data-drop-target', '');
    else panel?.removeAttribute('data-drop-target');
  }

  private handleMove = (event: Event) => {
    const point = pointOf(event);
    const { blockId } = this;
    if (!point || blockId === null) return;
    const { grid, header, panel } = this.measured();
    if (contains(grid, point.x, point.y) && !contains(header, point.x, point.y)) return;
    const overPanel = this.canUnschedule && contains(panel, point.x, point.y);
    this.setDropTarget(overPanel);
    if (overPanel) this.store.previewRemoval(blockId);
    else this.store.clearPreview();
  };

  private handleScroll = () => {
    this.boxes = null;
  };

  // FullCalendar ends its drag in a timeout after the release; this one runs after it, so a drop is pinned first.
  private handleRelease = () => {
    setTimeout(() => {
      this.store.clearPreview();
      this.stop();
    }, 0);
  };
}
