import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import ICAL from 'ical.js';
import nodeIcal, { type VEvent } from 'node-ical';
import { ownEventIdOf } from '../../src/lib/ics/conventions.js';
import { calendarChunks, feedChunks, type ExportableTask, type FeedEvent } from '../../src/lib/ics/export.js';
import { readVTimezone } from '../../src/lib/ics/vtimezone.js';
import { VTIMEZONE_RANGE, vtimezoneComponent } from '../../src/lib/ics/vtimezone-writer.js';
import { occurrenceStarts } from '../../src/lib/recurrence.js';
import { instantOfWallTime, offsetMinutesAt } from '../../src/lib/time-zone.js';

type IcalComponent = InstanceType<typeof ICAL.Component>;

const HOUR_MS = 3_600_000;
const UPDATED = Date.parse('2026-02-01T08:30:15.500Z');

async function* pagesOf<T>(items: T[], pageSize = 2) {
  for (let index = 0; index < items.length; index += pageSize) yield items.slice(index, index + pageSize);
}

async function textOf(chunks: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
}

const feed = (events: FeedEvent[], tasks: ExportableTask[] = [], pageSize = 2) =>
  textOf(
    feedChunks({
      name: 'Ada’s Time Wallet',
      timeZone: 'Europe/Berlin',
      events: pagesOf(events, pageSize),
      tasks: pagesOf(tasks, pageSize),
    }),
  );

const iso = (instant: number) => new Date(instant).toISOString();
const unfolded = (text: string) => text.replace(/\r\n[ \t]/g, '').split('\r\n');

const SINGLE = {
  allDay: false,
  icsKey: null,
  series: null,
  seriesId: null,
  seriesKey: null,
  recurrenceAt: null,
  updatedAt: UPDATED,
} as const;

/** A timed series at a wall-clock time of its zone, an occurrence skipped and one moved by two hours. */
interface SeriesCase {
  name: string;
  zone: string;
  rrule: string;
  /** The first start, as the zone's wall clock. */
  first: [number, number, number, number, number];
  /** The range compared: a year that crosses the zone's DST changes (several years for 29 February). */
  from: string;
  to: string;
}

const CASES: SeriesCase[] = [
  {
    name: 'Europe/Berlin',
    zone: 'Europe/Berlin',
    rrule: 'FREQ=WEEKLY;BYDAY=MO,TH',
    first: [2026, 1, 5, 9, 30],
    from: '2026-01-01',
    to: '2027-01-01',
  },
  {
    name: 'America/New_York',
    zone: 'America/New_York',
    rrule: 'FREQ=WEEKLY;INTERVAL=1;BYDAY=TU;WKST=SU',
    first: [2026, 1, 6, 18, 0],
    from: '2026-01-01',
    to: '2027-01-01',
  },
  {
    name: 'UTC (monthly on the 31st: months without one are skipped)',
    zone: 'UTC',
    rrule: 'FREQ=MONTHLY;BYMONTHDAY=31',
    first: [2026, 1, 31, 12, 0],
    from: '2026-01-01',
    to: '2027-01-01',
  },
  {
    name: 'Asia/Kolkata',
    zone: 'Asia/Kolkata',
    rrule: 'FREQ=DAILY;INTERVAL=3',
    first: [2026, 1, 2, 7, 45],
    from: '2026-01-01',
    to: '2027-01-01',
  },
  {
    name: 'Australia/Lord_Howe (a 30-minute DST)',
    zone: 'Australia/Lord_Howe',
    rrule: 'FREQ=WEEKLY;BYDAY=SU,WE',
    first: [2026, 1, 4, 9, 0],
    from: '2026-01-01',
    to: '2027-01-01',
  },
  {
    name: '29 February, yearly (Europe/Berlin): leap years only',
    zone: 'Europe/Berlin',
    rrule: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;UNTIL=20400301T000000Z',
    first: [2024, 2, 29, 8, 0],
    from: '2024-01-01',
    to: '2041-01-01',
  },
];

