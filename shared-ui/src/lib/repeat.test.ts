import {
  REPEAT_MESSAGES,
  choiceOf,
  defaultUntilDate,
  describeRule,
  isInLastWeekOfMonth,
  presetChoice,
  repeatProblems,
  ruleForNewStart,
  ruleOf,
  ruleProblems,
  weekOfMonth,
  type RepeatChoice,
  type RepeatKind,
} from './repeat';

// Starts are built with the local-time constructor so the expectations hold in any TZ the tests run in.
const localDate = (year: number, month: number, day: number, hours = 9, minutes = 0) =>
  new Date(year, month - 1, day, hours, minutes);
/** The end of a local day as RFC 5545 writes a UTC time: what UNTIL must be for a timed series in this zone. */
const endOfLocalDayUtc = (year: number, month: number, day: number) =>
  new Date(year, month - 1, day, 23, 59, 59).toISOString().replace(/[-:]/g, '').replace('.000', '');

const MONDAY_NOV_23 = localDate(2026, 11, 23); // the fourth Monday, not the last (the 30th is)
const THURSDAY_JAN_22 = localDate(2026, 1, 22); // the fourth Thursday, not the last
const THURSDAY_FEB_26 = localDate(2026, 2, 26); // the fourth Thursday and the last
const WEDNESDAY_JUN_3 = localDate(2026, 6, 3);

const choice = (kind: RepeatKind, start: Date, overrides: Partial<RepeatChoice> = {}): RepeatChoice => ({
  ...presetChoice(kind, start),
  ...overrides,
});

