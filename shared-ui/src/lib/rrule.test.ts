import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { formatRule, readRule, readUntil, ruleFields, ruleProblem } from './rrule';

// The one reader of RRULE values: the Repeat field reads rules with it, and the server runs a copy of this file
// (server/src/lib/generated/rrule.ts), whose own tests check the messages its 400 answers and import reports carry.

it('is what the server runs: its copy is this file as `npm run server:copies` writes it', () => {
  const repoRoot = path.resolve(__dirname, '../../..');
  const check = spawnSync(
    process.execPath,
    [path.join(repoRoot, 'shell/packages/devkit/bin/server-copies.mjs'), '--check'],
    { cwd: repoRoot, encoding: 'utf8' },
  );
  expect(check.stderr).toBe('');
  expect(check.status).toBe(0);
});

const problemOf = (text: string): string | null => {
  const reading = readRule(text);
  return reading.problem ?? ruleProblem(reading.rule);
};

describe('ruleFields', () => {
  it('reads the parts in order, without "RRULE:", spaces around the rule or empty parts', () => {
    const { fields } = ruleFields('  RRULE:freq=weekly;byday=mo,we;;x-source=Outlook;  ');
    expect(fields && [...fields]).toEqual([
      ['FREQ', 'WEEKLY'],
      ['BYDAY', 'MO,WE'],
      ['X-SOURCE', 'Outlook'],
    ]);
    expect(formatRule(fields!)).toBe('FREQ=WEEKLY;BYDAY=MO,WE;X-SOURCE=Outlook');
  });

  it('refuses a part without a name and "=", and a part given twice', () => {
    expect(ruleFields('every day').problem).toBe('"every day" is not a rule part');
    expect(ruleFields('FREQ=DAILY;=2').problem).toBe('"=2" is not a rule part');
    expect(ruleFields('FREQ=DAILY;freq=WEEKLY').problem).toBe('FREQ appears twice');
    expect(ruleFields('').fields?.size).toBe(0);
  });
});

describe('readUntil', () => {
  it('reads a DATE, a UTC DATE-TIME and a floating DATE-TIME', () => {
    expect(readUntil('20261231')).toEqual({
      date: '2026-12-31',
      year: 2026,
      month: 12,
      day: 31,
      time: null,
      utc: false,
    });
    expect(readUntil('20261231T225959Z')).toMatchObject({
      date: '2026-12-31',
      time: { hour: 22, minute: 59, second: 59 },
      utc: true,
    });
    expect(readUntil('20240229t090000')).toMatchObject({ date: '2024-02-29', utc: false });
  });

  it.each([
    '',
    'tomorrow',
    '2026-12-31',
    '20261301',
    '20260230',
    '20250229',
    '20261231T240000Z',
    '20261231T2359',
  ])('refuses %j', (value) => {
    expect(readUntil(value)).toBeNull();
  });
});

