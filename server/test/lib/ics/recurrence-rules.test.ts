import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import ICAL from 'ical.js';
import { recurrenceRuleProblem, type SeriesContext } from '../../../src/lib/ics/recurrence-rules.js';

// DTSTART of the rules below: Wednesday 11 March 2026, a year before the end of the import horizon.
const START = ICAL.Time.fromDateTimeString('2026-03-11T10:00:00Z');
const SERIES: SeriesContext = { startWeekday: 'WE', secondsToWalk: 366 * 86_400, maxOccurrences: 20_000 };

/** Occurrences ical.js finds in the 5 years after START, stopping at 50: what an accepted rule must still produce. */
function firstOccurrences(rule: string): number {
  const iterator = ICAL.Recur.fromString(rule).iterator(START);
  let found = 0;
  for (let occurrence = iterator.next(); occurrence && found < 50; occurrence = iterator.next()) {
    if (occurrence.year > 2031) break;
    found += 1;
  }
  return found;
}

const refused: Array<[string, RegExp]> = [
  // Never produce an occurrence; ical.js loops on them until the worker's time limit.
  ['FREQ=DAILY;BYDAY=1MO', /needs FREQ=MONTHLY or FREQ=YEARLY/],
  ['FREQ=HOURLY;BYDAY=-1FR', /needs FREQ=MONTHLY or FREQ=YEARLY/],
  ['FREQ=WEEKLY;BYDAY=2TU', /needs FREQ=MONTHLY or FREQ=YEARLY/],
  ['FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30', /no month in BYMONTH/],
  ['FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30,31', /no month in BYMONTH/],
  ['FREQ=MINUTELY;BYMONTH=4,6,9,11;BYMONTHDAY=31', /no month in BYMONTH/],
  ['FREQ=MONTHLY;BYMONTH=4;BYMONTHDAY=-31', /no month in BYMONTH/],
  ['FREQ=DAILY;INTERVAL=7;BYDAY=MO,TU', /weekday of DTSTART/],
  ['FREQ=MONTHLY;BYDAY=6MO', /at most 5/],
  ['FREQ=YEARLY;BYMONTH=3;BYDAY=7MO', /at most 5/],
  ['FREQ=MONTHLY;BYDAY=MO;BYSETPOS=0', /BYSETPOS values/],
  // Possible, but matches are so far apart that ical.js walks millions of candidates to reach one.
  ['FREQ=SECONDLY;BYMONTH=2', /too fine/],
  ['FREQ=SECONDLY;BYDAY=MO', /too fine/],
  ['FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=29', /too fine/],
  ['FREQ=MINUTELY;BYMONTHDAY=1;BYHOUR=3,15', /too fine/],
  ['FREQ=SECONDLY;BYHOUR=9', /too fine/],
  ['FREQ=MINUTELY;BYHOUR=0;BYSETPOS=-1', /BYSETPOS is not read with FREQ=MINUTELY/],
  // Forbidden by RFC 5545.
  ['FREQ=DAILY;INTERVAL=0', /INTERVAL must be a positive whole number/],
  ['FREQ=DAILY;INTERVAL=-2', /INTERVAL must be a positive whole number/],
  ['FREQ=YEARLY;INTERVAL=5000', /never repeat/],
  ['FREQ=SECONDLY;INTERVAL=999999999999', /never repeat/],
  ['FREQ=DAILY;BYWEEKNO=1', /BYWEEKNO needs FREQ=YEARLY/],
  ['FREQ=MONTHLY;BYWEEKNO=1', /BYWEEKNO needs FREQ=YEARLY/],
  ['FREQ=DAILY;BYYEARDAY=1', /BYYEARDAY must not be used with FREQ=DAILY/],
  ['FREQ=WEEKLY;BYYEARDAY=1', /BYYEARDAY must not be used with FREQ=WEEKLY/],
  ['FREQ=MONTHLY;BYYEARDAY=1', /BYYEARDAY must not be used with FREQ=MONTHLY/],
  ['FREQ=WEEKLY;BYMONTHDAY=1', /BYMONTHDAY must not be used with FREQ=WEEKLY/],
  ['FREQ=DAILY;BYSETPOS=1', /BYSETPOS needs another BYxxx/],
  ['FREQ=YEARLY;BYWEEKNO=1;BYDAY=1MO', /BYWEEKNO/],
  ['FREQ=MONTHLY;BYMONTHDAY=0', /BYMONTHDAY values/],
  ['FREQ=MONTHLY;BYMONTHDAY=32', /BYMONTHDAY values/],
  ['FREQ=DAILY;BYHOUR=24', /BYHOUR values/],
  ['FREQ=DAILY;BYMONTH=13', /BYMONTH values/],
  ['FREQ=DAILY;BYMONTH=-1', /BYMONTH values/],
  ['FREQ=DAILY;BYMONTH=x', /whole numbers/],
  ['FREQ=MONTHLY;BYDAY=0MO', /start at 1/],
  ['FREQ=MONTHLY;BYDAY=XX', /not a weekday/],
  ['FREQ=DAILY;COUNT=0', /COUNT must be at least 1/],
  ['FREQ=DAILY;COUNT=3;UNTIL=20270101T000000Z', /COUNT and UNTIL/],
  ['FREQ=DAILY;FREQ=WEEKLY', /appears twice/],
  ['FREQ=FORTNIGHTLY', /FREQ is missing or unknown/],
  ['BYDAY=MO', /FREQ is missing or unknown/],
  ['FREQ=DAILY;BYDAY', /not a rule part/],
];

