import { Calendar, type EventInput } from '@fullcalendar/core';
import timeGridPlugin from '@fullcalendar/timegrid';
import { blockTimeText, memoPerItem, syncBlocks } from './grid-sync';

function calendarOn(date: string) {
  const calendar = new Calendar(document.createElement('div'), {
    plugins: [timeGridPlugin],
    initialView: 'timeGridWeek',
    initialDate: date,
    eventTimeFormat: blockTimeText,
  });
  calendar.render();
  return calendar;
}

// FullCalendar gives each parsed block an instance id: the same id means the block was not parsed (nor drawn) again.
const instanceIdOf = (calendar: Calendar, id: string) =>
  (calendar.getEventById(id) as unknown as { _instance: { instanceId: string } } | null)?._instance
    .instanceId;

const block = (id: string, start: string, end: string, title = id): EventInput => ({ id, title, start, end });

describe('blockTimeText', () => {
  const part = (hour: number, minute: number) => ({ hour, minute });
  const arg = (start: ReturnType<typeof part>, end?: ReturnType<typeof part>) =>
    ({ start, end, defaultSeparator: ' - ' }) as unknown as Parameters<typeof blockTimeText>[0];

  it('writes a range on the 24-hour clock', () => {
    expect(blockTimeText(arg(part(9, 5), part(13, 30)))).toBe('09:05 - 13:30');
  });

  it('writes the start alone when there is no end', () => {
    expect(blockTimeText(arg(part(0, 0)))).toBe('00:00');
  });
});

describe('syncBlocks', () => {
  it('adds, moves, changes and removes only the blocks whose input changed', () => {
    const calendar = calendarOn('2026-03-02');
    const shown = new Map<string, EventInput>();
    const a = block('a', '2026-03-02T09:00:00', '2026-03-02T10:00:00');
    const b = block('b', '2026-03-03T09:00:00', '2026-03-03T10:00:00');
    const c = block('c', '2026-03-04T09:00:00', '2026-03-04T10:00:00');
    syncBlocks(calendar, shown, [a, b, c]);
    const firstA = instanceIdOf(calendar, 'a');

    const movedB = block('b', '2026-03-03T11:00:00', '2026-03-03T12:30:00');
    const renamedC = block('c', '2026-03-04T09:00:00', '2026-03-04T10:00:00', 'Renamed');
    const d = block('d', '2026-03-05T09:00:00', '2026-03-05T10:00:00');
    syncBlocks(calendar, shown, [a, movedB, renamedC, d]);

    expect(instanceIdOf(calendar, 'a')).toBe(firstA);
    expect(calendar.getEventById('b')?.start?.getHours()).toBe(11);
    expect(calendar.getEventById('b')?.end?.getMinutes()).toBe(30);
    expect(calendar.getEventById('c')?.title).toBe('Renamed');
    expect(calendar.getEventById('d')).not.toBeNull();

    syncBlocks(calendar, shown, [movedB]);
    expect(calendar.getEvents().map((event) => event.id)).toEqual(['b']);
    calendar.destroy();
  });

  it('leaves a block already shown where its new input puts it (a drop read back) as it is', () => {
    const calendar = calendarOn('2026-03-02');
    const shown = new Map<string, EventInput>();
    syncBlocks(calendar, shown, [block('a', '2026-03-02T09:00:00', '2026-03-02T10:00:00')]);
    const dropped = calendar.getEventById('a');
    dropped?.setDates('2026-03-02T14:00:00', '2026-03-02T15:00:00');
    const afterDrop = instanceIdOf(calendar, 'a');
    const setDates = jest.spyOn(Object.getPrototypeOf(dropped) as { setDates: () => void }, 'setDates');

    syncBlocks(calendar, shown, [block('a', '2026-03-02T14:00:00', '2026-03-02T15:00:00')]);

    expect(setDates).not.toHaveBeenCalled();
    expect(instanceIdOf(calendar, 'a')).toBe(afterDrop);
    setDates.mockRestore();
    calendar.destroy();
  });
});

describe('memoPerItem', () => {
  it('gives back the same input for the same item and key, a new one otherwise', () => {
    const inputOf = memoPerItem((item: { id: string }, color: string) => ({ id: item.id, color }));
    const item = { id: 'x' };
    const first = inputOf(item, 'red');
    expect(inputOf(item, 'red')).toBe(first);
    expect(inputOf(item, 'blue')).not.toBe(first);
    expect(inputOf({ id: 'x' }, 'blue')).not.toBe(first);
  });
});
