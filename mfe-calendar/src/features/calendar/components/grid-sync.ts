import type { CalendarApi, EventInput, FormatterInput } from '@fullcalendar/core';

/** What FullCalendar passes a formatting function (its type is not exported). */
type FormattingArg = Parameters<Extract<FormatterInput, (arg: never) => string>>[0];

const pad2 = (value: number) => String(value).padStart(2, '0');

/**
 * A block's time text, 'HH:MM - HH:MM' on the 24-hour clock the grid uses, from the date parts FullCalendar passes:
 * its own formatter builds an Intl.DateTimeFormat per block on every redraw, most of a 600-block redraw's time.
 */
export function blockTimeText({ start, end, defaultSeparator }: FormattingArg): string {
  const from = `${pad2(start.hour)}:${pad2(start.minute)}`;
  return end ? `${from}${defaultSeparator}${pad2(end.hour)}:${pad2(end.minute)}` : from;
}

const instant = (value: EventInput['start']) =>
  value === undefined || value === null ? null : new Date(value as string | number | Date).getTime();

/** Whether two inputs of one block differ in anything but their start and end. */
function differsBesidesTiming(a: EventInput, b: EventInput): boolean {
  const { start: _aStart, end: _aEnd, ...restA } = a;
  const { start: _bStart, end: _bEnd, ...restB } = b;
  return JSON.stringify(restA) !== JSON.stringify(restB);
}

/**
 * Brings the calendar's blocks to `next` through its API, touching only the blocks whose input changed (inputs are
 * kept identical for unchanged items), so a refetch that moves one block redraws one block, and a block the person
 * just dropped, already shown where the server put it, is not drawn again. `shown` is what was given last time, by
 * block id; it is updated in place.
 */
export function syncBlocks(
  calendar: CalendarApi,
  shown: Map<string, EventInput>,
  next: readonly EventInput[],
) {
  calendar.batchRendering(() => {
    const nextIds = new Set<string>();
    for (const input of next) {
      const id = String(input.id);
      nextIds.add(id);
      const before = shown.get(id);
      if (before === input) continue;
      shown.set(id, input);
      const block = before ? calendar.getEventById(id) : null;
      if (!block || differsBesidesTiming(before as EventInput, input)) {
        block?.remove();
        calendar.addEvent(input);
        continue;
      }
      const start = instant(input.start);
      const end = instant(input.end);
      if (block.start?.getTime() !== start || (block.end?.getTime() ?? null) !== end) {
        if (input.start) block.setDates(input.start, input.end ?? null);
      }
    }
    for (const id of [...shown.keys()]) {
      if (nextIds.has(id)) continue;
      shown.delete(id);
      calendar.getEventById(id)?.remove();
    }
  });
}

/** Maps items to inputs, giving back the same input for an item it has seen (RTK Query keeps unchanged items identical). */
export function memoPerItem<Item extends object, Key>(make: (item: Item, key: Key) => EventInput) {
  const made = new WeakMap<Item, { key: Key; input: EventInput }>();
  return (item: Item, key: Key): EventInput => {
    const known = made.get(item);
    if (known && known.key === key) return known.input;
    const input = make(item, key);
    made.set(item, { key, input });
    return input;
  };
}