const accepted = [
  'FREQ=DAILY',
  'FREQ=WEEKLY;BYDAY=MO,WE,FR',
  'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;COUNT=10',
  'FREQ=MONTHLY;BYDAY=-1FR',
  'FREQ=MONTHLY;BYDAY=5MO',
  'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1',
  'FREQ=MONTHLY;BYMONTHDAY=31',
  'FREQ=MONTHLY;BYMONTHDAY=13;BYDAY=FR',
  'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29',
  'FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
  'FREQ=YEARLY;BYDAY=20MO',
  'FREQ=YEARLY;BYYEARDAY=366',
  'FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO',
  'FREQ=DAILY;INTERVAL=7;BYDAY=WE',
  'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29',
  'FREQ=HOURLY;INTERVAL=3;BYDAY=MO,FR',
  'FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=29',
  'FREQ=MINUTELY;INTERVAL=15;BYHOUR=9,10,11',
  'FREQ=SECONDLY;BYMINUTE=5;COUNT=3',
  'FREQ=DAILY;UNTIL=20270101T000000Z',
];

describe('recurrence rules checked before ical.js expands them', () => {
  test(`${refused.length} rules that never produce an occurrence, are too sparse, or break RFC 5545 are refused`, () => {
    for (const [rule, reason] of refused) {
      const problem = recurrenceRuleProblem(rule, SERIES);
      assert.ok(problem, `${rule} was accepted`);
      assert.match(problem, reason, rule);
    }
  });

  test(`${accepted.length} ordinary and unusual but possible rules are accepted, and ical.js finds occurrences`, () => {
    for (const rule of accepted) {
      assert.equal(recurrenceRuleProblem(rule, SERIES), null, rule);
      assert.ok(firstOccurrences(rule) > 0, `${rule}: ical.js found no occurrence`);
    }
  });

  test('the series matters: its weekday, and how far ical.js walks from DTSTART to the horizon', () => {
    const rule = 'FREQ=DAILY;INTERVAL=14;BYDAY=MO';
    assert.equal(recurrenceRuleProblem(rule), null, 'judged alone (a VTIMEZONE rule)');
    assert.match(recurrenceRuleProblem(rule, SERIES) ?? '', /weekday of DTSTART/);
    assert.equal(recurrenceRuleProblem(rule, { ...SERIES, startWeekday: 'MO' }), null);

    // Hourly on leap days: a few thousand hours to walk from 2026, 35 years' worth from 1990.
    const leapHours = 'FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=29';
    assert.equal(recurrenceRuleProblem(leapHours, SERIES), null);
    assert.match(
      recurrenceRuleProblem(leapHours, { ...SERIES, secondsToWalk: 37 * 366 * 86_400 }) ?? '',
      /too fine/,
    );
    // COUNT bounds the walk as well.
    assert.match(recurrenceRuleProblem('FREQ=SECONDLY;BYMINUTE=5', SERIES) ?? '', /too fine/);
    assert.equal(recurrenceRuleProblem('FREQ=SECONDLY;BYMINUTE=5;COUNT=3', SERIES), null);
  });
});
