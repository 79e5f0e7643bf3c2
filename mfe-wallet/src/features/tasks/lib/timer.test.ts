import { aTask, aTimeEntry } from '@time-wallet/api/testing';
import { runningTimerTitle, trackedSecondsAt } from './timer';

const STARTED = '2026-03-08T09:00:00.000Z';
const at = (seconds: number) => Date.parse(STARTED) + seconds * 1000;
const entry = (id: string, start: string, end: string | null, taskId = 'task-1') =>
  aTimeEntry({ id, taskId, start, end });

describe('trackedSecondsAt', () => {
  it("sums the task's ended entries to the second", () => {
    const entries = [
      entry('e1', '2026-03-08T07:00:00.000Z', '2026-03-08T07:01:04.000Z'),
      entry('e2', '2026-03-08T08:00:00.000Z', '2026-03-08T08:00:40.000Z'),
    ];
    expect(trackedSecondsAt(aTask({ trackedMinutes: 1 }), entries, at(600))).toBe(104);
  });

  it("leaves out other tasks' entries", () => {
    const entries = [
      entry('e1', '2026-03-08T07:00:00.000Z', '2026-03-08T07:00:40.000Z'),
      entry('e2', '2026-03-08T08:00:00.000Z', '2026-03-08T09:00:00.000Z', 'task-2'),
    ];
    expect(trackedSecondsAt(aTask(), entries, at(0))).toBe(40);
  });

  it('counts the running timer from its start, not its open entry twice', () => {
    const entries = [
      entry('e1', '2026-03-08T07:00:00.000Z', '2026-03-08T07:30:00.000Z'),
      entry('e2', STARTED, null),
    ];
    expect(trackedSecondsAt(aTask({ timerStartedAt: STARTED }), entries, at(75))).toBe(1875);
  });

  it('stands on the recorded minutes until the entries are known', () => {
    expect(trackedSecondsAt(aTask({ trackedMinutes: 30 }), undefined, at(600))).toBe(1800);
    expect(trackedSecondsAt(aTask({ trackedMinutes: 30, timerStartedAt: STARTED }), undefined, at(75))).toBe(
      1875,
    );
  });

  it('never counts backwards when the device clock is behind', () => {
    expect(trackedSecondsAt(aTask({ timerStartedAt: STARTED }), [], at(-40))).toBe(0);
  });

  it("cuts nothing itself at 12 hours: the server's stop does", () => {
    expect(trackedSecondsAt(aTask({ timerStartedAt: STARTED }), [], at(12 * 3600 + 5))).toBe(12 * 3600 + 5);
  });
});

describe('runningTimerTitle', () => {
  it('puts the clock and the task before the title the page had', () => {
    const task = aTask({ title: 'Write report', trackedMinutes: 0, timerStartedAt: STARTED });
    expect(runningTimerTitle(task, [], at(12 * 60 + 5), 'Time Wallet')).toBe(
      '▶ 0:12:05 Write report – Time Wallet',
    );
  });
});
