import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { offsetSecondsOf, readVTimezone } from '../../../src/lib/ics/vtimezone.js';

const zone = (text: string) => {
  const read = readVTimezone(text.trim().split('\n'));
  assert.ok(read, 'the zone is read');
  return read;
};
const at = (iso: string) => Date.parse(iso);
const wall = (year: number, month: number, day: number, hour: number, minute = 0) => ({
  year,
  month,
  day,
  hour,
  minute,
  second: 0,
});

// Central European time known only by its transitions (no RRULE), as hand-rolled exporters write it.
const BY_RDATES = `
BEGIN:VTIMEZONE
TZID:Berlin Office Time
BEGIN:STANDARD
DTSTART:20251026T030000
RDATE:20261025T030000
TZOFFSETFROM:+0200
TZOFFSETTO:+0100
END:STANDARD
BEGIN:DAYLIGHT
DTSTART:20260329T020000
RDATE:20270328T020000,20280326T020000
TZOFFSETFROM:+0100
TZOFFSETTO:+0200
END:DAYLIGHT
END:VTIMEZONE`;

const BY_RULES = `
BEGIN:VTIMEZONE
TZID:Custom Eastern
BEGIN:STANDARD
DTSTART:19701101T020000
RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU
TZOFFSETFROM:-0400
TZOFFSETTO:-0500
END:STANDARD
BEGIN:DAYLIGHT
DTSTART:19700308T020000
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU
TZOFFSETFROM:-0500
TZOFFSETTO:-0400
END:DAYLIGHT
END:VTIMEZONE`;

describe('a VTIMEZONE read without ical.js', () => {
  test('offsets as written, also with three digits or seconds', () => {
    assert.deepEqual(
      ['+0100', '-0500', '-500', '+005328', '+01:00', '-0000', '+9999', 'garbage'].map(offsetSecondsOf),
      [3600, -18000, -18000, 3208, 3600, -0, null, null],
    );
  });

  test("an observance's DTSTART and each RDATE (lists too) are its onsets; before the first, its TZOFFSETFROM", () => {
    const office = zone(BY_RDATES);
    assert.equal(office.tzid, 'Berlin Office Time');
    const offsets = [
      '2025-06-01T12:00:00Z', // before the first onset: the first one's TZOFFSETFROM
      '2026-03-27T08:00:00Z', // after DTSTART 2025-10-26 (ical.js answers 0 here)
      '2026-03-30T07:00:00Z',
      '2026-10-26T08:00:00Z',
      '2027-04-01T08:00:00Z',
      '2027-11-01T08:00:00Z', // no onset after 2027-03-28 but the RDATE list's 2028 one
      '2028-04-01T08:00:00Z',
    ].map((instant) => office.offsetSecondsAt(at(instant)) / 3600);
    assert.deepEqual(offsets, [2, 1, 2, 1, 2, 2, 2]);
    assert.deepEqual(office.transitionsBetween(at('2026-01-01T00:00:00Z'), at('2027-01-01T00:00:00Z')), [
      at('2026-03-29T01:00:00Z'),
      at('2026-10-25T01:00:00Z'),
    ]);
  });

  test('rules are walked as far as asked, and wall times read as IANA zones are', () => {
    const eastern = zone(BY_RULES);
    assert.equal(eastern.instantOf(wall(2026, 3, 2, 9)), at('2026-03-02T14:00:00Z'));
    assert.equal(eastern.instantOf(wall(2026, 3, 16, 9)), at('2026-03-16T13:00:00Z'));
    assert.equal(eastern.instantOf(wall(2990, 7, 1, 9)), at('2990-07-01T13:00:00Z'));
    // In the gap (02:30 on 8 March 2026 does not exist): the offset before it. Ambiguous (01:30 on 1 November): the
    // first of the two instants.
    assert.equal(eastern.instantOf(wall(2026, 3, 8, 2, 30)), at('2026-03-08T07:30:00Z'));
    assert.equal(eastern.instantOf(wall(2026, 11, 1, 1, 30)), at('2026-11-01T05:30:00Z'));
  });

  test('a zone without TZID or without an observance that can be read is none', () => {
    assert.equal(readVTimezone(['BEGIN:VTIMEZONE', 'TZID:Empty', 'END:VTIMEZONE']), null);
    assert.equal(
      readVTimezone([
        'BEGIN:VTIMEZONE',
        'BEGIN:STANDARD',
        'DTSTART:19700101T000000',
        'TZOFFSETFROM:+0100',
        'TZOFFSETTO:+0100',
        'END:STANDARD',
        'END:VTIMEZONE',
      ]),
      null,
    );
    const absurd = readVTimezone([
      'BEGIN:VTIMEZONE',
      'TZID:Absurd',
      'BEGIN:STANDARD',
      'DTSTART:19700101T000000',
      'TZOFFSETFROM:+9999',
      'TZOFFSETTO:-9999',
      'END:STANDARD',
      'END:VTIMEZONE',
    ]);
    assert.equal(absurd, null);
  });
});
