import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { computeWeeklyAnalytics, type LedgerTask } from '../../src/services/wallet.js';

const at = (iso: string) => Date.parse(iso);
const task = (
  fields: Partial<LedgerTask> & { startAt: number; endAt: number; date: string },
): LedgerTask => ({
  categoryId: null,
  done: false,
  ...fields,
});

describe('weekly analytics', () => {
  test('a future week has no elapsed days, so no average and no streak', () => {
    const result = computeWeeklyAnalytics({
      timeZone: 'UTC',
      date: '2026-03-18',
      now: at('2026-03-11T12:00:00Z'),
      tasks: [
        task({
          date: '2026-03-16',
          startAt: at('2026-03-16T09:00:00Z'),
          endAt: at('2026-03-16T10:00:00Z'),
          done: true,
        }),
      ],
      events: [],
      categories: [],
    });
    assert.equal(result.totalMinutes, 60);
    assert.equal(result.averageProductiveHours, 0);
    assert.equal(result.streak, 0);
  });

  test('the streak is the longest run of days with a done task up to today', () => {
    const day = (date: string, done: boolean) =>
      task({ date, done, startAt: at(`${date}T09:00:00Z`), endAt: at(`${date}T09:30:00Z`) });
    const result = computeWeeklyAnalytics({
      timeZone: 'UTC',
      date: '2026-03-11',
      now: at('2026-03-13T12:00:00Z'),
      tasks: [
        day('2026-03-08', true),
        day('2026-03-09', true),
        day('2026-03-10', false),
        day('2026-03-11', true),
        day('2026-03-12', true),
        day('2026-03-13', true),
        day('2026-03-14', true),
      ],
      events: [],
      categories: [],
    });
    // Saturday's done task lies after today and does not extend the run of Wednesday..Friday.
    assert.equal(result.streak, 3);
  });

  test('shares are rounded per category and ties are ordered by name', () => {
    const span = (categoryId: string, minutes: number) =>
      task({
        categoryId,
        date: '2026-03-09',
        startAt: at('2026-03-09T09:00:00Z'),
        endAt: at('2026-03-09T09:00:00Z') + minutes * 60_000,
      });
    const result = computeWeeklyAnalytics({
      timeZone: 'UTC',
      date: '2026-03-09',
      now: at('2026-03-15T00:00:00Z'),
      tasks: [span('b', 20), span('a', 20), span('c', 20)],
      events: [],
      categories: [
        { id: 'a', name: 'Alpha', color: '#000001' },
        { id: 'b', name: 'Beta', color: '#000002' },
        { id: 'c', name: 'Gamma', color: '#000003' },
      ],
    });
    assert.deepEqual(
      result.byCategory.map(({ name, minutes, percent }) => [name, minutes, percent]),
      [
        ['Alpha', 20, 33],
        ['Beta', 20, 33],
        ['Gamma', 20, 33],
      ],
    );
  });
});
