import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  budgetHoursOf,
  computeWeeklyAnalytics,
  ledgerDays,
  piecesOf,
  type Block,
  type DatedTask,
  type LedgerInput,
} from '../../src/services/ledger.js';

const at = (iso: string) => Date.parse(iso);
const block = (start: string, end: string, fields: Partial<Block> = {}): Block => ({
  startAt: at(start),
  endAt: at(end),
  categoryId: null,
  productive: false,
  ...fields,
});
const dated = (date: string, fields: Partial<DatedTask> = {}): DatedTask => ({
  id: `${date}-${Math.random()}`,
  date,
  done: false,
  scheduled: true,
  estimateMinutes: null,
  ...fields,
});
const entry = (start: string, end: string) => ({ startAt: at(start), endAt: at(end) });
const input = (fields: Partial<LedgerInput>): LedgerInput => ({
  timeZone: 'UTC',
  user: { budgetHours: 15, budgetHoursByWeekday: null },
  now: at('2026-03-11T12:00:00Z'),
  blocks: [],
  tasks: [],
  entries: [],
  ...fields,
});

describe('the ledger', () => {
  test('overlapping blocks count once: 09:00-11:30 and 10:30-11:30 plan 2.5 h', () => {
    const [day] = ledgerDays(
      input({
        blocks: [
          block('2026-03-11T09:00:00Z', '2026-03-11T11:30:00Z'),
          block('2026-03-11T10:30:00Z', '2026-03-11T11:30:00Z'),
        ],
      }),
      ['2026-03-11'],
    );
    assert.equal(day!.plannedMinutes, 150);
  });

  test('each instant goes to the block that started last, so category minutes add up to the total', () => {
    const pieces = piecesOf([
      block('2026-03-11T09:00:00Z', '2026-03-11T12:00:00Z', { categoryId: 'a' }),
      block('2026-03-11T10:00:00Z', '2026-03-11T11:00:00Z', { categoryId: 'b' }),
    ]);
    assert.deepEqual(
      pieces.map((piece) => [new Date(piece.startAt).toISOString().slice(11, 16), piece.block.categoryId]),
      [
        ['09:00', 'a'],
        ['10:00', 'b'],
        ['11:00', 'a'],
      ],
    );
    assert.equal(
      pieces.reduce((sum, piece) => sum + piece.endAt - piece.startAt, 0),
      3 * 3_600_000,
    );
  });

  test('a block crossing midnight counts on each day for its part', () => {
    const days = ledgerDays(input({ blocks: [block('2026-03-11T23:00:00Z', '2026-03-12T01:30:00Z')] }), [
      '2026-03-11',
      '2026-03-12',
    ]);
    assert.deepEqual(
      days.map((day) => day.plannedMinutes),
      [60, 90],
    );
  });

  test("days are the request zone's: 20:00-22:00 in New York is 01:00-03:00 the next day in London", () => {
    const blocks = [block('2026-03-12T00:00:00Z', '2026-03-12T02:00:00Z')];
    const newYork = ledgerDays(input({ timeZone: 'America/New_York', blocks }), ['2026-03-11', '2026-03-12']);
    const london = ledgerDays(input({ timeZone: 'Europe/London', blocks }), ['2026-03-11', '2026-03-12']);
    assert.deepEqual(
      newYork.map((day) => day.plannedMinutes),
      [120, 0],
    );
    assert.deepEqual(
      london.map((day) => day.plannedMinutes),
      [0, 120],
    );
  });

  test('per-weekday budgets, Sunday first, else the one budget; over is planned beyond it', () => {
    const user = { budgetHours: 15, budgetHoursByWeekday: JSON.stringify([0, 8, 8, 8, 8, 6, 0]) };
    assert.equal(budgetHoursOf(user, '2026-03-08'), 0); // Sunday
    assert.equal(budgetHoursOf(user, '2026-03-13'), 6); // Friday
    assert.equal(budgetHoursOf({ ...user, budgetHoursByWeekday: null }, '2026-03-13'), 15);
    const [friday] = ledgerDays(
      input({ user, blocks: [block('2026-03-13T08:00:00Z', '2026-03-13T15:30:00Z')] }),
      ['2026-03-13'],
    );
    assert.equal(friday!.budgetMinutes, 360);
    assert.equal(friday!.overMinutes, 90);
  });

  test('tracked minutes are the union of entries clamped to the day; unscheduled estimates apart', () => {
    const [day] = ledgerDays(
      input({
        entries: [
          // 23:30 the day before to 00:40: only its 40 minutes today count.
          entry('2026-03-10T23:30:00Z', '2026-03-11T00:40:00Z'),
          entry('2026-03-11T11:20:00Z', '2026-03-11T12:00:00Z'),
          entry('2026-03-11T13:00:00Z', '2026-03-11T13:25:00Z'),
        ],
        tasks: [
          dated('2026-03-11', { scheduled: false, estimateMinutes: 45 }),
          dated('2026-03-11', { scheduled: false, estimateMinutes: 30, done: true }),
        ],
      }),
      ['2026-03-10', '2026-03-11'],
    );
    assert.equal(day!.trackedMinutes, 30);
    const today = ledgerDays(input({ entries: [entry('2026-03-11T11:20:00Z', '2026-03-11T12:00:00Z')] }), [
      '2026-03-11',
    ])[0]!;
    assert.equal(today.trackedMinutes, 40);
  });

  test('a day holds at most its own length of tracked time', () => {
    const [day] = ledgerDays(
      input({
        entries: [
          entry('2026-03-10T12:00:00Z', '2026-03-11T12:00:00Z'),
          entry('2026-03-11T12:00:00Z', '2026-03-12T12:00:00Z'),
        ],
      }),
      ['2026-03-11'],
    );
    assert.equal(day!.trackedMinutes, 1440);
  });

  test('productive time: the union of productive blocks and entries, never a sum', () => {
    const [day] = ledgerDays(
      input({
        now: at('2026-03-11T20:00:00Z'),
        blocks: [
          block('2026-03-11T09:00:00Z', '2026-03-11T10:00:00Z', { productive: true }),
          block('2026-03-11T09:30:00Z', '2026-03-11T10:30:00Z', { productive: true }),
          block('2026-03-11T13:00:00Z', '2026-03-11T14:00:00Z'),
        ],
        entries: [
          // Half inside the productive 09:00-10:30, half after it.
          entry('2026-03-11T10:00:00Z', '2026-03-11T11:00:00Z'),
          entry('2026-03-11T15:00:00Z', '2026-03-11T15:20:00Z'),
        ],
      }),
      ['2026-03-11'],
    );
    assert.equal(day!.productiveMinutes, 90 + 30 + 20);
  });
});

