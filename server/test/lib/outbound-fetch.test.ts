import assert from 'node:assert/strict';
import { lookup } from 'node:dns/promises';
import { createServer, type IncomingHttpHeaders, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { createServer as createTlsServer } from 'node:tls';
import { deflateSync, gzipSync } from 'node:zlib';
import { refusedAddressReason } from '../../src/lib/outbound/address-guard.js';
import {
  fetchCalendar,
  normalizeSubscriptionUrl,
  OutboundError,
  type FetchCalendarOptions,
  type OutboundFailure,
} from '../../src/lib/outbound/fetch-calendar.js';

// Every server here listens on 127.0.0.1 and every fetch goes there or is refused before it connects: the suite never
// touches another address.
interface LocalServer {
  origin: string;
  port: number;
  /** TCP connections the server accepted: 0 proves a refused fetch never reached it. */
  connections: number;
  headers: IncomingHttpHeaders[];
  close: () => Promise<void>;
}

const closers: Array<() => Promise<void>> = [];
after(() => Promise.all(closers.map((close) => close())));

async function localServer(handler: RequestListener): Promise<LocalServer> {
  const server = createServer((request, response) => {
    local.headers.push(request.headers);
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const local: LocalServer = {
    origin: `http://127.0.0.1:${port}`,
    port,
    connections: 0,
    headers: [],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  closers.push(local.close);
  server.on('connection', () => (local.connections += 1));
  return local;
}

const ICS = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n';
const LOOPBACK: FetchCalendarOptions = { allowPrivateHosts: true };
const PUBLIC_ONLY: FetchCalendarOptions = { allowPrivateHosts: false };

async function failure(promise: Promise<unknown>, reason: OutboundFailure): Promise<OutboundError> {
  const error = await promise.then(
    () => assert.fail(`expected the fetch to fail with ${reason}`),
    (rejected: unknown) => rejected,
  );
  assert.ok(error instanceof OutboundError, String(error));
  assert.equal(error.reason, reason, error.message);
  return error;
}

describe('fetchCalendar', () => {
  test('returns the body with its validators and sends the calendar headers', async () => {
    const server = await localServer((_request, response) => {
      response.writeHead(200, {
        'content-type': 'text/calendar',
        etag: '"v1"',
        'last-modified': 'Wed, 11 Mar 2026 15:00:00 GMT',
      });
      response.end(ICS);
    });
    const result = await fetchCalendar(`${server.origin}/team.ics`, LOOPBACK);
    assert.deepEqual(result, {
      status: 'ok',
      body: Buffer.from(ICS),
      etag: '"v1"',
      lastModified: 'Wed, 11 Mar 2026 15:00:00 GMT',
      url: `${server.origin}/team.ics`,
    });
    const [headers] = server.headers;
    assert.equal(headers.accept, 'text/calendar, */*;q=0.5');
    assert.equal(headers['user-agent'], 'TimeWallet/1.0 (calendar subscription)');
    assert.equal(headers['accept-encoding'], 'gzip, deflate');
    assert.equal(headers.host, `127.0.0.1:${server.port}`);
    assert.equal(headers['if-none-match'], undefined);
  });

  test('sends the validators it is given and answers not-modified on 304', async () => {
    const server = await localServer((request, response) => {
      response.writeHead(request.headers['if-none-match'] === '"v1"' ? 304 : 200);
      response.end(request.headers['if-none-match'] === '"v1"' ? undefined : ICS);
    });
    const result = await fetchCalendar(`${server.origin}/team.ics`, {
      ...LOOPBACK,
      etag: '"v1"',
      lastModified: 'Wed, 11 Mar 2026 15:00:00 GMT',
    });
    assert.deepEqual(result, { status: 'not-modified' });
    assert.equal(server.headers[0]['if-none-match'], '"v1"');
    assert.equal(server.headers[0]['if-modified-since'], 'Wed, 11 Mar 2026 15:00:00 GMT');
  });

  test('a 304 to a request that had no validators is a failure, not "unchanged"', async () => {
    const server = await localServer((_request, response) => response.writeHead(304).end());
    await failure(fetchCalendar(server.origin, LOOPBACK), 'http-status');
  });

  test('an error status becomes http-status with the status in the message', async () => {
    const server = await localServer((_request, response) => response.writeHead(500).end('boom'));
    const error = await failure(fetchCalendar(server.origin, LOOPBACK), 'http-status');
    assert.equal(error.message, 'The calendar server answered 500 Internal Server Error');
    assert.equal(error.status, 500);
  });

  test('the deadline covers waiting for the answer and reading the body', async () => {
    const silent = await localServer(() => undefined);
    const error = await failure(fetchCalendar(silent.origin, { ...LOOPBACK, timeoutMs: 300 }), 'timeout');
    assert.equal(error.message, 'The calendar server did not answer within 0.3 seconds');

    const dribbling = await localServer((_request, response) => {
      response.writeHead(200);
      response.write('BEGIN:VCALENDAR\r\n');
    });
    await failure(fetchCalendar(dribbling.origin, { ...LOOPBACK, timeoutMs: 300 }), 'timeout');
  });

  test('a body over the bound is refused, whether announced, streamed or compressed', async () => {
    const ELEVEN_MB = 11 * 1024 * 1024;
    // Announces 11 MB and then sends nothing: only refusing on Content-Length ends this before the deadline.
    const announced = await localServer((_request, response) => {
      response.writeHead(200, { 'content-length': ELEVEN_MB });
      response.write('BEGIN:VCALENDAR\r\n');
    });
    const error = await failure(fetchCalendar(announced.origin, LOOPBACK), 'too-large');
    assert.equal(error.message, 'The calendar is larger than 10 MB');

    const streamed = await localServer((_request, response) => {
      response.writeHead(200);
      response.end(Buffer.alloc(ELEVEN_MB, 'x'));
    });
    await failure(fetchCalendar(streamed.origin, LOOPBACK), 'too-large');

    // About 11 KB on the wire that inflate to 11 MB.
    const bomb = gzipSync(Buffer.alloc(ELEVEN_MB, 'x'));
    assert.ok(bomb.length < 100_000);
    const gzipped = await localServer((_request, response) => {
      response.writeHead(200, { 'content-encoding': 'gzip', 'content-length': bomb.length });
      response.end(bomb);
    });
    await failure(fetchCalendar(gzipped.origin, LOOPBACK), 'too-large');
  });

  test('gzip and deflate bodies are decompressed', async () => {
    const server = await localServer((request, response) => {
      const gzip = request.url === '/gzip';
      response.writeHead(200, { 'content-encoding': gzip ? 'gzip' : 'deflate' });
      response.end(gzip ? gzipSync(ICS) : deflateSync(ICS));
    });
    for (const path of ['/gzip', '/deflate']) {
      const result = await fetchCalendar(`${server.origin}${path}`, LOOPBACK);
      assert.equal(result.status === 'ok' && result.body.toString(), ICS);
    }
  });

  test('follows up to three redirects and refuses a fourth', async () => {
    // /hop/N redirects to /hop/N-1; /hop/0 is the calendar.
    const server = await localServer((request, response) => {
      const left = Number(request.url?.split('/').pop());
      if (left === 0) response.writeHead(200).end(ICS);
      else response.writeHead(left % 2 ? 302 : 308, { location: `/hop/${left - 1}` }).end();
    });
    const result = await fetchCalendar(`${server.origin}/hop/3`, LOOPBACK);
    assert.equal(result.status === 'ok' && result.url, `${server.origin}/hop/0`);

    const error = await failure(fetchCalendar(`${server.origin}/hop/4`, LOOPBACK), 'too-many-redirects');
    assert.equal(error.message, 'The calendar address redirects more than 3 times');
  });

  test('a redirect to another scheme is refused', async () => {
    const server = await localServer((_request, response) =>
      response.writeHead(301, { location: 'ftp://127.0.0.1/team.ics' }).end(),
    );
    await failure(fetchCalendar(server.origin, LOOPBACK), 'invalid-url');
  });

  test('loopback addresses and names are refused before any connection', async () => {
    const server = await localServer((_request, response) => response.writeHead(200).end(ICS));
    const error = await failure(fetchCalendar(`${server.origin}/team.ics`, PUBLIC_ONLY), 'refused');
    assert.equal(
      error.message,
      'This address points to a loopback address; calendars must be on the public internet',
    );
    await failure(fetchCalendar(`http://localhost:${server.port}/team.ics`, PUBLIC_ONLY), 'refused');
    await failure(fetchCalendar(`webcal://localhost:${server.port}/team.ics`, PUBLIC_ONLY), 'refused');
    await failure(fetchCalendar(`http://[::1]:${server.port}/team.ics`, PUBLIC_ONLY), 'refused');
    await failure(fetchCalendar(`http://[::ffff:127.0.0.1]:${server.port}/`, PUBLIC_ONLY), 'refused');
    // The URL parser turns these spellings into 127.0.0.1 before the guard sees them.
    await failure(fetchCalendar(`http://2130706433:${server.port}/`, PUBLIC_ONLY), 'refused');
    await failure(fetchCalendar(`http://0x7f.1:${server.port}/`, PUBLIC_ONLY), 'refused');
    assert.equal(server.connections, 0);
  });

  test('a host with one private address among public ones is refused', async () => {
    const resolveHost = async () => [
      { address: '8.8.8.8', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    await failure(
      fetchCalendar('https://calendar.test/team.ics', { ...PUBLIC_ONLY, resolveHost }),
      'refused',
    );
  });

  test('a redirect from an allowed host to a loopback one is refused before connecting', async () => {
    const loopback = await localServer((_request, response) => response.writeHead(200).end(ICS));
    const redirecting = await localServer((request, response) =>
      response
        .writeHead(302, {
          location:
            request.url === '/by-name'
              ? `http://localhost:${loopback.port}/`
              : `http://127.0.0.1:${loopback.port}/`,
        })
        .end(),
    );
    // calendar.test stands in for a public host: it resolves to the first server, and only it passes the guard.
    const options: FetchCalendarOptions = {
      ...PUBLIC_ONLY,
      resolveHost: (host) =>
        host === 'calendar.test'
          ? Promise.resolve([{ address: '127.0.0.1', family: 4 }])
          : lookup(host, { all: true }),
      guard: (address, host) => (host === 'calendar.test' ? null : refusedAddressReason(address)),
    };
    await failure(fetchCalendar(`http://calendar.test:${redirecting.port}/`, options), 'refused');
    await failure(fetchCalendar(`http://calendar.test:${redirecting.port}/by-name`, options), 'refused');
    assert.equal(redirecting.connections, 2);
    assert.equal(redirecting.headers[0].host, `calendar.test:${redirecting.port}`);
    assert.equal(loopback.connections, 0);

    // With private hosts allowed the same chain is followed.
    const result = await fetchCalendar(`${redirecting.origin}/`, LOOPBACK);
    assert.equal(result.status === 'ok' && result.body.toString(), ICS);
  });

  test('webcal is fetched over TLS from the checked address, naming the original host', async () => {
    // The TLS server has no certificate: it records the name the client asks for (SNI) and ends the handshake.
    const names: string[] = [];
    const server = createTlsServer({
      SNICallback: (name, callback) => {
        names.push(name);
        callback(new Error('no certificate here'));
      },
    });
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const resolveHost = async () => [{ address: '127.0.0.1', family: 4 }];
    await failure(
      fetchCalendar(`webcal://calendar.test:${port}/team.ics`, { ...LOOPBACK, resolveHost }),
      'unreachable',
    );
    assert.deepEqual(names, ['calendar.test']);
  });

  test('a closed port is unreachable', async () => {
    const server = await localServer(() => undefined);
    await server.close();
    await failure(fetchCalendar(server.origin, LOOPBACK), 'unreachable');
  });

  test("the caller's signal cancels the fetch with its reason", async () => {
    const server = await localServer(() => undefined);
    const controller = new AbortController();
    const fetching = fetchCalendar(server.origin, { ...LOOPBACK, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('shutting down')), 50);
    await assert.rejects(fetching, { message: 'shutting down' });
  });

  test('refuses other schemes and credentials before resolving anything', async () => {
    await failure(fetchCalendar('ftp://example.com/team.ics', LOOPBACK), 'invalid-url');
    await failure(fetchCalendar('https://user:secret@example.com/team.ics', LOOPBACK), 'invalid-url');
  });
});

describe('normalizeSubscriptionUrl', () => {
  test('webcal becomes https, and the address is trimmed and normalised', () => {
    assert.equal(
      normalizeSubscriptionUrl('  webcal://Example.com/team.ics ').href,
      'https://example.com/team.ics',
    );
    assert.equal(
      normalizeSubscriptionUrl('WEBCAL://example.com/a b.ics').href,
      'https://example.com/a%20b.ics',
    );
    assert.equal(normalizeSubscriptionUrl('webcal://0x7f.1/').hostname, '127.0.0.1');
    assert.equal(normalizeSubscriptionUrl('http://example.com/x.ics').protocol, 'http:');
  });

  test('refuses other schemes, credentials, missing hosts and long addresses', () => {
    for (const input of [
      'ftp://example.com/team.ics',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'https://user:secret@example.com/team.ics',
      'https://user@example.com/team.ics',
      'https://',
      'example.com/team.ics',
      '',
      `https://example.com/${'a'.repeat(2_000)}`,
    ])
      assert.throws(
        () => normalizeSubscriptionUrl(input),
        { name: 'OutboundError', reason: 'invalid-url' },
        input,
      );
  });
});
