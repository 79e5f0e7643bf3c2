import { WALLET_STORE_KEY } from '@time-wallet/api';
import { readWalletSnapshot, toWalletSnapshot, writeWalletSnapshot } from './wallet-snapshot';

const AT = '2026-11-20T10:00:00.000Z';

describe('toWalletSnapshot', () => {
  it("reads today's ledger and derives what remains", () => {
    const answer = {
      spentHours: 6.5,
      budgetHours: 10,
      trackedHours: 2.3,
      unscheduledHours: 1.5,
      overHours: 0,
    };
    expect(toWalletSnapshot(answer, AT)).toEqual({
      spentHours: 6.5,
      budgetHours: 10,
      remainingHours: 3.5,
      trackedHours: 2.3,
      unscheduledHours: 1.5,
      overHours: 0,
      lastUpdated: AT,
    });
  });

  it('takes remaining from the server, not from the budget less the rounded spent hours', () => {
    // 5 h 15 min planned of 15 h: spent reads 5.3, and the server's 585 minutes remaining read 9.8, not 9.7.
    const answer = { spentHours: 5.3, budgetHours: 15, remainingHours: 9.8 };
    expect(toWalletSnapshot(answer, AT).remainingHours).toBe(9.8);
  });

  it('takes how far the plan runs over from the server', () => {
    expect(toWalletSnapshot({ spentHours: 9.3, budgetHours: 8, overHours: 1.3 }, AT).overHours).toBe(1.3);
  });

  it('counts the ledger figures a snapshot stored before them lacks as 0', () => {
    expect(toWalletSnapshot({ spentHours: 2, budgetHours: 12 }, AT)).toMatchObject({
      trackedHours: 0,
      unscheduledHours: 0,
      overHours: 0,
    });
  });

  it('never lets remaining go below 0 when the answer has no remaining figure', () => {
    expect(toWalletSnapshot({ spentHours: 18, budgetHours: 15 }, AT).remainingHours).toBe(0);
  });

  it.each([
    ['a text', '7'],
    ['a negative number', -2],
    ['NaN', Number.NaN],
    ['null', null],
    ['nothing', undefined],
  ])('counts a spentHours that is %s as 0', (_case, spentHours) => {
    expect(toWalletSnapshot({ spentHours, budgetHours: 15 }, AT)).toMatchObject({
      spentHours: 0,
      remainingHours: 15,
    });
  });

  it('uses the default budget of 15 hours when the answer has none', () => {
    expect(toWalletSnapshot([], AT)).toMatchObject({ spentHours: 0, budgetHours: 15, remainingHours: 15 });
  });
});

describe('the wallet-store snapshot', () => {
  beforeEach(() => window.localStorage.clear());

  it('round-trips through localStorage under wallet-store', () => {
    const snapshot = toWalletSnapshot({ spentHours: 2, budgetHours: 12 }, AT);
    writeWalletSnapshot(snapshot);
    expect(JSON.parse(window.localStorage.getItem(WALLET_STORE_KEY) ?? '')).toEqual(snapshot);
    expect(readWalletSnapshot()).toEqual(snapshot);
  });

  it('is absent when nothing or garbage is stored', () => {
    expect(readWalletSnapshot()).toBeNull();
    window.localStorage.setItem(WALLET_STORE_KEY, '{not json');
    expect(readWalletSnapshot()).toBeNull();
  });
});