describe('weekly analytics', () => {
  const week = (
    fields: Partial<LedgerInput> & { categories?: { id: string; name: string; color: string }[] },
  ) => computeWeeklyAnalytics({ ...input(fields), date: '2026-03-11', categories: fields.categories ?? [] });

  test('a future week has no elapsed days, so no average and no streak', () => {
    const result = computeWeeklyAnalytics({
      ...input({
        now: at('2026-03-11T12:00:00Z'),
        blocks: [block('2026-03-16T09:00:00Z', '2026-03-16T10:00:00Z', { productive: true })],
        tasks: [dated('2026-03-16', { done: true })],
      }),
      date: '2026-03-18',
      categories: [],
    });
    assert.equal(result.totalMinutes, 60);
    assert.equal(result.averageProductiveHours, 0);
    assert.equal(result.streak, 0);
  });

  test('the streak is the longest run of days with a done task up to today', () => {
    const result = week({
      now: at('2026-03-13T12:00:00Z'),
      tasks: [
        dated('2026-03-08', { done: true }),
        dated('2026-03-09', { done: true }),
        dated('2026-03-10'),
        dated('2026-03-11', { done: true }),
        dated('2026-03-12', { done: true }),
        dated('2026-03-13', { done: true, scheduled: false, estimateMinutes: 10 }),
        dated('2026-03-14', { done: true }),
      ],
    });
    // Saturday's done task lies after today and does not extend the run of Wednesday..Friday.
    assert.equal(result.streak, 3);
  });

  test('shares are of the planned total, uncategorised time is its own entry, ties go by name', () => {
    const hour = (hour: number, categoryId: string | null) =>
      block(
        `2026-03-09T${String(hour).padStart(2, '0')}:00:00Z`,
        `2026-03-09T${String(hour).padStart(2, '0')}:20:00Z`,
        {
          categoryId,
        },
      );
    const result = week({
      now: at('2026-03-15T00:00:00Z'),
      blocks: [hour(9, 'b'), hour(10, 'a'), hour(11, null), hour(12, 'deleted')],
      categories: [
        { id: 'a', name: 'Alpha', color: '#000001' },
        { id: 'b', name: 'Beta', color: '#000002' },
      ],
    });
    assert.equal(result.totalMinutes, 80);
    assert.deepEqual(
      result.byCategory.map(({ categoryId, name, minutes, percent }) => [categoryId, name, minutes, percent]),
      [
        ['', 'No category', 40, 50],
        ['a', 'Alpha', 20, 25],
        ['b', 'Beta', 20, 25],
      ],
    );
  });

  test('daily rows carry planned, tracked and budget minutes, and minutes stays the planned figure', () => {
    const result = week({
      user: { budgetHours: 8, budgetHoursByWeekday: null },
      blocks: [block('2026-03-10T09:00:00Z', '2026-03-10T10:00:00Z')],
      entries: [entry('2026-03-10T11:00:00Z', '2026-03-10T11:42:00Z')],
    });
    const tuesday = result.daily.find((day) => day.date === '2026-03-10')!;
    assert.deepEqual(tuesday, {
      date: '2026-03-10',
      minutes: 60,
      // Tracked time is productive time.
      productiveMinutes: 42,
      plannedMinutes: 60,
      trackedMinutes: 42,
      budgetMinutes: 480,
      overMinutes: 0,
      remainingMinutes: 420,
    });
  });
});