describe('ruleOf', () => {
  it.each<[RepeatKind, Date, string]>([
    ['none', MONDAY_NOV_23, ''],
    ['daily', MONDAY_NOV_23, 'FREQ=DAILY'],
    ['weekdays', MONDAY_NOV_23, 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR'],
    ['weekly', WEDNESDAY_JUN_3, 'FREQ=WEEKLY;BYDAY=WE'],
    ['monthly-date', MONDAY_NOV_23, 'FREQ=MONTHLY'],
    ['monthly-weekday', THURSDAY_JAN_22, 'FREQ=MONTHLY;BYDAY=4TH'],
    ['yearly', MONDAY_NOV_23, 'FREQ=YEARLY'],
    ['custom', WEDNESDAY_JUN_3, 'FREQ=WEEKLY;BYDAY=WE'],
  ])('writes %s from a start as %j', (kind, start, rule) => {
    expect(ruleOf(presetChoice(kind, start), start, false)).toBe(rule);
  });

  it('counts the weekday from the month end for "the last Thursday"', () => {
    const last = choice('monthly-weekday', THURSDAY_FEB_26, { fromMonthEnd: true });
    expect(ruleOf(last, THURSDAY_FEB_26, false)).toBe('FREQ=MONTHLY;BYDAY=-1TH');
    expect(ruleOf(choice('monthly-weekday', THURSDAY_FEB_26), THURSDAY_FEB_26, false)).toBe(
      'FREQ=MONTHLY;BYDAY=4TH',
    );
  });

  it('writes the chosen days in the calendar order, and the count', () => {
    const rule = ruleOf(
      choice('weekly', MONDAY_NOV_23, { weekdays: ['WE', 'MO'], ends: { kind: 'after', count: 6 } }),
      MONDAY_NOV_23,
      false,
    );
    expect(rule).toBe('FREQ=WEEKLY;BYDAY=MO,WE;COUNT=6');
  });

  it('writes an interval other than 1 for custom rules in every unit', () => {
    const every = (unit: RepeatChoice['unit'], interval: number) =>
      ruleOf(choice('custom', MONDAY_NOV_23, { unit, interval }), MONDAY_NOV_23, false);
    expect(every('day', 3)).toBe('FREQ=DAILY;INTERVAL=3');
    expect(every('week', 2)).toBe('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO');
    expect(every('month', 1)).toBe('FREQ=MONTHLY');
    expect(every('year', 10)).toBe('FREQ=YEARLY;INTERVAL=10');
  });

  it('starts weeks on Sunday, like the calendar, when every N weeks pairs Sunday with other days', () => {
    const sundayAndMonday = choice('custom', localDate(2026, 1, 4), { interval: 2, weekdays: ['MO', 'SU'] });
    expect(ruleOf(sundayAndMonday, localDate(2026, 1, 4), false)).toBe(
      'FREQ=WEEKLY;INTERVAL=2;BYDAY=SU,MO;WKST=SU',
    );
  });

  it('ends an all-day series on a DATE and a timed one at the end of that local day in UTC', () => {
    const endsOn = choice('daily', MONDAY_NOV_23, { ends: { kind: 'on', date: '2026-12-31' } });
    expect(ruleOf(endsOn, MONDAY_NOV_23, true)).toBe('FREQ=DAILY;UNTIL=20261231');
    expect(ruleOf(endsOn, MONDAY_NOV_23, false)).toBe(`FREQ=DAILY;UNTIL=${endOfLocalDayUtc(2026, 12, 31)}`);
  });

  it('keeps an unfinished choice in the rule so the form can say what is missing', () => {
    const unfinished = choice('custom', MONDAY_NOV_23, {
      interval: Number.NaN,
      weekdays: [],
      ends: { kind: 'after', count: 0 },
    });
    expect(ruleOf(unfinished, MONDAY_NOV_23, false)).toBe('FREQ=WEEKLY;INTERVAL=0;BYDAY=;COUNT=0');
    const noDate = choice('daily', MONDAY_NOV_23, { ends: { kind: 'on', date: '' } });
    expect(ruleOf(noDate, MONDAY_NOV_23, false)).toBe('FREQ=DAILY;UNTIL=');
  });
});

describe('choiceOf', () => {
  it('gives back every choice the field makes, for timed and all-day series', () => {
    const starts = [MONDAY_NOV_23, THURSDAY_JAN_22, THURSDAY_FEB_26, WEDNESDAY_JUN_3, localDate(2026, 1, 4)];
    const ends: RepeatChoice['ends'][] = [
      { kind: 'never' },
      { kind: 'after', count: 12 },
      { kind: 'on', date: '2027-01-31' },
    ];
    const kinds: RepeatKind[] = ['daily', 'weekdays', 'weekly', 'monthly-date', 'monthly-weekday', 'yearly'];
    for (const start of starts) {
      for (const end of ends) {
        for (const allDay of [false, true]) {
          for (const kind of kinds) {
            const made = choice(kind, start, { ends: end });
            expect(choiceOf(ruleOf(made, start, allDay), start)).toEqual(made);
          }
          for (const unit of ['day', 'week', 'month', 'year'] as const) {
            const made = choice('custom', start, { unit, interval: 3, ends: end });
            expect(choiceOf(ruleOf(made, start, allDay), start)).toEqual(made);
          }
        }
      }
    }
  });

  it('reads "the last Thursday" only from a start in the month\'s last seven days', () => {
    expect(choiceOf('FREQ=MONTHLY;BYDAY=-1TH', THURSDAY_FEB_26)).toMatchObject({
      kind: 'monthly-weekday',
      fromMonthEnd: true,
    });
    expect(choiceOf('FREQ=MONTHLY;BYDAY=-1TH', THURSDAY_JAN_22)).toBeNull();
    expect(choiceOf('FREQ=MONTHLY;BYDAY=2TH', THURSDAY_JAN_22)).toBeNull();
  });

  it('reads what other calendars write for the same choices', () => {
    expect(choiceOf('RRULE:FREQ=WEEKLY', WEDNESDAY_JUN_3)).toEqual(choice('weekly', WEDNESDAY_JUN_3));
    expect(choiceOf('FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR', MONDAY_NOV_23)).toEqual(
      choice('weekdays', MONDAY_NOV_23),
    );
    expect(choiceOf('FREQ=WEEKLY;BYDAY=FR,TH,WE,TU,MO;WKST=SU', MONDAY_NOV_23)?.kind).toBe('weekdays');
    expect(choiceOf('FREQ=MONTHLY;BYDAY=TH;BYSETPOS=4', THURSDAY_JAN_22)?.kind).toBe('monthly-weekday');
    expect(choiceOf('FREQ=MONTHLY;BYMONTHDAY=23', MONDAY_NOV_23)?.kind).toBe('monthly-date');
    expect(choiceOf('FREQ=YEARLY;BYMONTH=11;BYMONTHDAY=23', MONDAY_NOV_23)?.kind).toBe('yearly');
    expect(choiceOf('freq=weekly;interval=2;byday=fr;until=20261231', localDate(2026, 6, 5))).toEqual(
      choice('custom', localDate(2026, 6, 5), {
        interval: 2,
        weekdays: ['FR'],
        ends: { kind: 'on', date: '2026-12-31' },
      }),
    );
  });

  it('reads UNTIL as the local day it falls on', () => {
    const untilUtc = `FREQ=DAILY;UNTIL=${endOfLocalDayUtc(2026, 12, 31)}`;
    expect(choiceOf(untilUtc, MONDAY_NOV_23)?.ends).toEqual({ kind: 'on', date: '2026-12-31' });
    expect(choiceOf('FREQ=DAILY;UNTIL=20261231T120000', MONDAY_NOV_23)?.ends).toEqual({
      kind: 'on',
      date: '2026-12-31',
    });
  });

  it.each([
    ['a part the field has no control for', 'FREQ=DAILY;BYHOUR=9,17'],
    ['another day of the month than the start', 'FREQ=MONTHLY;BYMONTHDAY=1,15'],
    ['an nth weekday every N months', 'FREQ=MONTHLY;INTERVAL=2;BYDAY=4MO'],
    ['another month than the start', 'FREQ=YEARLY;BYMONTH=3'],
    ['a weekday of a yearly rule', 'FREQ=YEARLY;BYMONTH=5;BYDAY=2SU'],
    ['a frequency below a day', 'FREQ=HOURLY;INTERVAL=4'],
    ['COUNT with UNTIL', 'FREQ=DAILY;COUNT=3;UNTIL=20261231'],
    ['weeks from Monday pairing Sunday with another day', 'FREQ=WEEKLY;INTERVAL=2;BYDAY=SU,MO'],
    ['no FREQ', 'INTERVAL=2'],
    ['an unknown FREQ', 'FREQ=FORTNIGHTLY'],
    ['a malformed count', 'FREQ=DAILY;COUNT=two'],
    ['a part twice', 'FREQ=DAILY;FREQ=WEEKLY'],
    ['not a rule', 'every day'],
  ])('leaves a rule with %s to its description', (_reason, rule) => {
    expect(choiceOf(rule, MONDAY_NOV_23)).toBeNull();
  });

  it('reads rules as the server does (lib/rrule): a trailing ";" is no part, an end date must exist', () => {
    expect(choiceOf('FREQ=DAILY;', MONDAY_NOV_23)).toEqual(choice('daily', MONDAY_NOV_23));
    expect(choiceOf('FREQ=DAILY;UNTIL=20260230', MONDAY_NOV_23)).toBeNull();
    expect(describeRule('FREQ=DAILY;UNTIL=20260230', MONDAY_NOV_23)).toBe(
      'Repeats by a rule this app cannot read',
    );
  });

  it('reads no rule as "does not repeat"', () => {
    expect(choiceOf('', MONDAY_NOV_23)).toEqual(presetChoice('none', MONDAY_NOV_23));
  });
});

describe('describeRule', () => {
  it.each([
    ['FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR', MONDAY_NOV_23, 'Every weekday'],
    ['FREQ=WEEKLY;BYDAY=MO,WE;COUNT=6', MONDAY_NOV_23, 'Weekly on Monday and Wednesday, 6 times'],
    ['FREQ=MONTHLY;BYDAY=4TH', THURSDAY_JAN_22, 'Monthly on the fourth Thursday'],
    ['FREQ=MONTHLY;BYDAY=-1TH', THURSDAY_FEB_26, 'Monthly on the last Thursday'],
    [
      'FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;UNTIL=20261231',
      localDate(2026, 6, 5),
      'Every 2 weeks on Friday, until Dec 31, 2026',
    ],
    ['FREQ=DAILY', MONDAY_NOV_23, 'Daily'],
    ['FREQ=YEARLY', localDate(2026, 3, 5), 'Annually on March 5'],
    ['FREQ=WEEKLY', WEDNESDAY_JUN_3, 'Weekly on Wednesday'],
    ['FREQ=MONTHLY', MONDAY_NOV_23, 'Monthly on day 23'],
    ['FREQ=DAILY;INTERVAL=3;COUNT=1', MONDAY_NOV_23, 'Every 3 days, once'],
    ['FREQ=WEEKLY;BYDAY=MO,WE,FR', MONDAY_NOV_23, 'Weekly on Monday, Wednesday and Friday'],
    ['FREQ=MONTHLY;BYMONTHDAY=1,15', MONDAY_NOV_23, 'Monthly on days 1 and 15'],
    ['FREQ=MONTHLY;BYMONTHDAY=-1', MONDAY_NOV_23, 'Monthly on the last day'],
    ['FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1', MONDAY_NOV_23, 'Monthly on the last weekday'],
    ['FREQ=YEARLY;BYMONTH=5;BYDAY=2SU', MONDAY_NOV_23, 'Annually on the second Sunday of May'],
    ['FREQ=YEARLY;INTERVAL=4;BYMONTH=2;BYMONTHDAY=29', MONDAY_NOV_23, 'Every 4 years on February 29'],
    ['FREQ=HOURLY;INTERVAL=4', MONDAY_NOV_23, 'Every 4 hours'],
    ['FREQ=DAILY;BYHOUR=9,17', MONDAY_NOV_23, 'Daily, with further conditions'],
    ['', MONDAY_NOV_23, 'Does not repeat'],
    ['every day', MONDAY_NOV_23, 'Repeats by a rule this app cannot read'],
  ])('describes %j', (rule, start, text) => {
    expect(describeRule(rule, start)).toBe(text);
  });

  it('says a UTC UNTIL as the local day it falls on', () => {
    expect(describeRule(`FREQ=DAILY;UNTIL=${endOfLocalDayUtc(2027, 1, 2)}`, MONDAY_NOV_23)).toBe(
      'Daily, until Jan 2, 2027',
    );
  });
});

describe('repeatProblems and ruleProblems', () => {
  const messagesOf = (made: RepeatChoice, start = MONDAY_NOV_23) =>
    repeatProblems(made, start).map((problem) => `${problem.field}: ${problem.message}`);

  it('accepts every preset and the limits of count and interval', () => {
    for (const kind of ['none', 'daily', 'weekdays', 'weekly', 'monthly-date', 'yearly', 'custom'] as const) {
      expect(repeatProblems(presetChoice(kind, MONDAY_NOV_23), MONDAY_NOV_23)).toEqual([]);
    }
    expect(
      messagesOf(choice('custom', MONDAY_NOV_23, { interval: 99, ends: { kind: 'after', count: 999 } })),
    ).toEqual([]);
    expect(messagesOf(choice('daily', MONDAY_NOV_23, { ends: { kind: 'after', count: 1 } }))).toEqual([]);
  });

  it('asks for a count from 1 to 999', () => {
    for (const count of [0, 1000, 2.5, Number.NaN]) {
      expect(messagesOf(choice('daily', MONDAY_NOV_23, { ends: { kind: 'after', count } }))).toEqual([
        'count: Enter a number of times from 1 to 999',
      ]);
    }
  });

  it('asks for an interval from 1 to 99 in custom rules only', () => {
    expect(messagesOf(choice('custom', MONDAY_NOV_23, { unit: 'day', interval: 100 }))).toEqual([
      `interval: ${REPEAT_MESSAGES.interval}`,
    ]);
    expect(messagesOf(choice('daily', MONDAY_NOV_23, { interval: 0 }))).toEqual([]);
  });

  it('asks for a day in weekly rules and custom rules in weeks', () => {
    expect(messagesOf(choice('weekly', MONDAY_NOV_23, { weekdays: [] }))).toEqual([
      'weekdays: Pick at least one day',
    ]);
    expect(messagesOf(choice('custom', MONDAY_NOV_23, { unit: 'week', weekdays: [] }))).toEqual([
      'weekdays: Pick at least one day',
    ]);
    expect(messagesOf(choice('custom', MONDAY_NOV_23, { unit: 'day', weekdays: [] }))).toEqual([]);
  });

  it('wants an end date on or after the start day', () => {
    const endsOn = (date: string) => choice('daily', MONDAY_NOV_23, { ends: { kind: 'on', date } });
    expect(messagesOf(endsOn('2026-11-23'))).toEqual([]);
    expect(messagesOf(endsOn('2026-11-22'))).toEqual(['until: The end date must be on or after the start']);
    expect(messagesOf(endsOn(''))).toEqual(['until: Enter an end date']);
    expect(messagesOf(endsOn('2026-02-30'))).toEqual(['until: Enter an end date']);
  });

  it('checks the rule a form holds against its start', () => {
    expect(ruleProblems('FREQ=WEEKLY;BYDAY=;COUNT=0', MONDAY_NOV_23).map((problem) => problem.field)).toEqual(
      ['weekdays', 'count'],
    );
    expect(ruleProblems('FREQ=DAILY;UNTIL=20261231', localDate(2027, 1, 1))).toEqual([
      { field: 'until', message: REPEAT_MESSAGES.untilBeforeStart },
    ]);
    expect(ruleProblems('FREQ=DAILY;BYHOUR=9', MONDAY_NOV_23)).toEqual([]);
    expect(ruleProblems('', MONDAY_NOV_23)).toEqual([]);
  });
});

describe('ruleForNewStart', () => {
  it('moves a weekly rule on the start day to the new start day, and keeps chosen days', () => {
    expect(ruleForNewStart('FREQ=WEEKLY;BYDAY=MO', MONDAY_NOV_23, WEDNESDAY_JUN_3, false)).toBe(
      'FREQ=WEEKLY;BYDAY=WE',
    );
    expect(ruleForNewStart('FREQ=WEEKLY;BYDAY=MO,FR', MONDAY_NOV_23, WEDNESDAY_JUN_3, false)).toBe(
      'FREQ=WEEKLY;BYDAY=MO,FR',
    );
  });

  it('recounts the nth weekday, and "last" only while it still applies', () => {
    expect(ruleForNewStart('FREQ=MONTHLY;BYDAY=4MO', MONDAY_NOV_23, localDate(2026, 6, 9), false)).toBe(
      'FREQ=MONTHLY;BYDAY=2TU',
    );
    expect(ruleForNewStart('FREQ=MONTHLY;BYDAY=-1TH', THURSDAY_FEB_26, localDate(2026, 3, 31), false)).toBe(
      'FREQ=MONTHLY;BYDAY=-1TU',
    );
    expect(ruleForNewStart('FREQ=MONTHLY;BYDAY=-1TH', THURSDAY_FEB_26, THURSDAY_JAN_22, false)).toBe(
      'FREQ=MONTHLY;BYDAY=4TH',
    );
  });

  it('writes UNTIL the way the new start needs it and leaves rules it cannot edit alone', () => {
    expect(ruleForNewStart('FREQ=DAILY;UNTIL=20261231', MONDAY_NOV_23, MONDAY_NOV_23, false)).toBe(
      `FREQ=DAILY;UNTIL=${endOfLocalDayUtc(2026, 12, 31)}`,
    );
    expect(ruleForNewStart('FREQ=DAILY;BYHOUR=9', MONDAY_NOV_23, WEDNESDAY_JUN_3, true)).toBe(
      'FREQ=DAILY;BYHOUR=9',
    );
    expect(ruleForNewStart('', MONDAY_NOV_23, WEDNESDAY_JUN_3, true)).toBe('');
  });
});

describe('month helpers', () => {
  it('counts the weekday in its month and knows its last week', () => {
    expect(weekOfMonth(MONDAY_NOV_23)).toBe(4);
    expect(isInLastWeekOfMonth(MONDAY_NOV_23)).toBe(false);
    expect(isInLastWeekOfMonth(localDate(2026, 11, 24))).toBe(true);
    expect(weekOfMonth(localDate(2026, 1, 29))).toBe(5);
  });

  it('offers an end date three months on, clamped to the month', () => {
    expect(defaultUntilDate(MONDAY_NOV_23)).toBe('2027-02-23');
    expect(defaultUntilDate(localDate(2026, 11, 30))).toBe('2027-02-28');
  });
});
