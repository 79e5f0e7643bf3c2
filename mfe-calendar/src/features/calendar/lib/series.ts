/** An RRULE UTC date-time, 'YYYYMMDDTHHMMSSZ'. */
function utcStamp(instant: number): string {
  return new Date(instant)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/**
 * The series' rule cut so its last occurrence is the one before `occurrenceStart` (an occurrence's original start,
 * its recurrenceId): what "Delete this and following events" saves on the series. Its COUNT and UNTIL give way to
 * an UNTIL one second earlier, a UTC date-time, which the server reads the same for all-day and timed series; with
 * COUNT kept the series would only end later than it should.
 */
export function ruleEndingBefore(rule: string, occurrenceStart: string): string {
  const kept = rule
    .replace(/^RRULE:/i, '')
    .split(';')
    .filter((part) => part !== '' && !/^(COUNT|UNTIL)=/i.test(part));
  return [...kept, `UNTIL=${utcStamp(new Date(occurrenceStart).getTime() - 1000)}`].join(';');
}
