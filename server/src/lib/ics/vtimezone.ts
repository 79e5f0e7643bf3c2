import ICAL from 'ical.js';
import type { WallTime } from '../time-zone.js';
import { recurrenceRuleProblem } from './recurrence-rules.js';

/**
 * A VTIMEZONE of the file's own making, read here rather than by ical.js's Timezone, which gets the zones real files
 * send wrong: it ignores an observance's DTSTART when the observance has RDATEs (so a zone known by its transitions
 * has none before the first RDATE), reads only the first value of an RDATE list, answers offset 0 before the first
 * transition instead of that transition's TZOFFSETFROM, and reads offsets written with three digits ("-500") or with
 * seconds ("+005328") as other numbers. Each observance's onsets are its DTSTART, its RDATEs and its RRULE's
 * occurrences from DTSTART, all local times before the change (TZOFFSETFROM); its rule is walked only as far as asked.
 */

/** Transitions one observance's RRULE may add: a yearly rule from 1601 (Outlook) to 2999 is 1400. */
const RULE_STEPS = 2000;
const DAY_MS = 86_400_000;

interface Transition {
  /** The instant of the change. */
  at: number;
  offsetFromSeconds: number;
  offsetToSeconds: number;
}

interface Observance {
  offsetFromSeconds: number;
  offsetToSeconds: number;
  iterator: InstanceType<typeof ICAL.RecurIterator> | null;
  steps: number;
}

/** A content line's name (upper case), its parameters' text and its value. */
function partsOf(line: string): { name: string; parameters: string; value: string } {
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const character = line[index];
    if (character === '"') quoted = !quoted;
    else if (character === ':' && !quoted) {
      const head = line.slice(0, index);
      const separator = head.indexOf(';');
      return {
        name: (separator < 0 ? head : head.slice(0, separator)).trim().toUpperCase(),
        parameters: separator < 0 ? '' : head.slice(separator + 1),
        value: line.slice(index + 1).trim(),
      };
    }
  }
  return { name: line.trim().toUpperCase(), parameters: '', value: '' };
}

/** "+0100", "-0500", "-500", "+005328", "+01:00" as seconds east of UTC; null when it is none of these. */
export function offsetSecondsOf(written: string): number | null {
  const match = /^([+-]?)(\d{1,6})$/.exec(written.replace(/:/g, '').trim());
  if (!match) return null;
  const digits = match[2]!;
  const [hours, minutes, seconds] =
    digits.length <= 2
      ? [digits, '0', '0']
      : digits.length === 3 || digits.length === 5
        ? [digits.slice(0, 1), digits.slice(1, 3), digits.slice(3) || '0']
        : [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4) || '0'];
  if (Number(minutes) > 59 || Number(seconds) > 59 || Number(hours) > 23) return null;
  const size = Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds);
  return match[1] === '-' ? -size : size;
}

const DATE_TIME = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/i;

/** A DATE or DATE-TIME value as a wall time (a DATE takes `timeOfDay`), and whether it was given in UTC. */
function wallOf(value: string, timeOfDay?: WallTime): { wall: WallTime; utc: boolean } | null {
  const match = DATE_TIME.exec(value.trim());
  if (!match) return null;
  const [, year, month, day, hour, minute, second, utc] = match;
  return {
    wall: {
      year: Number(year),
      month: Number(month),
      day: Number(day),
      hour: hour === undefined ? (timeOfDay?.hour ?? 0) : Number(hour),
      minute: minute === undefined ? (timeOfDay?.minute ?? 0) : Number(minute),
      second: second === undefined ? (timeOfDay?.second ?? 0) : Number(second),
    },
    utc: Boolean(utc),
  };
}

const utcMsOf = (wall: WallTime) =>
  Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);

export class DefinedZone {
  private readonly transitions: Transition[] = [];
  private readonly rules: Observance[];
  /** Transitions are known up to this instant (the rules walked past it). */
  private coveredUntil = -Infinity;

  constructor(
    readonly tzid: string,
    fixed: Transition[],
    rules: Observance[],
  ) {
    this.transitions.push(...fixed);
    this.rules = rules;
    this.transitions.sort((a, b) => a.at - b.at);
  }

  /** Walks the observances' rules to a year past `instant`, once. */
  private cover(instant: number) {
    const until = instant + 400 * DAY_MS;
    if (until <= this.coveredUntil) return;
    let added = false;
    for (const rule of this.rules) {
      while (rule.iterator && rule.steps < RULE_STEPS) {
        const next = rule.iterator.next();
        if (!next) {
          rule.iterator = null;
          break;
        }
        rule.steps += 1;
        const at = utcMsOf(next) - rule.offsetFromSeconds * 1000;
        this.transitions.push({
          at,
          offsetFromSeconds: rule.offsetFromSeconds,
          offsetToSeconds: rule.offsetToSeconds,
        });
        added = true;
        if (at > until) break;
      }
    }
    if (added) this.transitions.sort((a, b) => a.at - b.at);
    this.coveredUntil = until;
  }

