import { hhmmToMinutes } from './time';

/**
 * True when a span typed as two 'HH:MM' clock times ends on the next day: the server's rule for tasks is that an
 * end clock time earlier than the start ends on the day after (23:00 -> 01:00 is two hours). Equal times are no
 * span at all and an unreadable time decides nothing, so both answer false.
 */
export function endsNextDay(startHHMM: string, endHHMM: string): boolean {
  const start = hhmmToMinutes(startHHMM);
  const end = hhmmToMinutes(endHHMM);
  if (Number.isNaN(start) || Number.isNaN(end)) return false;
  return end < start;
}
