import assert from 'node:assert/strict';
import { request as httpRequest, type ClientRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, importAnswer, signUp, send } from '../helpers.js';

const NOW = Date.parse('2026-03-11T15:00:00Z');
const BOUNDARY = '----time-wallet-queue-test';

const calendar = (events: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN', ...events, 'END:VCALENDAR', ''].join('\r\n');
const vevent = (uid: string, rule?: string, tzid?: string) =>
  [
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20260301T000000Z',
    tzid ? `DTSTART;TZID=${tzid}:20260311T100000` : 'DTSTART:20260311T100000Z',
    tzid ? `DTEND;TZID=${tzid}:20260311T100500` : 'DTEND:20260311T100500Z',
    ...(rule ? [`RRULE:${rule}`] : []),
    'END:VEVENT',
  ].join('\r\n');

// A series keeps the wall clock of an IANA zone, so one in a VTIMEZONE of the file's own is matched against every
// zone the runtime knows (a few milliseconds each): 1500 of them, each in a zone at an offset no real zone has, hold
// the worker for longer than the test needs it busy, and at most for the 5 s limit.
const SLOW = calendar(
  Array.from({ length: 1500 }, (_, index) =>
    [
      `BEGIN:VTIMEZONE\r\nTZID:Odd ${index}\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000`,
      `TZOFFSETFROM:+0${(index % 9) + 1}17\r\nTZOFFSETTO:+0${(index % 9) + 1}17\r\nEND:STANDARD\r\nEND:VTIMEZONE`,
      vevent(`slow-${index}@example.com`, 'FREQ=WEEKLY', `Odd ${index}`),
    ].join('\r\n'),
  ),
);
const QUICK = calendar([vevent('quick@example.com')]);

function multipart(content: string) {
  return Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="calendar.ics"\r\n` +
      `Content-Type: text/calendar\r\n\r\n${content}\r\n--${BOUNDARY}--\r\n`,
  );
}

/** An upload over a real connection, which the test can cut like a client closing its tab. */
function uploadOverHttp(
  app: FastifyInstance,
  headers: Record<string, string>,
  content: string,
): ClientRequest {
  const body = multipart(content);
  const request = httpRequest({
    host: '127.0.0.1',
    port: (app.server.address() as AddressInfo).port,
    method: 'POST',
    path: '/api/events/import',
    headers: {
      ...headers,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      'content-length': String(body.length),
    },
  });
  // The test cuts the connection itself; the error that follows is expected.
  request.on('error', () => undefined);
  request.end(body);
  return request;
}

/** Waits for a state of the pool; the test fails on its own time-out if the state never comes. */
async function until(condition: () => boolean) {
  while (!condition()) await sleep(10);
}

describe('.ics imports and their clients', () => {
  test('a client that disconnects frees its place in the queue, and its running parse frees its worker', async () => {
    const { app } = await buildTestApp({ now: NOW });
    const { headers } = await signUp(app);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const pool = app.icsParsePool;

    const slow = uploadOverHttp(app, headers, SLOW);
    await until(() => pool.counts().running === 1);
    // The same account's second file waits for the first, even though a second worker is free.
    const queued = uploadOverHttp(app, headers, QUICK);
    await until(() => pool.counts().queued === 1);
    assert.equal(pool.counts().running, 1);

    queued.destroy();
    await until(() => pool.counts().queued === 0);
    slow.destroy();
    await until(() => pool.counts().running === 0);
    assert.deepEqual(pool.counts(), { running: 0, queued: 0, started: 1, timedOut: 0, cancelled: 1 });

    // Nothing of either upload was stored, and the account imports again at once.
    const listed = await send(app, headers, 'GET', '/api/events?from=2026-03-11&to=2026-03-12');
    assert.deepEqual(listed.json(), []);
    const again = await app.inject({
      method: 'POST',
      url: '/api/events/import',
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: multipart(QUICK),
    });
    assert.deepEqual(again.json(), importAnswer({ created: 1 }));
    assert.equal(pool.counts().started, 2);
  });
});
