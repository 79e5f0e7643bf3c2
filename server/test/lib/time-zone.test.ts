import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  MIDNIGHTS_KEPT,
  TIME_ZONES_KEPT,
  addDays,
  canonicalTimeZone,
  instantOfLocalTime,
  isValidTimeZone,
  localDateAt,
  localDayBounds,
  localHHMMAt,
  offsetMinutesAt,
  parseInstant,
  startOfLocalDay,
  timeZoneCacheSizes,
  weekStartOf,
} from '../../src/lib/time-zone.js';

const HOUR = 3_600_000;
const iso = (instant: number) => new Date(instant).toISOString();

describe('time zones', () => {
  test('validates IANA zone names', () => {
    assert.equal(isValidTimeZone('America/New_York'), true);
    assert.equal(isValidTimeZone('UTC'), true);
    assert.equal(isValidTimeZone('Mars/Olympus_Mons'), false);
    assert.equal(isValidTimeZone(''), false);
  });

  test('offsets follow daylight saving time', () => {
    assert.equal(offsetMinutesAt('America/New_York', Date.parse('2026-03-08T06:59:59Z')), -300);
    assert.equal(offsetMinutesAt('America/New_York', Date.parse('2026-03-08T07:00:00Z')), -240);
    assert.equal(offsetMinutesAt('Asia/Kolkata', Date.parse('2026-03-08T07:00:00Z')), 330);
  });

  test('a DST week in New York: 23-hour Sunday, 24-hour weekdays', () => {
    const zone = 'America/New_York';
    assert.equal(weekStartOf('2026-03-11'), '2026-03-08');
    const sunday = localDayBounds(zone, '2026-03-08');
    assert.equal(iso(sunday.start), '2026-03-08T05:00:00.000Z');
    assert.equal(iso(sunday.end), '2026-03-09T04:00:00.000Z');
    assert.equal(sunday.end - sunday.start, 23 * HOUR);
    const monday = localDayBounds(zone, '2026-03-09');
    assert.equal(monday.end - monday.start, 24 * HOUR);
    const week = {
      start: localDayBounds(zone, '2026-03-08').start,
      end: localDayBounds(zone, '2026-03-14').end,
    };
    assert.equal(week.end - week.start, (7 * 24 - 1) * HOUR);
  });

  test('a fall-back day in London lasts 25 hours', () => {
    const day = localDayBounds('Europe/London', '2026-10-25');
    assert.equal(day.end - day.start, 25 * HOUR);
  });

  test('wall-clock times in gaps move forward, ambiguous ones take the first occurrence', () => {
    const zone = 'America/New_York';
    assert.equal(iso(instantOfLocalTime(zone, '2026-03-08', '02:30')), '2026-03-08T07:30:00.000Z');
    assert.equal(localHHMMAt(zone, instantOfLocalTime(zone, '2026-03-08', '02:30')), '03:30');
    assert.equal(iso(instantOfLocalTime(zone, '2026-11-01', '01:30')), '2026-11-01T05:30:00.000Z');
    assert.equal(iso(instantOfLocalTime(zone, '2026-03-08', '04:00')), '2026-03-08T08:00:00.000Z');
  });

  test('local dates around midnight depend on the zone', () => {
    const instant = Date.parse('2026-03-11T03:30:00Z');
    assert.equal(localDateAt('UTC', instant), '2026-03-11');
    assert.equal(localDateAt('America/Los_Angeles', instant), '2026-03-10');
    assert.equal(localDateAt('Asia/Tokyo', instant), '2026-03-11');
  });

  test('date arithmetic crosses months and leap days', () => {
    assert.equal(addDays('2028-02-28', 1), '2028-02-29');
    assert.equal(addDays('2026-03-01', -1), '2026-02-28');
    assert.equal(weekStartOf('2026-03-08'), '2026-03-08');
    assert.equal(weekStartOf('2026-03-14'), '2026-03-08');
  });

  test('parses ISO instants, local date-times and dates, and rejects impossible ones', () => {
    const zone = 'Europe/Paris';
    assert.equal(iso(parseInstant('2026-03-11T10:00:00.000Z', zone)!), '2026-03-11T10:00:00.000Z');
    assert.equal(iso(parseInstant('2026-03-11T10:00:00+02:00', zone)!), '2026-03-11T08:00:00.000Z');
    assert.equal(iso(parseInstant('2026-03-11T10:00', zone)!), '2026-03-11T09:00:00.000Z');
    assert.equal(iso(parseInstant('2026-03-11', zone)!), '2026-03-10T23:00:00.000Z');
    for (const bad of ['2026-02-30T10:00:00Z', 'yesterday', '2026-03-11T25:00:00Z', '11/03/2026', '']) {
      assert.equal(parseInstant(bad, zone), null, bad);
    }
  });
});

