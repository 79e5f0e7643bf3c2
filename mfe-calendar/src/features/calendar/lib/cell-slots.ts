/**
 * Places React draws into FullCalendar's day cells (a month day's figure, a day column's tracked lane): FullCalendar
 * makes and drops its cells itself, so each one made adds its slot here, keyed by its local day, and the grid renders
 * a portal into each. Kept outside React state: a cell mounting inside FullCalendar's own render only queues a
 * notice, read after it.
 */
export class CellSlots {
  private slots: ReadonlyMap<string, HTMLElement> = new Map();
  private listeners = new Set<() => void>();
  private noticeQueued = false;

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** The slots by day (YYYY-MM-DD); a new map after each change. */
  snapshot = (): ReadonlyMap<string, HTMLElement> => this.slots;

  add(dateKey: string, slot: HTMLElement): void {
    const next = new Map(this.slots);
    next.set(dateKey, slot);
    this.slots = next;
    this.notify();
  }

  /** A cell gone: its slot leaves, unless the day has had a new one since. */
  remove(dateKey: string, slot: HTMLElement): void {
    if (this.slots.get(dateKey) !== slot) return;
    const next = new Map(this.slots);
    next.delete(dateKey);
    this.slots = next;
    this.notify();
  }

  private notify(): void {
    if (this.noticeQueued) return;
    this.noticeQueued = true;
    queueMicrotask(() => {
      this.noticeQueued = false;
      for (const listener of this.listeners) listener();
    });
  }
}
