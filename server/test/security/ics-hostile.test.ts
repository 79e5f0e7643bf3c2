import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import {
  assertJsonMessage,
  buildSecurityApp,
  calendar,
  multipart,
  report,
  seedActor,
  vevent,
} from './support.js';
import { importAnswer } from '../helpers.js';

const { app } = await buildSecurityApp();
const actor = await seedActor(app, 'icsUser', { importEvent: false });

// A local server that counts every request: a URL in the file must never be fetched.
const hits: string[] = [];
const server = createServer((request, response) => {
  hits.push(request.url ?? '');
  response.end('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const outcomes = { rejected: 0, imported: 0 };
after(() =>
  report(
    `hostile .ics: ${outcomes.rejected + outcomes.imported} uploads, ${outcomes.rejected} refused with 4xx, ${outcomes.imported} imported sanely, 0 5xx, ${hits.length} outbound fetches`,
  ),
);

async function upload(content: string | Buffer) {
  const body = multipart([{ name: 'file', filename: 'hostile.ics', content }]);
  return app.inject({
    method: 'POST',
    url: '/api/events/import',
    headers: { ...actor.headers, 'content-type': body.contentType },
    payload: body.payload,
  });
}

/** A 4xx with a JSON message, or a 200 import whose counts add up; never a 5xx; the API still answers after it. */
async function assertHandled(
  name: string,
  content: string | Buffer,
  expect: 'refused' | 'imported' | 'either',
) {
  const response = await upload(content);
  assert.ok(response.statusCode < 500, `${name}: ${response.statusCode} ${response.body}`);
  if (response.statusCode >= 400) {
    assert.notEqual(expect, 'imported', `${name}: ${response.body}`);
    assert.ok(response.statusCode < 500);
    assertJsonMessage(response, name);
    outcomes.rejected += 1;
  } else {
    assert.notEqual(expect, 'refused', `${name}: ${response.body}`);
    assert.equal(response.statusCode, 200, name);
    const { skippedEvents, importedOnce, ...counts } = response.json() as {
      created: number;
      updated: number;
      skipped: number;
      duplicates: number;
      skippedEvents: unknown;
      importedOnce: unknown;
    };
    assert.deepEqual(Object.keys(counts).sort(), ['created', 'duplicates', 'skipped', 'updated'], name);
    for (const count of Object.values(counts)) assert.ok(Number.isInteger(count) && count >= 0, name);
    // An import only copies: it never changes an event, and the duplicates it leaves out are among the skipped.
    assert.equal(counts.updated, 0, name);
    assert.ok(counts.duplicates <= counts.skipped, name);
    // The events it could not read, each named with its reason, at most 20 of them and never more than it skipped.
    assert.ok(Array.isArray(skippedEvents) && skippedEvents.length <= Math.min(20, counts.skipped), name);
    // The events imported once for a repeat rule that cannot be used: among the created, at most 20 named.
    assert.ok(Array.isArray(importedOnce) && importedOnce.length <= Math.min(20, counts.created), name);
    for (const skipped of [...skippedEvents, ...importedOnce]) {
      const { uid, summary, reason, ...rest } = skipped as Record<string, unknown>;
      assert.deepEqual(rest, {}, name);
      assert.ok(typeof uid === 'string' && uid.length <= 200, name);
      assert.ok(typeof summary === 'string' && summary.length <= 200, name);
      assert.ok(typeof reason === 'string' && reason.length > 0, name);
    }
    outcomes.imported += 1;
  }
  const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: actor.headers });
  assert.equal(me.statusCode, 200, `${name}: the API stopped answering`);
  return response;
}

async function eventsOn(from: string, to: string) {
  const response = await app.inject({
    method: 'GET',
    url: `/api/events?from=${from}&to=${to}`,
    headers: actor.headers,
  });
  return response.json() as Array<{ title: string; start: string }>;
}

const times = 'DTSTART:20260311T100000Z\r\nDTEND:20260311T110000Z';

describe('hostile .ics uploads', () => {
  test('a file over the 1 MiB limit is refused with 413', async () => {
    const response = await assertHandled(
      'oversized',
      calendar(vevent('big@example.com', `SUMMARY:${'A'.repeat(1024 * 1024)}\r\n${times}`)),
      'refused',
    );
    assert.equal(response.statusCode, 413);
  });

  test('tens of thousands of VEVENTs are read within the limits', async () => {
    const bare = Array.from({ length: 38_000 }, () => 'BEGIN:VEVENT\r\nEND:VEVENT').join('\r\n');
    const empty = await assertHandled('38000 empty VEVENTs', calendar(bare), 'either');
    if (empty.statusCode === 200) assert.equal(empty.json().created, 0);
    const same = Array.from({ length: 16_500 }, () => `BEGIN:VEVENT\r\nUID:x\r\n${times}\r\nEND:VEVENT`).join(
      '\r\n',
    );
    const repeated = await assertHandled('16500 copies of one event', calendar(same), 'either');
    if (repeated.statusCode === 200) assert.ok(repeated.json().created <= 1, repeated.body);
  });

  test('an endless sub-daily RRULE is never a series: its event is imported once, saying a series repeats at most daily', async () => {
    const response = await assertHandled(
      'endless secondly rule',
      calendar(vevent('forever@example.com', `SUMMARY:Tick\r\n${times}\r\nRRULE:FREQ=SECONDLY;INTERVAL=1`)),
      'imported',
    );
    assert.equal(response.json().created, 1);
    assert.deepEqual(
      response.json().importedOnce.map(({ uid, reason }: { uid: string; reason: string }) => [uid, reason]),
      [
        [
          'forever@example.com',
          'A series repeats at most daily: FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY',
        ],
      ],
    );
  });

  test('bad TZIDs: a path, a URL, a huge one and a VTIMEZONE with absurd offsets', async () => {
    const zone = (tzid: string) =>
      `DTSTART;TZID=${tzid}:20260313T100000\r\nDTEND;TZID=${tzid}:20260313T110000`;
    await assertHandled(
      'bad TZIDs',
      calendar(
        [
          'BEGIN:VTIMEZONE\r\nTZID:Absurd\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:+9999\r\nTZOFFSETTO:-9999\r\nEND:STANDARD\r\nEND:VTIMEZONE',
          vevent('path@example.com', `SUMMARY:Path\r\n${zone('../../../../etc/passwd')}`),
          vevent('url@example.com', `SUMMARY:Url\r\n${zone(`"${base}/tzid"`)}`),
          vevent('huge@example.com', `SUMMARY:Huge\r\n${zone('Z'.repeat(50_000))}`),
          vevent('absurd@example.com', `SUMMARY:Absurd\r\n${zone('Absurd')}`),
          vevent('offset@example.com', `SUMMARY:Offset\r\n${zone('UTC+25')}`),
        ].join('\r\n'),
      ),
      'either',
    );
  });

  test('binary garbage is refused', async () => {
    const garbage = Buffer.alloc(64 * 1024);
    for (let index = 0; index < garbage.length; index += 1) garbage[index] = 1 + ((index * 7919) % 255);
    await assertHandled('binary without NUL', garbage, 'refused');
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from(calendar(vevent('png@example.com', times))),
    ]);
    await assertHandled('a PNG header before a calendar', png, 'refused');
  });

  test('markup in a SUMMARY is stored and returned verbatim, as data', async () => {
    const markup = `<script>alert(1)</script><img src=x onerror="alert(2)">&amp;`;
    const response = await assertHandled(
      'script in SUMMARY',
      calendar(
        vevent(
          'markup@example.com',
          `SUMMARY:${markup}\r\nDTSTART:20260314T100000Z\r\nDTEND:20260314T110000Z`,
        ),
      ),
      'imported',
    );
    assert.deepEqual(response.json(), importAnswer({ created: 1 }));
    const listed = await app.inject({
      method: 'GET',
      url: '/api/events?from=2026-03-14&to=2026-03-15',
      headers: actor.headers,
    });
    assert.match(String(listed.headers['content-type']), /^application\/json/);
    assert.equal(listed.headers['x-content-type-options'], 'nosniff');
    assert.deepEqual(
      (listed.json() as Array<{ title: string }>).map((event) => event.title),
      [markup],
    );
    const exported = await app.inject({
      method: 'GET',
      url: '/api/events/export.ics',
      headers: actor.headers,
    });
    assert.match(String(exported.headers['content-type']), /^text\/calendar/);
    const unfolded = exported.body.replace(/\r\n[ \t]/g, '');
    const summary = unfolded.split('\r\n').find((line) => line.includes('<script>'));
    // iCalendar TEXT escapes ; , and backslash with a backslash: the format's own escaping, no HTML escaping on top.
    assert.equal(summary?.replace(/\\([;,\\])/g, '$1'), `SUMMARY:${markup}`);
    assert.doesNotMatch(unfolded, /&lt;|&gt;|&quot;/);
  });

  test('URLs in ATTACH, ATTACHMENT, TZURL, URL and IMAGE are never fetched', async () => {
    const response = await assertHandled(
      'URLs',
      calendar(
        [
          `BEGIN:VTIMEZONE\r\nTZID:Remote\r\nTZURL:${base}/tzurl\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\nEND:VTIMEZONE`,
          vevent(
            'links@example.com',
            [
              'SUMMARY:Linked',
              'DTSTART;TZID=Remote:20260315T100000',
              'DTEND;TZID=Remote:20260315T110000',
              `ATTACH:${base}/attach`,
              `ATTACH;FMTTYPE=text/calendar;VALUE=URI:${base}/attach-uri`,
              `ATTACHMENT:${base}/attachment`,
              `URL:${base}/url`,
              `IMAGE;VALUE=URI:${base}/image`,
              `CONFERENCE;VALUE=URI:${base}/conference`,
              `X-ALT-DESC;FMTTYPE=text/html:<img src="${base}/html">`,
              'BEGIN:VALARM',
              'ACTION:AUDIO',
              'TRIGGER:-PT5M',
              `ATTACH:${base}/alarm`,
              'END:VALARM',
            ].join('\r\n'),
          ),
        ].join('\r\n'),
      ),
      'imported',
    );
    assert.deepEqual(response.json(), importAnswer({ created: 1 }));
    const [event] = await eventsOn('2026-03-15', '2026-03-16');
    assert.deepEqual(event && { title: event.title, start: event.start }, {
      title: 'Linked',
      start: '2026-03-15T09:00:00.000Z',
    });
    await app.inject({ method: 'GET', url: '/api/events/export.ics', headers: actor.headers });
    // Give any stray request time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(hits, []);
  });

  test('the counting server does count (the zero above is not a broken probe)', async () => {
    const before = hits.length;
    await fetch(`${base}/probe`);
    assert.equal(hits.length, before + 1);
    hits.pop();
  });
});