function seriesOf(testCase: SeriesCase) {
  const [year, month, day, hour, minute] = testCase.first;
  const startAt = instantOfWallTime(testCase.zone, { year, month, day, hour, minute, second: 0 });
  const shape = {
    rrule: testCase.rrule,
    zone: testCase.zone,
    startAt,
    durationMs: HOUR_MS,
    allDay: false,
    exdates: [] as number[],
  };
  const from = Date.parse(`${testCase.from}T00:00:00Z`);
  const to = Date.parse(`${testCase.to}T00:00:00Z`);
  const all = occurrenceStarts(shape, from, to);
  // One occurrence skipped and the next one moved, in the middle of the range (summer, for a range of a year).
  const [skipped, moved] = [all[Math.floor(all.length / 2)]!, all[Math.floor(all.length / 2) + 1]!];
  const exdates = [skipped];
  const starts = occurrenceStarts({ ...shape, exdates }, from, to);
  const master: FeedEvent = {
    ...SINGLE,
    id: 'series',
    title: `Series in ${testCase.zone}`,
    startAt,
    endAt: startAt + HOUR_MS,
    series: { rrule: testCase.rrule, zone: testCase.zone, exdates },
  };
  const override: FeedEvent = {
    ...SINGLE,
    id: 'series_moved',
    title: 'Moved',
    startAt: moved + 2 * HOUR_MS,
    endAt: moved + 3 * HOUR_MS,
    seriesId: 'series',
    recurrenceAt: moved,
  };
  return { master, override, starts, from, to, moved };
}

/** The calendar ical.js reads, with the file's VTIMEZONEs registered in its TimezoneService. */
function icalCalendar(text: string): IcalComponent {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) {
    ICAL.TimezoneService.register(new ICAL.Timezone(zone));
  }
  return calendar;
}

afterEach(() => ICAL.TimezoneService.reset());

/** The starts of a UID's occurrences in [from, to) as ical.js expands them, and what its overrides move them to. */
function icalOccurrences(calendar: IcalComponent, uid: string, from: number, to: number) {
  const components = calendar
    .getAllSubcomponents('vevent')
    .filter((event) => event.getFirstPropertyValue('uid') === uid);
  const master = components.find((event) => !event.hasProperty('recurrence-id'))!;
  const event = new ICAL.Event(master, {
    exceptions: components.filter((component) => component !== master),
  });
  const starts: number[] = [];
  const moved = new Map<number, number>();
  const iterator = event.iterator();
  for (let next = iterator.next(); next; next = iterator.next()) {
    const start = next.toUnixTime() * 1000;
    if (start >= to) break;
    if (start < from) continue;
    starts.push(start);
    const details = event.getOccurrenceDetails(next);
    const detailsStart = details.startDate.toUnixTime() * 1000;
    if (detailsStart !== start) moved.set(start, detailsStart);
  }
  return { starts, moved, zone: event.startDate.zone };
}

/** The same, as node-ical reads the file. */
function nodeIcalOccurrences(text: string, uid: string, from: number, to: number) {
  const master = nodeIcal.sync.parseICS(text)[uid] as VEvent;
  const window = { from: new Date(from), to: new Date(to - 1) };
  const starts = nodeIcal
    .expandRecurringEvent(master, { ...window, includeOverrides: false })
    .map((instance) => instance.start.getTime());
  const withOverrides = nodeIcal
    .expandRecurringEvent(master, window)
    .filter((instance) => instance.isOverride);
  return { starts, overrides: withOverrides.map((instance) => instance.start.getTime()) };
}

function tzidsOf(lines: string[]): Set<string> {
  const used = new Set<string>();
  for (const line of lines) {
    const match = /^[A-Z-]+;(?:[^:]*;)?TZID=([^;:]+)[;:]/.exec(line);
    if (match && !line.startsWith('TZID')) used.add(match[1]!);
  }
  return used;
}

const definedZones = (lines: string[]) =>
  lines.filter((line) => line.startsWith('TZID:')).map((line) => line.slice('TZID:'.length));

