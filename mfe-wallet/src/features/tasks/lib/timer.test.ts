import { aTask } from '@time-wallet/api/testing';
import { runningTimerTitle, trackedSecondsAt } from './timer';

const STARTED = '2026-03-08T09:00:00.000Z';
const at = (seconds: number) => Date.parse(STARTED) + seconds * 1000;

describe('trackedSecondsAt', () => {
  it('is the recorded minutes while no timer runs', () => {
    expect(trackedSecondsAt(aTask({ trackedMinutes: 30 }), at(600))).toBe(1800);
  });

  it('adds the time the running timer has run', () => {
    expect(trackedSecondsAt(aTask({ trackedMinutes: 30, timerStartedAt: STARTED }), at(75))).toBe(1875);
  });

  it('never counts backwards when the device clock is behind', () => {
    expect(trackedSecondsAt(aTask({ trackedMinutes: 5, timerStartedAt: STARTED }), at(-40))).toBe(300);
  });

  it('stops counting at 12 hours of running and at a day in all', () => {
    expect(trackedSecondsAt(aTask({ timerStartedAt: STARTED }), at(13 * 3600))).toBe(12 * 3600);
    expect(trackedSecondsAt(aTask({ trackedMinutes: 1400, timerStartedAt: STARTED }), at(3600))).toBe(
      1440 * 60,
    );
  });
});

describe('runningTimerTitle', () => {
  it('puts the clock and the task before the title the page had', () => {
    const task = aTask({ title: 'Write report', trackedMinutes: 0, timerStartedAt: STARTED });
    expect(runningTimerTitle(task, at(12 * 60 + 5), 'Time Wallet')).toBe(
      '▶ 0:12:05 Write report – Time Wallet',
    );
  });
});
