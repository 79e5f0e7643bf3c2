import {
  balanceAfter,
  blocksAfterMove,
  dayFigureText,
  dayKeysOf,
  localDayBounds,
  unionMinutes,
} from './day-plan';

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
  const balance = (remainingMinutes: number, overMinutes = 0) => ({ remainingMinutes, overMinutes });

  it("says the server's hours left of the budget, rounded to one decimal for display only", () => {
    expect(dayFigureText(balance(390))).toEqual({ text: '6.5 h left', over: false });
    expect(dayFigureText(balance(480))).toEqual({ text: '8 h left', over: false });
    expect(dayFigureText(balance(0))).toEqual({ text: '0 h left', over: false });
    // 100 minutes read 1.7 h, as the wallet's remainingHours (remainingMinutes / 60 at one decimal).
    expect(dayFigureText(balance(100))).toEqual({ text: '1.7 h left', over: false });
  });

  it("says the server's over figure instead of the hours left", () => {
    expect(dayFigureText(balance(0, 90))).toEqual({ text: 'Over by 1.5 h', over: true });
  });

  it('shows what the server sends, never counting it from planned and budget', () => {
    // A day the server counts differently than planned - budget would (say, a budget changed that day).
    expect(dayFigureText(balance(200, 0))).toEqual({ text: '3.3 h left', over: false });
  });

  it('calls a plan a minute or two over over, in minutes, as the wallet and Today say it', () => {
    expect(dayFigureText(balance(0, 2))).toEqual({ text: 'Over by 2 min', over: true });
    expect(dayFigureText(balance(0, 90))).toEqual({ text: 'Over by 1.5 h', over: true });
  });
});

describe('balanceAfter', () => {
  it("is the server's figure when the move changes nothing", () => {
    const server = { remainingMinutes: 120, overMinutes: 0 };
    expect(balanceAfter(server, 0)).toBe(server);
  });

  it("shifts the server's figures by the planned minutes a move adds or takes, across zero", () => {
    expect(balanceAfter({ remainingMinutes: 60, overMinutes: 0 }, 90)).toEqual({
      remainingMinutes: 0,
      overMinutes: 30,
    });
    expect(balanceAfter({ remainingMinutes: 0, overMinutes: 30 }, -90)).toEqual({
      remainingMinutes: 60,
      overMinutes: 0,
    });
  });
});