  /** The instants in [from, to) at which the zone's offset changes. */
  transitionsBetween(from: number, to: number): number[] {
    this.cover(to);
    const changes: number[] = [];
    for (const transition of this.transitions) {
      if (transition.at < from || transition.at >= to) continue;
      if (this.offsetSecondsAt(transition.at - 1) !== this.offsetSecondsAt(transition.at)) {
        changes.push(transition.at);
      }
    }
    return changes;
  }

  /** The zone's offset from UTC at an instant, in seconds: before its first transition, that one's TZOFFSETFROM. */
  offsetSecondsAt(instant: number): number {
    this.cover(instant);
    const { transitions } = this;
    let low = 0;
    let high = transitions.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (transitions[middle]!.at <= instant) low = middle + 1;
      else high = middle;
    }
    return low === 0 ? transitions[0]!.offsetFromSeconds : transitions[low - 1]!.offsetToSeconds;
  }

  /**
   * The instant a wall-clock time names in this zone, as time-zone.ts's instantOfWallTime reads IANA zones: an
   * ambiguous time (clocks going back) is the first of its two instants, one in a gap (clocks going forward) is read
   * with the offset before the gap (RFC 5545 3.3.5).
   */
  instantOf(wall: WallTime): number {
    const wallMs = utcMsOf(wall);
    const before = this.offsetSecondsAt(wallMs - DAY_MS);
    const after = this.offsetSecondsAt(wallMs + DAY_MS);
    const valid = [...new Set([before, after])]
      .map((offset) => wallMs - offset * 1000)
      .filter((instant) => this.offsetSecondsAt(instant) * 1000 === wallMs - instant)
      .sort((a, b) => a - b);
    return valid[0] ?? wallMs - before * 1000;
  }
}

/**
 * The zone a VTIMEZONE's unfolded lines define, or null when it has no TZID or no observance that can be read. An
 * observance without DTSTART or a readable offset is left out; one whose RRULE ical.js must not walk (see
 * recurrenceRuleProblem) keeps its DTSTART and RDATEs only.
 */
export function readVTimezone(lines: readonly string[]): DefinedZone | null {
  let tzid = '';
  const fixed: Transition[] = [];
  const rules: Observance[] = [];
  let observance: { name: string; lines: ReturnType<typeof partsOf>[] } | null = null;
  let depth = 0;
  for (const line of lines) {
    const parts = partsOf(line);
    const what = parts.value.toUpperCase();
    if (parts.name === 'BEGIN') {
      depth += 1;
      if (depth === 2 && (what === 'STANDARD' || what === 'DAYLIGHT')) observance = { name: what, lines: [] };
      continue;
    }
    if (parts.name === 'END') {
      if (depth === 2 && observance) {
        readObservance(observance.lines, fixed, rules);
        observance = null;
      }
      depth -= 1;
      continue;
    }
    // TZID is TEXT: Outlook's '(UTC+01:00) Amsterdam, Berlin, ...' may come with its commas escaped.
    if (depth === 1 && parts.name === 'TZID') tzid = parts.value.replace(/\\([,;\\])/g, '$1');
    else if (depth === 2 && observance) observance.lines.push(parts);
  }
  if (!tzid || (fixed.length === 0 && rules.length === 0)) return null;
  return new DefinedZone(tzid, fixed, rules);
}

function readObservance(lines: ReturnType<typeof partsOf>[], fixed: Transition[], rules: Observance[]) {
  const first = (name: string) => lines.find((line) => line.name === name);
  const offsetFromSeconds = offsetSecondsOf(first('TZOFFSETFROM')?.value ?? '');
  const offsetToSeconds = offsetSecondsOf(first('TZOFFSETTO')?.value ?? '');
  const start = wallOf(first('DTSTART')?.value ?? '');
  if (offsetFromSeconds === null || offsetToSeconds === null || !start) return;
  const offsets = { offsetFromSeconds, offsetToSeconds };
  const transitionAt = ({ wall, utc }: { wall: WallTime; utc: boolean }) => ({
    at: utcMsOf(wall) - (utc ? 0 : offsetFromSeconds * 1000),
    ...offsets,
  });
  fixed.push(transitionAt(start));
  for (const rdate of lines.filter((line) => line.name === 'RDATE')) {
    for (const value of rdate.value.split(',')) {
      // A PERIOD value names its start.
      const onset = wallOf(value.split('/')[0]!, start.wall);
      if (onset) fixed.push(transitionAt(onset));
    }
  }
  const rule = first('RRULE')?.value;
  if (!rule || recurrenceRuleProblem(rule) !== null) return;
  try {
    const recur = ICAL.Recur.fromString(rule);
    // The walk is in the observance's local time: a UTC UNTIL is moved into it, as ical.js does.
    if (recur.until && recur.until.zone === ICAL.Timezone.utcTimezone) {
      recur.until.adjust(0, 0, 0, offsetFromSeconds);
      recur.until.zone = ICAL.Timezone.localTimezone;
    }
    const iterator = recur.iterator(ICAL.Time.fromData({ ...start.wall, isDate: false }));
    // DTSTART is the rule's first occurrence and a transition already.
    iterator.next();
    rules.push({ ...offsets, iterator, steps: 0 });
  } catch {
    // A rule ical.js cannot read adds nothing beyond DTSTART and the RDATEs.
  }
}
