import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  addDays,
  instantOfLocalTime,
  isValidTimeZone,
  localDateAt,
  localDayBounds,
  localHHMMAt,
  offsetMinutesAt,
  parseInstant,
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
