import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import ICAL from 'ical.js';
import { localDaysBetween } from '../../src/lib/time-zone.js';
import type { CalendarEvent } from '../../src/schemas/event.js';
import type { ImportSummary } from '../../src/services/ics-import.js';
import { buildTestApp, importAnswer, send, signUp } from '../helpers.js';

/**
 * The .ics corpus (test/fixtures/ics-corpus, described by its manifest.json): small files written to reproduce what
 * real exporters send (Outlook/Exchange, Teams, Google, Apple, Thunderbird, DAVx5, Nextcloud, Podio-style tools, broken
 * and truncated downloads). Each file is imported by a user in Europe/Berlin, whose local days the manifest's ranges
 * and floating times are read in, on the suite's usual date (11 March 2026).
 *
 * Every import starts a parse worker (about half a second under tsx): the files share one app, and the readable ones
 * are imported into two accounts (each file, then again: a copy of what is there already, so all duplicates), whose
 * exports are imported once each into another account and back; the two accounts run at once, as the parse pool reads
 * two accounts' files at a time. ical.js, read beside our import, says which files hold an event start.
 */
const NOW = Date.parse('2026-03-11T15:00:00Z');
const USER_ZONE = 'Europe/Berlin';
const CORPUS = new URL('../fixtures/ics-corpus/', import.meta.url);
/** GET /events answers at most this many days at once (MAX_RANGE_DAYS). */
const RANGE_DAYS_LIMIT = 62;
/** The import answer names at most this many skipped events. */
const SKIPPED_EVENTS_LISTED = 20;

/** One expectation: the occurrences titled `title` overlapping the local days [from, to). */
interface CorpusCheck {
  title: string;
  /** The first of them (by start), ISO UTC. */
  start: string;
  end?: string;
  from: string;
  to: string;
  /** How many of them the range holds. */
  count?: number;
}

interface CorpusFile {
  file: string;
  exporter: string;
  what: string;
  /** True when the file holds at least one VEVENT a calendar app would show: it imports; otherwise 400. */
  readable: boolean;
  checks?: CorpusCheck[];
  /** UIDs of events that cannot be read: each must be listed in the answer's skippedEvents with a reason. */
  skippedUids?: string[];
}

const manifest = JSON.parse(readFileSync(new URL('manifest.json', CORPUS), 'utf8')) as CorpusFile[];

function multipart(content: Buffer, filename: string) {
  const boundary = '----time-wallet-corpus-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/calendar\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function importFile(
  app: FastifyInstance,
  headers: Record<string, string>,
  content: Buffer,
  filename: string,
) {
  const body = multipart(content, filename);
  const response = await app.inject({
    method: 'POST',
    url: '/api/events/import',
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
  assert.ok(
    response.statusCode < 500,
    `import of ${filename} answered ${response.statusCode}: ${response.body}`,
  );
  return response;
}

/** A fresh user whose own time zone (not a header) is Europe/Berlin, so every read uses the stored zone. */
async function berlinUser(app: FastifyInstance): Promise<Record<string, string>> {
  const { headers } = await signUp(app);
  const patched = await send(app, headers, 'PATCH', '/api/users/me', { timeZone: USER_ZONE });
  assert.equal(patched.statusCode, 200, patched.body);
  assert.equal(patched.json().user.timeZone, USER_ZONE);
  return headers;
}

async function eventsIn(app: FastifyInstance, headers: Record<string, string>, from: string, to: string) {
  const response = await send(app, headers, 'GET', `/api/events?from=${from}&to=${to}`);
  assert.equal(response.statusCode, 200, response.body);
  return response.json<CalendarEvent[]>();
}

/** What a round trip must keep: titles and instants (and the all-day flag), in a stable order. */
function comparable(events: CalendarEvent[]) {
  return events
    .map(({ title, start, end, allDay }) => ({ title, start, end, allDay }))
    .sort(
      (a, b) =>
        a.start.localeCompare(b.start) || a.title.localeCompare(b.title) || a.end.localeCompare(b.end),
    );
}

function ranges(entry: CorpusFile): Array<{ from: string; to: string }> {
  const seen = new Map((entry.checks ?? []).map(({ from, to }) => [`${from}/${to}`, { from, to }]));
  return [...seen.values()];
}

/** GET /events as sent, byte for byte, for each of the file's ranges: what "the import changed nothing" compares. */
async function eventsAsSent(app: FastifyInstance, headers: Record<string, string>, entry: CorpusFile) {
  const bodies: string[] = [];
  for (const { from, to } of ranges(entry)) {
    const response = await send(app, headers, 'GET', `/api/events?from=${from}&to=${to}`);
    assert.equal(response.statusCode, 200, response.body);
    bodies.push(response.body);
  }
  return bodies;
}

/** How many VEVENTs of a file ical.js reads a DTSTART of: 0 when it cannot read the file at all. */
function startsReadByIcalJs(content: Buffer): number {
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(content.toString('utf8')));
  } catch {
    return 0;
  }
  return root.getAllSubcomponents('vevent').filter((event) => {
    try {
      return event.getFirstPropertyValue('dtstart') instanceof ICAL.Time;
    } catch {
      return false;
    }
  }).length;
}

