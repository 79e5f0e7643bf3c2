import { aLedgerDay } from '@time-wallet/api/testing';
import { DayLedgerStore } from './day-ledger-store';

const at = (day: number, hours: number, minutes = 0) => new Date(2026, 2, day, hours, minutes);
const block = (id: string, start: Date, end: Date) => ({ id, start: +start, end: +end });

// Sunday: 09:00-11:00 and 10:00-12:00 planned (3 h), 8 h budget; Monday: nothing planned.
const sunday = aLedgerDay({ date: '2026-03-08', plannedMinutes: 180, budgetMinutes: 480 });
const monday = aLedgerDay({ date: '2026-03-09', plannedMinutes: 0, budgetMinutes: 480 });
const blocks = [block('task:a', at(8, 9), at(8, 11)), block('event-1', at(8, 10), at(8, 12))];

function storeWithData(version: unknown = 1) {
  const store = new DayLedgerStore();
  store.setData([sunday, monday], blocks, version);
  return store;
}

const textOf = (store: DayLedgerStore, day: string) => store.figureOf(day)?.text;

it("shows the server's figures until something moves", () => {
  const store = storeWithData();
  expect(store.figureOf('2026-03-08')).toEqual({ text: '5 h left', over: false, preview: false });
  expect(textOf(store, '2026-03-09')).toBe('8 h left');
  expect(store.figureOf('2026-03-10')).toBeNull();
});

it("shows the ledger's remaining and over minutes, never counting them from planned and budget", () => {
  const store = new DayLedgerStore();
  // The server's figures as it computed them (a budget changed that day, say): the header shows them as they are.
  store.setData(
    [
      { ...sunday, remainingMinutes: 100, overMinutes: 0 },
      { ...monday, remainingMinutes: 0, overMinutes: 45 },
    ],
    blocks,
    1,
  );
  expect(store.figureOf('2026-03-08')).toEqual({ text: '1.7 h left', over: false, preview: false });
  expect(store.figureOf('2026-03-09')).toEqual({ text: 'Over by 45 min', over: true, preview: false });
  // A drag's preview shifts the server's figure by what it changes: 1 h more planned on Sunday, 40 min left.
  store.previewMove('task:a', at(8, 7), at(8, 9));
  expect(textOf(store, '2026-03-08')).toBe('0.7 h left');
});

it('previews a block moved to another day on both days', () => {
  const store = storeWithData();
  store.previewMove('task:a', at(9, 14), at(9, 16));
  // Sunday keeps 10:00-12:00 (2 h); Monday gains 2 h.
  expect(store.figureOf('2026-03-08')).toEqual({ text: '6 h left', over: false, preview: true });
  expect(textOf(store, '2026-03-09')).toBe('6 h left');
});

it('counts an overlap once in the preview', () => {
  const store = storeWithData();
  // Moved onto 10:30-11:30, inside the event's 10:00-12:00: the day has 2 h planned.
  store.previewMove('task:a', at(8, 10, 30), at(8, 11, 30));
  expect(textOf(store, '2026-03-08')).toBe('6 h left');
});

it('previews a task from the list as an addition, and one taken off the grid as a removal', () => {
  const store = storeWithData();
  store.previewMove('task:new', at(9, 8), at(9, 17, 30));
  expect(store.figureOf('2026-03-09')).toEqual({ text: 'Over by 1.5 h', over: true, preview: true });
  store.previewRemoval('task:a');
  expect(textOf(store, '2026-03-08')).toBe('6 h left');
  expect(textOf(store, '2026-03-09')).toBe('8 h left');
});

it("adds the move's change to the server's figure, which stays the reference", () => {
  const store = new DayLedgerStore();
  // The server counts 4 h (say, an occurrence the grid does not show); moving a 2 h block off the day takes 2 h.
  store.setData(
    [aLedgerDay({ ...sunday, plannedMinutes: 240, overMinutes: 0, remainingMinutes: 240 })],
    [block('task:a', at(8, 9), at(8, 11))],
    1,
  );
  store.previewMove('task:a', at(9, 9), at(9, 11));
  expect(textOf(store, '2026-03-08')).toBe('6 h left');
});

it('goes back to the server figures when the preview is cleared', () => {
  const store = storeWithData();
  store.previewMove('task:a', at(9, 14), at(9, 16));
  store.clearPreview();
  expect(store.figureOf('2026-03-08')).toEqual({ text: '5 h left', over: false, preview: false });
});

it('keeps a dropped move until the ledger is read again, even when the blocks are read first', () => {
  const store = storeWithData(1);
  store.pin({ blockId: 'task:a', start: +at(9, 14), end: +at(9, 16) });
  store.clearPreview();
  expect(textOf(store, '2026-03-09')).toBe('6 h left');
  store.setData([sunday, monday], [block('task:a', at(9, 14), at(9, 16)), blocks[1]], 1);
  expect(textOf(store, '2026-03-09')).toBe('6 h left');
  store.setData(
    [sunday, { ...monday, plannedMinutes: 150, remainingMinutes: 330 }],
    [block('task:a', at(9, 14), at(9, 16))],
    2,
  );
  expect(store.figureOf('2026-03-09')).toEqual({ text: '5.5 h left', over: false, preview: false });
});

it('drops a refused move at once', () => {
  const store = storeWithData();
  store.pin({ blockId: 'task:a', removed: true });
  store.cancel();
  expect(textOf(store, '2026-03-08')).toBe('5 h left');
});

it('tells its subscribers only when a figure changes, and keeps the others as they were', () => {
  const store = storeWithData();
  const listener = jest.fn();
  store.subscribe(listener);
  const mondayBefore = store.figureOf('2026-03-09');
  // 09:00-10:30 with the event's 10:00-12:00 still covers 3 h: nothing to tell.
  store.previewMove('task:a', at(8, 9), at(8, 10, 30));
  expect(listener).not.toHaveBeenCalled();
  store.previewMove('task:a', at(8, 14), at(8, 16));
  expect(listener).toHaveBeenCalledTimes(1);
  expect(store.figureOf('2026-03-09')).toBe(mondayBefore);
});
