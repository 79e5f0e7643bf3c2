import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CalendarParseTimeoutError } from '../../src/lib/ics/worker.js';
import { createIcsParsePool, type IcsParsePoolOptions } from '../../src/plugins/app/ics-parse-pool.js';

const NOW = Date.parse('2026-03-11T15:00:00Z');
const CALENDAR = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'BEGIN:VEVENT',
  'UID:one@example.com',
  'DTSTAMP:20260301T000000Z',
  'DTSTART:20260311T100000Z',
  'DTEND:20260311T110000Z',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');
const job = { text: CALENDAR, timeZone: 'UTC', now: NOW };

function pool(options: Partial<IcsParsePoolOptions> = {}) {
  return createIcsParsePool({
    concurrency: 1,
    queueLimit: 4,
    queuedPerAccount: 2,
    timeoutMs: 60_000,
    memoryMb: 64,
    ...options,
  });
}

describe('the .ics parse pool (real worker threads)', () => {
  test('a worker past its time limit is terminated, counted, and its slot goes to the next file', async () => {
    // No worker starts, loads ical.js and answers within a millisecond: the limit is always reached.
    const slow = pool({ timeoutMs: 1 });
    await assert.rejects(
      slow.parse('A', job, new AbortController().signal),
      (error) => error instanceof CalendarParseTimeoutError,
    );
    assert.deepEqual(slow.counts(), { running: 0, queued: 0, started: 1, timedOut: 1, cancelled: 0 });
  });

  test("a running parse whose client leaves is terminated at once, with the client's reason", async () => {
    const parses = pool();
    const client = new AbortController();
    const abandoned = parses.parse('A', job, client.signal);
    assert.equal(parses.counts().running, 1);
    const gone = new Error('client closed the connection');
    client.abort(gone);
    await assert.rejects(abandoned, (error) => error === gone);
    assert.deepEqual(parses.counts(), { running: 0, queued: 0, started: 1, timedOut: 0, cancelled: 1 });
    const next = await parses.parse('B', job, new AbortController().signal);
    assert.equal(next.events.length, 1);
  });

  test('a queued parse whose client leaves never starts a worker', async () => {
    const parses = pool();
    const first = parses.parse('A', job, new AbortController().signal);
    const client = new AbortController();
    const abandoned = parses.parse('B', job, client.signal);
    assert.deepEqual(
      { running: parses.counts().running, queued: parses.counts().queued },
      { running: 1, queued: 1 },
    );
    client.abort(new Error('gone'));
    await assert.rejects(abandoned, /gone/);
    assert.equal(parses.counts().queued, 0);
    assert.equal((await first).events.length, 1);
    assert.deepEqual(parses.counts(), { running: 0, queued: 0, started: 1, timedOut: 0, cancelled: 0 });
  });

  test('closing the pool refuses new files', async () => {
    const parses = pool();
    parses.close();
    await assert.rejects(parses.parse('A', job, new AbortController().signal), /shutting down/);
    assert.equal(parses.counts().started, 0);
  });
});