/**
 * The UIDs of the events ical.js reads a start of (DTSTART, in the years the API keeps) that are not cancelled: what
 * the importer must import, one way or another (an unusable repeat rule makes it a single event).
 */
function uidsReadByIcalJs(content: Buffer): Set<string> {
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(content.toString('utf8')));
  } catch {
    return new Set();
  }
  const uids = new Set<string>();
  for (const event of root.getAllSubcomponents('vevent')) {
    try {
      const start = event.getFirstPropertyValue('dtstart');
      const status = String(event.getFirstPropertyValue('status') ?? '').toUpperCase();
      if (start instanceof ICAL.Time && start.year >= 1900 && start.year <= 2999 && status !== 'CANCELLED') {
        uids.add(String(event.getFirstPropertyValue('uid') ?? ''));
      }
    } catch {
      // ical.js cannot read it either.
    }
  }
  return uids;
}

describe('the .ics corpus manifest', () => {
  test('lists every fixture once, and each readable one with checks in readable ranges', () => {
    const files = readdirSync(CORPUS).filter((name) => name.endsWith('.ics'));
    assert.deepEqual(manifest.map((entry) => entry.file).sort(), files.sort());
    for (const entry of manifest) {
      assert.ok(entry.exporter && entry.what, entry.file);
      if (!entry.readable) continue;
      assert.ok((entry.checks ?? []).length > 0, `${entry.file} pins what it imports`);
      for (const check of entry.checks ?? []) {
        const days = localDaysBetween(check.from, check.to);
        assert.ok(days > 0 && days <= RANGE_DAYS_LIMIT, `${entry.file}: ${check.from}..${check.to}`);
        assert.ok(!Number.isNaN(Date.parse(check.start)), `${entry.file}: ${check.start}`);
      }
    }
  });

  // Each readable file's import must answer 200 and create an event (below): so must every file ical.js reads a start in.
  test('lists as readable every file in which ical.js reads an event start', () => {
    const startsRead = manifest.map((entry) => ({
      file: entry.file,
      readable: entry.readable,
      icalJsStarts: startsReadByIcalJs(readFileSync(new URL(entry.file, CORPUS))),
    }));
    assert.deepEqual(
      startsRead.filter(({ readable, icalJsStarts }) => icalJsStarts > 0 && !readable),
      [],
    );
  });
});

/** The SUMMARY values a file holds (as written, unfolded): files that share an account must not share one. */
function summariesOf(content: Buffer): Set<string> {
  const text = content.toString('utf8').replace(/\r?\n[ \t]/g, '');
  return new Set([...text.matchAll(/^SUMMARY[^:\r\n]*:(.*)$/gim)].map((match) => match[1]!.trim()));
}