describe('series in the written calendar read the same in ical.js, node-ical and our own expansion', () => {
  for (const testCase of CASES) {
    test(testCase.name, async () => {
      const { master, override, starts, from, to, moved } = seriesOf(testCase);
      const text = await feed([master, override]);
      const lines = unfolded(text);

      assert.deepEqual(definedZones(lines), [testCase.zone]);
      assert.deepEqual([...tzidsOf(lines)], [testCase.zone]);

      const ical = icalOccurrences(icalCalendar(text), 'series@time-wallet', from, to);
      // The TZID names the file's own VTIMEZONE, read although it comes after the events.
      assert.equal(ical.zone.tzid, testCase.zone);
      assert.ok(ical.zone.component, 'ical.js uses the VTIMEZONE written in the file');
      assert.deepEqual(ical.starts.map(iso), starts.map(iso));
      assert.deepEqual(
        [...ical.moved].map(([a, b]) => [iso(a), iso(b)]),
        [[iso(moved), iso(moved + 2 * HOUR_MS)]],
      );

      const other = nodeIcalOccurrences(text, 'series@time-wallet', from, to);
      assert.deepEqual(other.starts.map(iso), starts.map(iso));
      assert.deepEqual(other.overrides.map(iso), [iso(moved + 2 * HOUR_MS)]);
    });
  }
});

test('a plain FREQ=YEARLY from 29 February repeats in leap years only (RFC 5545 3.3.10 skips invalid dates)', () => {
  const startAt = Date.parse('2024-02-29T07:00:00Z');
  const shape = {
    rrule: 'FREQ=YEARLY',
    zone: 'Europe/Berlin',
    startAt,
    durationMs: HOUR_MS,
    allDay: false,
    exdates: [],
  };
  const starts = occurrenceStarts(shape, startAt, Date.parse('2033-01-01T00:00:00Z'));
  assert.deepEqual(
    starts.map(iso),
    ['2024', '2028', '2032'].map((year) => `${year}-02-29T07:00:00.000Z`),
  );
});

