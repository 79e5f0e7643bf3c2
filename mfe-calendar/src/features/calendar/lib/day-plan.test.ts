import { blocksAfterMove, dayFigureText, dayKeysOf, localDayBounds, unionMinutes } from './day-plan';

// Local wall-clock instants, so the expectations hold in any time zone.
const at = (day: number, hours: number, minutes = 0) => new Date(2026, 2, day, hours, minutes).getTime();
const block = (id: string, start: number, end: number) => ({ id, start, end });
const march8 = localDayBounds('2026-03-08');

describe('unionMinutes', () => {
  it('counts overlapping blocks once: 09:00-11:30 and 10:30-11:30 cover 2.5 h, not 3.5 h', () => {
    const blocks = [block('a', at(8, 9), at(8, 11, 30)), block('b', at(8, 10, 30), at(8, 11, 30))];
    expect(unionMinutes(blocks, march8.start, march8.end)).toBe(150);
  });

  it('adds blocks apart from each other, and one inside another adds nothing', () => {
    const blocks = [
      block('a', at(8, 9), at(8, 10)),
      block('b', at(8, 13), at(8, 14, 30)),
      block('c', at(8, 13, 15), at(8, 13, 45)),
    ];
    expect(unionMinutes(blocks, march8.start, march8.end)).toBe(150);
  });

  it('clamps a block crossing midnight to each day', () => {
    const lateShift = [block('a', at(8, 22), at(9, 2))];
    expect(unionMinutes(lateShift, march8.start, march8.end)).toBe(120);
    const march9 = localDayBounds('2026-03-09');
    expect(unionMinutes(lateShift, march9.start, march9.end)).toBe(120);
  });

  it('is 0 for no blocks, and for blocks touching the day only at its edges', () => {
    expect(unionMinutes([], march8.start, march8.end)).toBe(0);
    expect(unionMinutes([block('a', at(7, 20), at(8, 0))], march8.start, march8.end)).toBe(0);
  });

  it('joins blocks that meet end to start', () => {
    const blocks = [block('a', at(8, 9), at(8, 10)), block('b', at(8, 10), at(8, 11))];
    expect(unionMinutes(blocks, march8.start, march8.end)).toBe(120);
  });
});

describe('dayKeysOf', () => {
  it('lists each local day a block touches; an end at midnight stays on its day', () => {
    expect(dayKeysOf({ start: at(8, 9), end: at(8, 10) })).toEqual(['2026-03-08']);
    expect(dayKeysOf({ start: at(8, 22), end: at(9, 0) })).toEqual(['2026-03-08']);
    expect(dayKeysOf({ start: at(8, 22), end: at(10, 1) })).toEqual([
      '2026-03-08',
      '2026-03-09',
      '2026-03-10',
    ]);
  });

  it('lists nothing for a block without length', () => {
    expect(dayKeysOf({ start: at(8, 9), end: at(8, 9) })).toEqual([]);
  });
});

describe('blocksAfterMove', () => {
  const day = [block('a', at(8, 9), at(8, 10)), block('b', at(8, 13), at(8, 14))];

  it('moves a block of the day, adds one from elsewhere, and takes one off', () => {
    expect(blocksAfterMove(day, { blockId: 'a', start: at(8, 15), end: at(8, 16) })).toEqual([
      day[1],
      block('a', at(8, 15), at(8, 16)),
    ]);
    expect(blocksAfterMove(day, { blockId: 'c', start: at(8, 7), end: at(8, 8) })).toHaveLength(3);
    expect(blocksAfterMove(day, { blockId: 'b', removed: true })).toEqual([day[0]]);
  });
});

describe('dayFigureText', () => {
  it('says the hours left of the budget, to one decimal', () => {
    expect(dayFigureText(8.5 * 60, 15 * 60)).toEqual({ text: '6.5 h left', over: false });
    expect(dayFigureText(0, 8 * 60)).toEqual({ text: '8 h left', over: false });
    expect(dayFigureText(8 * 60, 8 * 60)).toEqual({ text: '0 h left', over: false });
  });

  it('says by how much a plan exceeds the budget, instead of the hours left', () => {
    expect(dayFigureText(9.5 * 60, 8 * 60)).toEqual({ text: 'Over by 1.5 h', over: true });
  });

  it('does not call a plan over for less than what rounds to a tenth of an hour', () => {
    expect(dayFigureText(8 * 60 + 2, 8 * 60)).toEqual({ text: '0 h left', over: false });
  });
});
