import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  ExpansionBudget,
  SERIES_NEVER_ENDS,
  SeriesRuleError,
  hasOccurrenceAt,
  normalizeSeriesRule,
  occurrenceId,
  occurrenceStarts,
  parseOccurrenceId,
  ruleEndingBefore,
  ruleFrom,
  seriesEnd,
  type SeriesShape,
} from '../../src/lib/recurrence.js';
import { instantOfLocalTime, startOfLocalDay } from '../../src/lib/time-zone.js';

const HOUR = 3_600_000;
const BERLIN = 'Europe/Berlin';
const iso = (instant: number) => new Date(instant).toISOString();

function series(rrule: string, startDate: string, startHHMM = '09:00', extra: Partial<SeriesShape> = {}) {
  const startAt = instantOfLocalTime(BERLIN, startDate, startHHMM);
  return {
    rrule: normalizeSeriesRule(rrule, startAt, BERLIN),
    zone: BERLIN,
    startAt,
    durationMs: HOUR,
    allDay: false,
    exdates: [],
    ...extra,
  } satisfies SeriesShape;
}

const dayRange = (from: string, to: string) =>
  [startOfLocalDay(BERLIN, from), startOfLocalDay(BERLIN, to)] as const;

describe('series expansion', () => {
  test('a weekly series from 2020 shows in 2028, on its weekdays at its wall-clock time', () => {
    // 2020-01-06 is a Monday.
    const weekly = series('FREQ=WEEKLY;BYDAY=MO,WE', '2020-01-06');
    const starts = occurrenceStarts(weekly, ...dayRange('2028-03-06', '2028-03-13'));
    assert.deepEqual(starts.map(iso), ['2028-03-06T08:00:00.000Z', '2028-03-08T08:00:00.000Z']);
  });

  test('a DST change keeps the local wall-clock time', () => {
    // Berlin moves to summer time on 2026-03-29: 09:00 is 08:00Z before, 07:00Z after.
    const daily = series('FREQ=DAILY', '2026-03-27');
    const starts = occurrenceStarts(daily, ...dayRange('2026-03-28', '2026-03-31'));
    assert.deepEqual(starts.map(iso), [
      '2026-03-28T08:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
      '2026-03-30T07:00:00.000Z',
    ]);
  });

  test('a COUNT series far in the future has exactly its occurrences', () => {
    const finite = series('FREQ=WEEKLY;COUNT=4', '2030-05-06');
    const all = occurrenceStarts(finite, ...dayRange('2030-01-01', '2031-01-01'));
    assert.equal(all.length, 4);
    assert.equal(iso(all[3]!), '2030-05-27T07:00:00.000Z');
    assert.equal(seriesEnd(finite), all[3]! + HOUR);
    assert.deepEqual(occurrenceStarts(finite, ...dayRange('2026-01-01', '2026-03-01')), []);
  });

  test('skipped occurrences (EXDATE) are left out', () => {
    const daily = series('FREQ=DAILY', '2026-11-02');
    const skipped = instantOfLocalTime(BERLIN, '2026-11-04', '09:00');
    const starts = occurrenceStarts(
      { ...daily, exdates: [skipped] },
      ...dayRange('2026-11-03', '2026-11-06'),
    );
    assert.deepEqual(starts.map(iso), ['2026-11-03T08:00:00.000Z', '2026-11-05T08:00:00.000Z']);
  });

  test('an occurrence that started the day before and runs into the range is included', () => {
    const late = series('FREQ=DAILY', '2026-11-02', '23:00', { durationMs: 2 * HOUR });
    const starts = occurrenceStarts(late, ...dayRange('2026-11-05', '2026-11-06'));
    assert.deepEqual(starts.map(iso), ['2026-11-04T22:00:00.000Z', '2026-11-05T22:00:00.000Z']);
  });

  test('UNTIL as a UTC instant or a date bounds the series inclusively', () => {
    const untilInstant = series('FREQ=DAILY;UNTIL=20261105T080000Z', '2026-11-02');
    assert.equal(occurrenceStarts(untilInstant, ...dayRange('2026-11-01', '2026-12-01')).length, 4);
    const untilDate = series('FREQ=DAILY;UNTIL=20261105', '2026-11-02');
    assert.equal(occurrenceStarts(untilDate, ...dayRange('2026-11-01', '2026-12-01')).length, 4);
    assert.equal(seriesEnd(series('FREQ=DAILY', '2026-11-02')), SERIES_NEVER_ENDS);
  });

  test('monthly on the nth weekday and yearly series far from their start', () => {
    const fourthThursday = series('FREQ=MONTHLY;BYDAY=4TH', '2020-11-26');
    const starts = occurrenceStarts(fourthThursday, ...dayRange('2031-11-01', '2032-01-01'));
    assert.deepEqual(starts.map(iso), ['2031-11-27T08:00:00.000Z', '2031-12-25T08:00:00.000Z']);
    const birthday = series('FREQ=YEARLY', '1950-03-05', '00:00', { allDay: true, durationMs: 24 * HOUR });
    const [next] = occurrenceStarts(birthday, ...dayRange('2999-01-01', '2999-12-31'));
    assert.equal(next, startOfLocalDay(BERLIN, '2999-03-05'));
  });

  test('a series of zero-length items (unscheduled tasks) lists those starting in the range', () => {
    const start = startOfLocalDay(BERLIN, '2026-11-02');
    const unscheduled = {
      rrule: 'FREQ=DAILY',
      zone: BERLIN,
      startAt: start,
      durationMs: 0,
      allDay: true,
      exdates: [],
    };
    const starts = occurrenceStarts(unscheduled, ...dayRange('2026-11-04', '2026-11-05'));
    assert.deepEqual(starts, [startOfLocalDay(BERLIN, '2026-11-04')]);
  });

  test('a daily series read 1000 years on walks only the range', () => {
    const daily = series('FREQ=DAILY;BYMONTH=2', '1900-02-01');
    const budget = new ExpansionBudget(10);
    const starts = occurrenceStarts(daily, ...dayRange('2999-02-01', '2999-02-03'), budget);
    assert.equal(starts.length, 2);
  });
});