describe('vtimezoneComponent', () => {
  // Each zone with the first instant a file uses in it; the VTIMEZONE covers from the year before to ten years after.
  const ZONES: Array<[string, number]> = [
    ['Europe/Berlin', 2025],
    ['America/New_York', 2025],
    ['Australia/Lord_Howe', 2025],
    ['America/Santiago', 2025],
    ['Africa/Casablanca', 2025],
    // Summer time for one week in October 2000; Palestine's predicted Ramadan breaks of a week.
    ['America/Recife', 2000],
    ['Asia/Gaza', 2040],
  ];

  test('its offsets are the runtime zone’s all through the years it covers, in ical.js and in our reader', () => {
    for (const [zone, year] of ZONES) {
      const used = Date.UTC(year, 5, 1);
      const text = vtimezoneComponent(zone, used, used).toString().replace(/\r?\n/g, '\r\n');
      const timezone = new ICAL.Timezone(new ICAL.Component(ICAL.parse(text)));
      const ours = readVTimezone(unfolded(text))!;
      // Every 17 hours: every hour of the day comes round.
      for (
        let instant = Date.UTC(year - 1, 0, 1);
        instant < Date.UTC(year + 10, 0, 1);
        instant += 17 * HOUR_MS
      ) {
        const offset = offsetMinutesAt(zone, instant);
        assert.equal(ours.offsetSecondsAt(instant), offset * 60, `${zone} at ${iso(instant)}`);
        // ical.js reads a wall-clock time near a change by its own approximations: compare times away from them.
        if (offsetMinutesAt(zone, instant - 5 * HOUR_MS) !== offsetMinutesAt(zone, instant + 5 * HOUR_MS))
          continue;
        const local = new Date(instant + offset * 60_000);
        const wall = new ICAL.Time(
          {
            year: local.getUTCFullYear(),
            month: local.getUTCMonth() + 1,
            day: local.getUTCDate(),
            hour: local.getUTCHours(),
            minute: local.getUTCMinutes(),
            second: local.getUTCSeconds(),
            isDate: false,
          },
          timezone,
        );
        assert.equal(wall.toUnixTime() * 1000, instant, `${zone}: ${wall.toString()}`);
      }
    }
  });

  test('DST that repeats by a weekday rule is one yearly RRULE per change, which carries on after the range', () => {
    const lines = unfolded(
      vtimezoneComponent(
        'Europe/Berlin',
        Date.parse('2026-03-02T17:00:00Z'),
        Date.parse('2026-03-02T18:00:00Z'),
      )
        .toString()
        .replace(/\r?\n/g, '\r\n'),
    );
    assert.deepEqual(lines, [
      'BEGIN:VTIMEZONE',
      'TZID:Europe/Berlin',
      'X-LIC-LOCATION:Europe/Berlin',
      'BEGIN:STANDARD',
      'DTSTART:20250101T010000',
      'TZOFFSETFROM:+0100',
      'TZOFFSETTO:+0100',
      'TZNAME:CET',
      'END:STANDARD',
      'BEGIN:DAYLIGHT',
      'DTSTART:20250330T020000',
      'TZOFFSETFROM:+0100',
      'TZOFFSETTO:+0200',
      'TZNAME:CEST',
      'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
      'END:DAYLIGHT',
      'BEGIN:STANDARD',
      'DTSTART:20251026T030000',
      'TZOFFSETFROM:+0200',
      'TZOFFSETTO:+0100',
      'TZNAME:CET',
      'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
      'END:STANDARD',
      'END:VTIMEZONE',
    ]);
  });

  test('a zone without a change in range is one STANDARD from 1970 with equal offsets', () => {
    for (const [zone, offset] of [
      ['UTC', '+0000'],
      ['Asia/Tokyo', '+0900'],
      ['Asia/Kolkata', '+0530'],
    ] as const) {
      const component = vtimezoneComponent(
        zone,
        Date.parse('2026-01-01T00:00:00Z'),
        Date.parse('2026-02-01T00:00:00Z'),
      );
      const observances = component.getAllSubcomponents();
      assert.deepEqual(
        observances.map((observance) => [
          observance.name,
          observance.getFirstProperty('dtstart')!.toICALString(),
          observance.getFirstProperty('tzoffsetfrom')!.toICALString(),
          observance.getFirstProperty('tzoffsetto')!.toICALString(),
        ]),
        [['standard', 'DTSTART:19700101T000000', `TZOFFSETFROM:${offset}`, `TZOFFSETTO:${offset}`]],
        zone,
      );
    }
  });

  test('changes without a weekday rule are observances of their own (Casablanca’s Ramadan breaks)', () => {
    const component = vtimezoneComponent(
      'Africa/Casablanca',
      Date.parse('2026-01-01T00:00:00Z'),
      Date.parse('2026-02-01T00:00:00Z'),
    );
    const observances = component.getAllSubcomponents();
    assert.ok(observances.length > 10, `${observances.length} observances`);
    assert.ok(observances.every((observance) => !observance.hasProperty('rdate')));
    const starts = observances.map((observance) => observance.getFirstPropertyValue('dtstart')!.toString());
    assert.deepEqual(starts, [...starts].sort());
  });

  test('series far in the past or future cost a bounded scan of 1970..2100', () => {
    const began = performance.now();
    for (const [from, to] of [
      [Date.parse('1900-01-01T09:00:00Z'), Date.parse('1900-01-01T10:00:00Z')],
      [Date.parse('2999-01-01T09:00:00Z'), Date.parse('2999-01-01T10:00:00Z')],
      [Date.parse('1900-01-01T09:00:00Z'), Date.parse('2999-01-01T10:00:00Z')],
      [Number.NaN, Number.POSITIVE_INFINITY],
    ]) {
      const component = vtimezoneComponent('America/Sao_Paulo', from!, to!);
      const onsets = component.getAllSubcomponents().map((observance) => {
        const start = observance.getFirstPropertyValue('dtstart') as InstanceType<typeof ICAL.Time>;
        const offset = observance.getFirstPropertyValue('tzoffsetfrom') as InstanceType<
          typeof ICAL.UtcOffset
        >;
        return start.toUnixTime() * 1000 - offset.toSeconds() * 1000;
      });
      assert.ok(
        onsets.every(
          (onset) =>
            onset >= Date.UTC(VTIMEZONE_RANGE.earliestYear, 0, 1) &&
            onset <= Date.UTC(VTIMEZONE_RANGE.latestYear, 0, 1),
        ),
        onsets.map(iso).join(),
      );
    }
    // A 2999 series still has its offsets: Berlin's yearly rules carry on past 2100.
    const berlin = vtimezoneComponent(
      'Europe/Berlin',
      Date.parse('2999-07-01T09:00:00Z'),
      Date.parse('2999-07-01T10:00:00Z'),
    );
    const timezone = new ICAL.Timezone(berlin);
    const july = new ICAL.Time(
      { year: 2999, month: 7, day: 1, hour: 11, minute: 0, second: 0, isDate: false },
      timezone,
    );
    assert.equal(july.toUnixTime() * 1000, Date.parse('2999-07-01T09:00:00Z'));
    assert.ok(performance.now() - began < 5_000, `${Math.round(performance.now() - began)} ms`);
  });
});

