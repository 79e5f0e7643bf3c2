import { ruleEndingBefore } from './series';

describe('ruleEndingBefore', () => {
  it('ends a never-ending rule one second before the occurrence, in UTC', () => {
    expect(ruleEndingBefore('FREQ=WEEKLY;BYDAY=MO,WE', '2026-11-25T09:00:00.000Z')).toBe(
      'FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20261125T085959Z',
    );
  });

  it('replaces COUNT and an earlier UNTIL, date or date-time, keeping the other parts in order', () => {
    expect(ruleEndingBefore('FREQ=DAILY;INTERVAL=2;COUNT=10', '2026-11-25T00:00:00.000Z')).toBe(
      'FREQ=DAILY;INTERVAL=2;UNTIL=20261124T235959Z',
    );
    expect(ruleEndingBefore('RRULE:FREQ=MONTHLY;UNTIL=20270101;BYDAY=4TH', '2026-12-24T15:30:00.000Z')).toBe(
      'FREQ=MONTHLY;BYDAY=4TH;UNTIL=20261224T152959Z',
    );
  });
});