describe('series rules', () => {
  const start = instantOfLocalTime(BERLIN, '2026-11-23', '09:00');
  const refused = (rule: string) =>
    assert.throws(() => normalizeSeriesRule(rule, start, BERLIN), SeriesRuleError, rule);

  test('rules are stored without a prefix, with upper-case names', () => {
    assert.equal(
      normalizeSeriesRule('RRULE:freq=weekly;byday=mo,we;', start, BERLIN),
      'FREQ=WEEKLY;BYDAY=MO,WE',
    );
  });

  test("rules are read by the client's reader: values in any case, a reason for each part that cannot be read", () => {
    assert.equal(
      normalizeSeriesRule('freq=weekly;wkst=su;until=20261231t225959z;x-source=Outlook', start, BERLIN),
      'FREQ=WEEKLY;WKST=SU;UNTIL=20261231T225959Z;X-SOURCE=Outlook',
    );
    const messageOf = (rule: string) => {
      try {
        normalizeSeriesRule(rule, start, BERLIN);
        return null;
      } catch (error) {
        return error instanceof SeriesRuleError ? error.message : String(error);
      }
    };
    assert.equal(
      messageOf('FREQ=WEEKLY;WKST=SUNDAY'),
      'The repeat rule cannot be used: WKST must be a weekday: SU, MO, TU, WE, TH, FR or SA',
    );
    assert.equal(
      messageOf('FREQ=WEEKLY;BYDAY='),
      'The repeat rule cannot be used: BYDAY must list at least one weekday',
    );
    assert.equal(messageOf('FREQ=DAILY;freq=WEEKLY'), 'The repeat rule cannot be used: FREQ appears twice');
    assert.equal(
      messageOf('FREQ=DAILY;UNTIL=20260230'),
      'UNTIL must be a real date (YYYYMMDD) or UTC date-time (YYYYMMDDTHHMMSSZ) from 1900-01-01 to 2999-12-31',
    );
  });

  test('pathological and malformed rules are refused with a reason', () => {
    for (const rule of [
      'FREQ=SECONDLY',
      'FREQ=MINUTELY;COUNT=5',
      'FREQ=HOURLY',
      'FREQ=DAILY;BYHOUR=1,2,3',
      'FREQ=DAILY;BYMINUTE=0,15,30,45',
      'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30',
      'FREQ=DAILY;INTERVAL=0',
      'FREQ=DAILY;COUNT=100000',
      'FREQ=DAILY;UNTIL=',
      'FREQ=DAILY;UNTIL=tomorrow',
      'FREQ=DAILY;UNTIL=20200101',
      'FREQ=FORTNIGHTLY',
      'BYDAY=MO',
      '',
    ]) {
      refused(rule);
    }
  });

  test('occurrence ids name the series and the original start', () => {
    const at = Date.UTC(2026, 10, 23, 8, 0, 0);
    const id = occurrenceId('3f2a', at);
    assert.equal(id, '3f2a_20261123T080000Z');
    assert.deepEqual(parseOccurrenceId(id), { seriesId: '3f2a', start: at });
    assert.equal(parseOccurrenceId('3f2a'), null);
    const weekly = series('FREQ=WEEKLY', '2026-11-23');
    assert.ok(hasOccurrenceAt(weekly, start));
    assert.ok(!hasOccurrenceAt(weekly, start + 24 * HOUR));
  });

  test('this and following: the old series ends before the occurrence, the new one keeps what is left', () => {
    const counted = series('FREQ=DAILY;COUNT=10', '2026-11-23');
    const split = instantOfLocalTime(BERLIN, '2026-11-27', '09:00');
    const ended = { ...counted, rrule: ruleEndingBefore(counted, split) };
    assert.equal(occurrenceStarts(ended, ...dayRange('2026-11-01', '2026-12-31')).length, 4);
    const rest = { ...counted, startAt: split, rrule: ruleFrom(counted, split) };
    assert.equal(rest.rrule, 'FREQ=DAILY;COUNT=6');
    assert.equal(occurrenceStarts(rest, ...dayRange('2026-11-01', '2026-12-31')).length, 6);
  });
});