describe('readRule', () => {
  it('reads each part, with the defaults of the parts left out', () => {
    const { rule } = readRule('FREQ=MONTHLY;INTERVAL=2;BYDAY=-1FR,2MO;BYMONTH=1,7;WKST=SU;COUNT=6');
    expect(rule).toMatchObject({
      freq: 'MONTHLY',
      interval: 2,
      count: 6,
      until: null,
      byDay: [
        { ordinal: -1, weekday: 'FR' },
        { ordinal: 2, weekday: 'MO' },
      ],
      byMonth: [1, 7],
      byMonthDay: null,
      bySetPos: null,
      weekStart: 'SU',
    });
    expect(readRule('FREQ=DAILY').rule).toMatchObject({
      interval: 1,
      count: null,
      byDay: null,
      weekStart: null,
    });
  });

  it('reads what a form has not finished, and ruleProblem() says what is missing', () => {
    const { rule } = readRule('FREQ=WEEKLY;INTERVAL=0;BYDAY=;COUNT=0');
    expect(rule).toMatchObject({ interval: 0, byDay: [], count: 0 });
    expect(ruleProblem(rule!)).toBe('INTERVAL must be a positive whole number');
    expect(readRule('FREQ=DAILY;UNTIL=').rule?.until).toBe('');
    expect(problemOf('FREQ=DAILY;UNTIL=')).toBe('UNTIL must not be empty');
    expect(problemOf('FREQ=WEEKLY;BYDAY=')).toBe('BYDAY must list at least one weekday');
  });

  it.each([
    ['INTERVAL=2', 'FREQ is missing or unknown'],
    ['FREQ=FORTNIGHTLY', 'FREQ is missing or unknown'],
    ['FREQ=DAILY;INTERVAL=-2', 'INTERVAL must be a positive whole number'],
    ['FREQ=DAILY;COUNT=two', 'COUNT must be a whole number'],
    [
      'FREQ=DAILY;UNTIL=20260230',
      'UNTIL must be a real date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS, with Z in UTC)',
    ],
    ['FREQ=DAILY;BYMONTH=x', 'BYMONTH must list whole numbers'],
    ['FREQ=DAILY;BYMONTH=', 'BYMONTH must list whole numbers'],
    ['FREQ=MONTHLY;BYDAY=XX', 'BYDAY value "XX" is not a weekday'],
    ['FREQ=WEEKLY;WKST=SUNDAY', 'WKST must be a weekday: SU, MO, TU, WE, TH, FR or SA'],
  ])('cannot read %j: %s', (text, problem) => {
    expect(readRule(text)).toEqual({ rule: null, problem });
  });
});

describe('ruleProblem', () => {
  it.each([
    ['FREQ=DAILY;COUNT=0', 'COUNT must be at least 1'],
    ['FREQ=DAILY;COUNT=3;UNTIL=20270101', 'COUNT and UNTIL must not both be given'],
    ['FREQ=MONTHLY;BYMONTHDAY=32', 'BYMONTHDAY values must be 1 to 31 or -31 to -1'],
    ['FREQ=DAILY;BYMONTH=-1', 'BYMONTH values must be 1 to 12'],
    ['FREQ=DAILY;BYHOUR=24', 'BYHOUR values must be 0 to 23'],
    ['FREQ=DAILY;BYDAY=1MO', 'BYDAY with a number (such as 1MO) needs FREQ=MONTHLY or FREQ=YEARLY'],
    ['FREQ=MONTHLY;BYDAY=0MO', 'BYDAY numbers start at 1'],
    ['FREQ=MONTHLY;BYDAY=6MO', 'a month has at most 5 of each weekday'],
    ['FREQ=YEARLY;BYMONTH=3;BYDAY=-7MO', 'a month has at most 5 of each weekday'],
    ['FREQ=YEARLY;BYDAY=54MO', 'a year has at most 53 of each weekday'],
    ['FREQ=YEARLY;BYWEEKNO=1;BYDAY=1MO', 'BYDAY with a number must not be combined with BYWEEKNO'],
    ['FREQ=MONTHLY;BYWEEKNO=1', 'BYWEEKNO needs FREQ=YEARLY'],
    ['FREQ=WEEKLY;BYYEARDAY=1', 'BYYEARDAY must not be used with FREQ=WEEKLY'],
    ['FREQ=WEEKLY;BYMONTHDAY=1', 'BYMONTHDAY must not be used with FREQ=WEEKLY'],
    ['FREQ=DAILY;BYSETPOS=1', 'BYSETPOS needs another BYxxx rule part'],
    ['FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30,31', 'no month in BYMONTH has any of the days in BYMONTHDAY'],
  ])('refuses %j: %s', (text, problem) => {
    expect(problemOf(text)).toBe(problem);
  });

  it.each([
    'FREQ=DAILY',
    'FREQ=WEEKLY;BYDAY=MO,WE,FR;WKST=SU',
    'FREQ=MONTHLY;BYDAY=-1FR',
    'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1',
    'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29',
    'FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO',
    'FREQ=HOURLY;INTERVAL=4',
    'FREQ=DAILY;UNTIL=20261231T225959Z',
    'FREQ=WEEKLY;X-SOURCE=Outlook',
  ])('accepts %j', (text) => {
    expect(problemOf(text)).toBeNull();
  });
});