describe('the written calendar', () => {
  const berlin = seriesOf(CASES[0]!);
  const newYork = seriesOf(CASES[1]!);

  test('has a VTIMEZONE for every TZID it uses, after the events and before END:VCALENDAR, and none more', async () => {
    const allDaySeries: FeedEvent = {
      ...SINGLE,
      id: 'birthday',
      title: 'Birthday',
      allDay: true,
      startAt: Date.parse('2026-03-19T23:00:00Z'),
      endAt: Date.parse('2026-03-20T23:00:00Z'),
      series: { rrule: 'FREQ=YEARLY', zone: 'Asia/Tokyo', exdates: [] },
    };
    for (const text of [
      await feed([berlin.master, newYork.master, allDaySeries, berlin.override]),
      await textOf(
        calendarChunks(pagesOf([berlin.master, newYork.master, allDaySeries]), 'Europe/Paris', UPDATED),
      ),
    ]) {
      const lines = unfolded(text);
      // The all-day series is written as dates: no TZID, no VTIMEZONE for Tokyo.
      assert.deepEqual([...tzidsOf(lines)].sort(), ['America/New_York', 'Europe/Berlin']);
      assert.deepEqual(definedZones(lines), ['America/New_York', 'Europe/Berlin']);
      assert.ok(lines.lastIndexOf('END:VEVENT') < lines.indexOf('BEGIN:VTIMEZONE'));
      assert.deepEqual(lines.slice(-3), ['END:VTIMEZONE', 'END:VCALENDAR', '']);
    }
  });

  test('the same data is the same bytes, however it is paged; DTSTAMP is each item’s last change', async () => {
    const task: ExportableTask = {
      id: 'task-1',
      title: 'Write report',
      notes: '',
      done: false,
      scheduled: true,
      startAt: Date.parse('2026-03-03T09:00:00Z'),
      endAt: Date.parse('2026-03-03T10:00:00Z'),
      series: null,
      seriesId: null,
      recurrenceAt: null,
      updatedAt: Date.parse('2026-03-01T10:00:00.999Z'),
    };
    const events = [berlin.master, berlin.override, newYork.master];
    const first = await feed(events, [task], 1);
    assert.equal(await feed(events, [task], 100), first);
    assert.equal(await feed(events, [task], 2), first);
    const stamps = unfolded(first).filter((line) => line.startsWith('DTSTAMP:'));
    assert.deepEqual(stamps, [
      'DTSTAMP:20260201T083015Z',
      'DTSTAMP:20260201T083015Z',
      'DTSTAMP:20260201T083015Z',
      'DTSTAMP:20260301T100000Z',
    ]);
  });

  test('the feed is named, and a name with commas or a line break stays one escaped line', async () => {
    const text = await textOf(
      feedChunks({
        name: 'Work, home;\nEND:VCALENDAR',
        timeZone: 'UTC',
        events: pagesOf([]),
        tasks: pagesOf([]),
      }),
    );
    assert.equal(
      text,
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Time Wallet//Calendar feed//EN\r\nCALSCALE:GREGORIAN\r\n' +
        'X-WR-CALNAME:Work\\, home\\;\\nEND:VCALENDAR\r\nEND:VCALENDAR\r\n',
    );
    const calendar = new ICAL.Component(ICAL.parse(text));
    assert.deepEqual(
      calendar.getAllProperties().map((property) => property.name),
      ['version', 'prodid', 'calscale', 'x-wr-calname'],
    );
    assert.equal(calendar.getAllSubcomponents().length, 0);
    assert.equal((await feed([])).split('\r\n')[4], 'X-WR-CALNAME:Ada’s Time Wallet');
  });
});