/** The same name with each letter's case chosen at random: every one of them is a valid spelling of the zone. */
function randomCasing(zone: string): string {
  return [...zone]
    .map((letter) => (Math.random() < 0.5 ? letter.toLowerCase() : letter.toUpperCase()))
    .join('');
}

describe('time zone names and the caches they fill', () => {
  test('any letter case or alias resolves to the canonical name; anything else to null', () => {
    assert.equal(canonicalTimeZone('AMERICA/NEW_YORK'), 'America/New_York');
    assert.equal(canonicalTimeZone('america/new_york'), 'America/New_York');
    assert.equal(canonicalTimeZone('America/New_York'), 'America/New_York');
    assert.equal(canonicalTimeZone('utc'), 'UTC');
    // Whatever this runtime's ICU calls the alias (Asia/Calcutta in Node 20), it is one name for every spelling.
    const kolkata = new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Kolkata' }).resolvedOptions().timeZone;
    assert.equal(canonicalTimeZone('asia/kolkata'), kolkata);
    assert.equal(canonicalTimeZone('Asia/Kolkata'), kolkata);
    // Lower-cases to 'asia/kolkata', which is cached by now, but Intl refuses the Kelvin sign (U+212A).
    assert.equal(canonicalTimeZone('Asia/\u212Aolkata'), null);
    for (const bad of ['', 'Mars/Olympus_Mons', ' UTC', 'Europe/Paris\n', 'x'.repeat(65), 'Europe/Pärís']) {
      assert.equal(canonicalTimeZone(bad), null, JSON.stringify(bad));
      assert.equal(isValidTimeZone(bad), false, JSON.stringify(bad));
    }
  });

  test('differently cased spellings of one zone add no cache entry, whichever function reads them', () => {
    const instant = Date.parse('2026-03-11T15:00:00Z');
    assert.equal(localDateAt('Europe/Berlin', instant), '2026-03-11');
    const before = timeZoneCacheSizes();
    const spellings = new Set<string>();
    while (spellings.size < 500) spellings.add(randomCasing('Europe/Berlin'));
    for (const spelling of spellings) {
      assert.equal(isValidTimeZone(spelling), true, spelling);
      assert.equal(localDateAt(spelling, instant), '2026-03-11', spelling);
    }
    const after = timeZoneCacheSizes();
    assert.equal(after.formatters, before.formatters, 'formatters');
    assert.equal(after.spellings, before.spellings, 'spellings');
  });

  test('every zone in several random casings never grows a zone cache past its bound', () => {
    const zones = Intl.supportedValuesOf('timeZone');
    assert.ok(zones.length > 300, `only ${zones.length} zones`);
    const canonicalNames = new Set<string>();
    for (let round = 0; round < 4; round += 1) {
      for (const zone of [...zones, 'Asia/Kolkata', 'Europe/Kyiv', 'US/Eastern', 'Etc/UTC']) {
        const canonical = canonicalTimeZone(round === 0 ? zone : randomCasing(zone));
        assert.ok(canonical, zone);
        canonicalNames.add(canonical);
      }
      const sizes = timeZoneCacheSizes();
      assert.ok(sizes.formatters <= TIME_ZONES_KEPT, `formatters: ${sizes.formatters}`);
      assert.ok(sizes.spellings <= TIME_ZONES_KEPT, `spellings: ${sizes.spellings}`);
    }
    // Well under the bound: one formatter per zone, however it was spelt.
    assert.ok(timeZoneCacheSizes().formatters <= canonicalNames.size + 1);
  });

  test('past its bound the midnight cache forgets one old day at a time, not all of them', () => {
    let date = '1990-01-01';
    for (let index = 0; index < MIDNIGHTS_KEPT + 2_000; index += 1) {
      startOfLocalDay('UTC', date);
      date = addDays(date, 1);
      assert.ok(timeZoneCacheSizes().midnights <= MIDNIGHTS_KEPT);
    }
    assert.equal(timeZoneCacheSizes().midnights, MIDNIGHTS_KEPT);
    assert.equal(iso(startOfLocalDay('UTC', addDays(date, -1))), `${addDays(date, -1)}T00:00:00.000Z`);
  });
});