/**
 * The readable files split into ACCOUNTS groups, each imported into one account, so that an export, its import into
 * another account and its import back cover a group at once. A check counts its title in its range, so files whose
 * titles meet (two "Dentist"s) go to different groups.
 */
const ACCOUNTS = 2;
function groupsOf(entries: CorpusFile[]): CorpusFile[][] {
  const groups = Array.from({ length: ACCOUNTS }, () => ({
    entries: [] as CorpusFile[],
    titles: new Set<string>(),
  }));
  for (const [index, entry] of entries.entries()) {
    const titles = summariesOf(readFileSync(new URL(entry.file, CORPUS)));
    const fits = (group: (typeof groups)[number]) => [...titles].every((title) => !group.titles.has(title));
    const group = [...groups.slice(index % ACCOUNTS), ...groups.slice(0, index % ACCOUNTS)].find(fits);
    assert.ok(group, `${entry.file} shares a title with a file in every group`);
    group.entries.push(entry);
    for (const title of titles) group.titles.add(title);
  }
  return groups.map((group) => group.entries);
}

const { app } = await buildTestApp({ now: NOW });

describe('importing the .ics corpus', { concurrency: ACCOUNTS }, () => {
  test('files that hold no readable event are refused with 400 and a message', async (t) => {
    const owner = await berlinUser(app);
    for (const entry of manifest.filter((candidate) => !candidate.readable)) {
      await t.test(`${entry.file} (${entry.exporter}): ${entry.what}`, async () => {
        const content = readFileSync(new URL(entry.file, CORPUS));
        const answer = await importFile(app, owner, content, entry.file);
        assert.equal(answer.statusCode, 400, answer.body);
        const body = answer.json<Record<string, unknown>>();
        assert.deepEqual(Object.keys(body), ['message']);
        assert.ok(typeof body.message === 'string' && body.message.length > 0);
        const again = await importFile(app, owner, content, entry.file);
        assert.deepEqual([again.statusCode, again.body], [answer.statusCode, answer.body]);
      });
    }
  });

  for (const [index, group] of groupsOf(manifest.filter((entry) => entry.readable)).entries()) {
    test(`account ${index + 1} of ${ACCOUNTS}: ${group.length} files, each imported, then all exported and imported elsewhere and back`, async (t) => {
      const owner = await berlinUser(app);

      for (const entry of group) {
        await t.test(`${entry.file} (${entry.exporter}): ${entry.what}`, async (t) => {
          const content = readFileSync(new URL(entry.file, CORPUS));
          const first = await importFile(app, owner, content, entry.file);

          const icalJsStarts = startsReadByIcalJs(content);
          await t.test(`imports: 200, events created (ical.js reads ${icalJsStarts} starts)`, () => {
            assert.equal(first.statusCode, 200, first.body);
            assert.ok(first.json<ImportSummary>().created >= 1, first.body);
          });

          await t.test(
            'skips no event whose start ical.js reads, unless cancelled or one of its own kept',
            () => {
              const readable = uidsReadByIcalJs(content);
              const { skippedEvents } = first.json<ImportSummary>();
              // A UID ical.js reads may still be skipped for a part of it ical.js cannot tell apart: a second copy of
              // an occurrence, or an override of a series it also reads. The manifest names each such UID.
              const unexpected = skippedEvents.filter(
                ({ uid }) => readable.has(uid) && !(entry.skippedUids ?? []).includes(uid),
              );
              assert.deepEqual(unexpected, []);
            },
          );

          if (entry.skippedUids) {
            const expected = entry.skippedUids;
            await t.test('lists the events it could not read, each with a reason', () => {
              const listed: unknown = first.json<Record<string, unknown>>().skippedEvents;
              assert.ok(Array.isArray(listed), `skippedEvents in ${first.body}`);
              assert.ok(listed.length <= SKIPPED_EVENTS_LISTED);
              const uids = listed.map((item: unknown) => {
                const { uid, summary, reason } = (item ?? {}) as Record<string, unknown>;
                assert.equal(typeof uid, 'string', JSON.stringify(item));
                assert.equal(typeof summary, 'string', JSON.stringify(item));
                assert.ok(typeof reason === 'string' && reason.length > 0, JSON.stringify(item));
                return uid;
              });
              for (const uid of expected)
                assert.ok(uids.includes(uid), `${uid} in ${JSON.stringify(listed)}`);
            });
          }

          for (const check of entry.checks ?? []) {
            const name = `"${check.title}" in ${check.from}..${check.to}: first at ${check.start}${check.count === undefined ? '' : `, ${check.count} in all`}`;
            await t.test(name, async () => {
              const found = (await eventsIn(app, owner, check.from, check.to))
                .filter((event) => event.title === check.title)
                .sort((a, b) => a.start.localeCompare(b.start));
              const actual = {
                start: found[0]?.start,
                ...(check.end === undefined ? {} : { end: found[0]?.end }),
                ...(check.count === undefined ? {} : { count: found.length }),
              };
              const expected = {
                start: check.start,
                ...(check.end === undefined ? {} : { end: check.end }),
                ...(check.count === undefined ? {} : { count: check.count }),
              };
              assert.deepEqual(actual, expected);
            });
          }

          await t.test('imported again: all duplicates, and its events read the same bytes', async () => {
            assert.equal(first.statusCode, 200, 'the first import failed: nothing to compare with');
            const before = await eventsAsSent(app, owner, entry);
            const again = await importFile(app, owner, content, entry.file);
            assert.equal(again.statusCode, 200, again.body);
            const { created, skipped, skippedEvents } = first.json<ImportSummary>();
            assert.deepEqual(
              again.json(),
              importAnswer({
                skipped: skipped + created,
                duplicates: created,
                skippedEvents,
              }),
            );
            assert.deepEqual(await eventsAsSent(app, owner, entry), before);
          });
        });
      }

      // The account's export, imported by another account and back into this one: each file's ranges must read the
      // same in all three (every event in them is compared, the other files' too).
      const groupRanges = new Map(
        group.flatMap((entry) => ranges(entry).map((range) => [`${range.from}/${range.to}`, range] as const)),
      );
      const before = new Map<string, ReturnType<typeof comparable>>();
      for (const [key, { from, to }] of groupRanges) {
        before.set(key, comparable(await eventsIn(app, owner, from, to)));
      }
      const exported = await send(app, owner, 'GET', '/api/events/export.ics');
      assert.equal(exported.statusCode, 200, exported.body);
      const exportedFile = Buffer.from(exported.body);
      const copy = await berlinUser(app);
      const copied = await importFile(app, copy, exportedFile, 'time-wallet.ics');
      const back = await importFile(app, owner, exportedFile, 'time-wallet.ics');

      await t.test('its export imports into another account, and back here as duplicates only', () => {
        assert.equal(copied.statusCode, 200, copied.body);
        assert.equal(back.statusCode, 200, back.body);
        const { created, updated, duplicates } = back.json<ImportSummary>();
        assert.deepEqual(
          { created, updated, duplicates },
          { created: 0, updated: 0, duplicates: copied.json<ImportSummary>().created },
        );
      });
      for (const entry of group) {
        await t.test(`${entry.file}: its events read the same after the round trip`, async () => {
          // A range the import left empty is a check's failure, not the round trip's; all of them empty is.
          let compared = 0;
          for (const { from, to } of ranges(entry)) {
            const original = before.get(`${from}/${to}`)!;
            compared += original.length;
            assert.deepEqual(
              comparable(await eventsIn(app, copy, from, to)),
              original,
              `copy ${from}..${to}`,
            );
            assert.deepEqual(
              comparable(await eventsIn(app, owner, from, to)),
              original,
              `back ${from}..${to}`,
            );
          }
          assert.ok(compared > 0, 'the checked ranges hold events to compare');
        });
      }
    });
  }
});