describe('tasks in the feed', () => {
  const base: ExportableTask = {
    id: 'gym',
    title: 'Gym',
    notes: '',
    done: false,
    scheduled: true,
    startAt: Date.parse('2026-03-02T17:00:00Z'),
    endAt: Date.parse('2026-03-02T18:00:00Z'),
    series: null,
    seriesId: null,
    recurrenceAt: null,
    updatedAt: UPDATED,
  };
  const series: ExportableTask = {
    ...base,
    notes: 'Bring a towel, and water.\nLocker 12',
    series: {
      rrule: 'FREQ=WEEKLY;BYDAY=MO,WE',
      zone: 'Europe/Berlin',
      exdates: [Date.parse('2026-03-04T17:00:00Z')],
    },
  };
  const ticked: ExportableTask = {
    ...base,
    id: 'gym_20260309T170000Z',
    done: true,
    seriesId: 'gym',
    recurrenceAt: Date.parse('2026-03-09T17:00:00Z'),
    startAt: Date.parse('2026-03-09T18:00:00Z'),
    endAt: Date.parse('2026-03-09T19:00:00Z'),
  };
  const unscheduled: ExportableTask = {
    ...base,
    id: 'call-bank',
    title: 'Call the bank',
    scheduled: false,
    startAt: Date.parse('2026-03-05T23:00:00Z'),
    endAt: Date.parse('2026-03-05T23:00:00Z'),
  };
  const unscheduledSeries: ExportableTask = {
    ...unscheduled,
    id: 'plants',
    title: 'Water the plants',
    series: { rrule: 'FREQ=WEEKLY', zone: 'Europe/Berlin', exdates: [Date.parse('2026-03-12T23:00:00Z')] },
  };
  const event: FeedEvent = {
    ...SINGLE,
    id: 'gym',
    title: 'Event with the same id',
    startAt: Date.parse('2026-03-03T09:00:00Z'),
    endAt: Date.parse('2026-03-03T10:00:00Z'),
  };

  test('are VEVENTs with UID <id>@tasks.time-wallet, marked as Time Wallet tasks, a series with its rule', async () => {
    const text = await feed([event], [series, ticked, unscheduled, unscheduledSeries]);
    const vevents = unfolded(text)
      .join('\n')
      .split('BEGIN:VEVENT\n')
      .slice(1)
      .map((block) => block.slice(0, block.indexOf('END:VEVENT')).trim().split('\n'));
    assert.deepEqual(vevents, [
      [
        'UID:gym@time-wallet',
        'DTSTAMP:20260201T083015Z',
        'SUMMARY:Event with the same id',
        'DTSTART:20260303T090000Z',
        'DTEND:20260303T100000Z',
      ],
      [
        'UID:gym@tasks.time-wallet',
        'DTSTAMP:20260201T083015Z',
        'SUMMARY:Gym',
        'DESCRIPTION:Time Wallet task\\n\\nBring a towel\\, and water.\\nLocker 12',
        'CATEGORIES:Time Wallet task',
        'DTSTART;TZID=Europe/Berlin:20260302T180000',
        'DTEND;TZID=Europe/Berlin:20260302T190000',
        'RRULE:FREQ=WEEKLY;BYDAY=MO,WE',
        'EXDATE:20260304T170000Z',
      ],
      [
        'UID:gym@tasks.time-wallet',
        'DTSTAMP:20260201T083015Z',
        'RECURRENCE-ID:20260309T170000Z',
        'SUMMARY:✓ Gym',
        'DESCRIPTION:Time Wallet task (done)',
        'CATEGORIES:Time Wallet task',
        'DTSTART:20260309T180000Z',
        'DTEND:20260309T190000Z',
      ],
      [
        'UID:call-bank@tasks.time-wallet',
        'DTSTAMP:20260201T083015Z',
        'SUMMARY:Call the bank',
        'DESCRIPTION:Time Wallet task',
        'CATEGORIES:Time Wallet task',
        'DTSTART;VALUE=DATE:20260306',
        'DTEND;VALUE=DATE:20260307',
      ],
      [
        'UID:plants@tasks.time-wallet',
        'DTSTAMP:20260201T083015Z',
        'SUMMARY:Water the plants',
        'DESCRIPTION:Time Wallet task',
        'CATEGORIES:Time Wallet task',
        'DTSTART;VALUE=DATE:20260306',
        'DTEND;VALUE=DATE:20260307',
        'RRULE:FREQ=WEEKLY',
        'EXDATE;VALUE=DATE:20260313',
      ],
    ]);
    assert.equal(ownEventIdOf('gym@tasks.time-wallet#'), null);
  });

  test('a task series reads the same in ical.js and node-ical: the skipped start left out, the ticked one moved', async () => {
    const text = await feed([], [series, ticked]);
    const from = Date.parse('2026-03-01T00:00:00Z');
    const to = Date.parse('2026-04-01T00:00:00Z');
    const expected = occurrenceStarts(
      {
        rrule: 'FREQ=WEEKLY;BYDAY=MO,WE',
        zone: 'Europe/Berlin',
        startAt: base.startAt,
        durationMs: HOUR_MS,
        allDay: false,
        exdates: series.series!.exdates,
      },
      from,
      to,
    );
    // The last week of March is summer time: 17:00 UTC becomes 16:00 UTC.
    assert.equal(iso(expected.at(-1)!), '2026-03-30T16:00:00.000Z');
    const ical = icalOccurrences(icalCalendar(text), 'gym@tasks.time-wallet', from, to);
    assert.deepEqual(ical.starts.map(iso), expected.map(iso));
    assert.deepEqual(
      [...ical.moved].map(([a, b]) => [iso(a), iso(b)]),
      [['2026-03-09T17:00:00.000Z', '2026-03-09T18:00:00.000Z']],
    );
    const other = nodeIcalOccurrences(text, 'gym@tasks.time-wallet', from, to);
    assert.deepEqual(other.starts.map(iso), expected.map(iso));
    assert.deepEqual(other.overrides.map(iso), ['2026-03-09T18:00:00.000Z']);
    assert.equal(nodeIcal.sync.parseICS(text)['gym@tasks.time-wallet']?.type, 'VEVENT');
  });

  test('events and tasks share one VTIMEZONE per zone, which covers the instants of both', async () => {
    // Casablanca's changes follow no weekday rule: each is written out, as far as the VTIMEZONE covers.
    const zone = 'Africa/Casablanca';
    const event: FeedEvent = {
      ...SINGLE,
      id: 'market',
      title: 'Market',
      startAt: Date.parse('2026-05-04T09:00:00Z'),
      endAt: Date.parse('2026-05-04T10:00:00Z'),
      series: { rrule: 'FREQ=WEEKLY', zone, exdates: [] },
    };
    const task: ExportableTask = {
      ...series,
      startAt: Date.parse('2045-05-04T09:00:00Z'),
      endAt: Date.parse('2045-05-04T10:00:00Z'),
      series: { ...series.series!, zone },
    };
    const lines = unfolded(await feed([event], [task]));
    assert.deepEqual(definedZones(lines), [zone]);
    const onsets = lines.filter((line) => line.startsWith('DTSTART:')).map((line) => line.slice(8, 12));
    assert.equal(onsets[0], '2025');
    assert.ok(onsets.at(-1)! >= '2054', onsets.join());
  });
});
