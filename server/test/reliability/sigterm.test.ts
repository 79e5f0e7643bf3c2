// SIGTERM under load, on the built API: requests the server has started handling finish with their normal answer; a
// request arriving afterwards on a busy keep-alive connection gets 503 (Fastify's return503OnClosing) and that
// connection is closed; idle keep-alive connections are closed; a new TCP connection is refused; exit code 0 within
// 10 s. (server.test.ts checks the same signal handling on the TypeScript source with one request in flight.)
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { RawConnection, type RawResponse } from './raw-http.js';
import { calendarOf, ensureBuilt, icsUpload, signUpOn, startApi, waitFor, newAccount } from './support.js';
import { importAnswer } from '../helpers.js';

const EXIT_BOUND_MS = 10_000;
const REGISTRATIONS = 6;
const IMPORTS = 2;
const EVENTS_PER_IMPORT = 1500;

interface Sent {
  id: string;
  label: string;
  expected: number;
  connection: RawConnection;
  answer: Promise<RawResponse>;
  answered?: RawResponse;
}

before(ensureBuilt);

test(
  'SIGTERM under load: in-flight requests finish, later ones get 503 or a refused connection, exit 0 within 10 s',
  { timeout: 180_000 },
  async (t) => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'time-wallet-sigterm-'));
    const connections: RawConnection[] = [];
    after(() => rm(dataDir, { recursive: true, force: true }));
    // Info level: the log's "incoming request" lines tell when the server has taken each request in hand.
    const api = await startApi({ DATA_DIR: dataDir, LOG_LEVEL: 'info' }, 60_000);
    after(async () => {
      for (const connection of connections) connection.close();
      await api.kill();
    });
    const { port } = api;
    const user = await signUpOn(api.url, 'sigterm');
    const auth = { authorization: `Bearer ${user.token}`, 'x-time-zone': 'UTC' };

    async function warmConnection(): Promise<RawConnection> {
      const connection = await RawConnection.open(port);
      connections.push(connection);
      // One answered request proves the server accepted the connection and keeps it alive.
      assert.equal((await connection.send('GET', '/api/health')).status, 200);
      return connection;
    }

    const sent: Sent[] = [];
    function send(
      connection: RawConnection,
      label: string,
      expected: number,
      method: string,
      url: string,
      options: { headers?: Record<string, string>; body?: string | Buffer } = {},
    ) {
      const id = `sigterm-${sent.length}-${label}`;
      const entry: Sent = {
        id,
        label,
        expected,
        connection,
        answer: connection.send(method, url, {
          ...options,
          headers: { 'x-request-id': id, ...options.headers },
        }),
      };
      void entry.answer.then(
        (response) => (entry.answered = response),
        () => undefined,
      );
      sent.push(entry);
      return entry;
    }

    // Registrations hash at the production scrypt cost, imports parse 1500 events in a worker and write them: both are
    // still running when the signal comes. Reads of every kind go alongside.
    const idle = await warmConnection();
    const slow: RawConnection[] = [];
    for (let index = 0; index < REGISTRATIONS + IMPORTS + 4; index += 1) slow.push(await warmConnection());
    for (let index = 0; index < REGISTRATIONS; index += 1) {
      send(slow[index]!, 'register', 201, 'POST', '/api/auth/register/user', {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(newAccount('term')),
      });
    }
    for (let index = 0; index < IMPORTS; index += 1) {
      const upload = icsUpload(calendarOf(`import${index}`, EVENTS_PER_IMPORT));
      send(slow[REGISTRATIONS + index]!, 'import', 200, 'POST', '/api/events/import', {
        headers: { ...auth, 'content-type': upload.contentType },
        body: upload.body,
      });
    }
    const readers = slow.slice(REGISTRATIONS + IMPORTS);
    const reads = [
      '/api/tasks/today',
      '/api/tasks?date=2026-03-11',
      '/api/aggregation/analytics/weekly?date=2026-03-11',
      '/api/events?from=2026-03-01&to=2026-03-08',
    ];
    for (const [index, url] of reads.entries())
      send(readers[index]!, 'read', 200, 'GET', url, { headers: auth });

    await waitFor(
      () => sent.every((entry) => api.output().includes(`"reqId":"${entry.id}"`)),
      60_000,
      'the server to log every request as incoming',
    );
    const inFlight = sent.filter((entry) => !entry.answered);
    const signalledAt = Date.now();
    api.child.kill('SIGTERM');
    await waitFor(() => api.output().includes('shutting down'), 5_000, 'the shutdown log line');
    // Closing starts right after that line; give the listener a moment to close.
    await new Promise((resolve) => setTimeout(resolve, 100));

    // A request written after the signal on a keep-alive connection that is still busy with an earlier one.
    // The last requests sent (the imports, then the last registrations in the hashing queue) are the ones that stay busy
    // longest; an idle connection could be closed by the server just as the request is written.
    const busy = [...sent].reverse().find((entry) => !entry.answered && !entry.connection.isClosed);
    assert.ok(busy, 'some request is still in flight after the signal');
    const late = busy.connection.send('GET', '/api/tasks/today', {
      headers: { ...auth, 'x-request-id': 'late' },
    });

    // A new TCP connection after the signal.
    const refused = await RawConnection.open(port).then(
      (connection) => {
        connections.push(connection);
        return 'accepted';
      },
      (error: NodeJS.ErrnoException) => error.code,
    );

    const answers = await Promise.all(sent.map((entry) => entry.answer));
    const lateAnswer = await late;
    await busy.connection.closed;
    await idle.closed;
    const { code } = await api.exited;
    const exitedAfterMs = Date.now() - signalledAt;

    for (const [index, entry] of sent.entries()) {
      assert.equal(answers[index]!.status, entry.expected, `${entry.label}: ${answers[index]!.body}`);
    }
    for (const entry of sent.filter((request) => request.label === 'import')) {
      assert.deepEqual(JSON.parse(entry.answered!.body), importAnswer({ created: EVENTS_PER_IMPORT }));
    }
    assert.ok(
      answers.every((answer) => answer.status < 500),
      'no request in flight got a 5xx',
    );
    assert.equal(lateAnswer.status, 503, 'a request after the signal on a busy keep-alive connection');
    assert.equal(lateAnswer.headers.connection, 'close');
    assert.equal(refused, 'ECONNREFUSED', 'a new connection after the signal');
    assert.equal(code, 0);
    assert.ok(exitedAfterMs < EXIT_BOUND_MS, `exited ${exitedAfterMs} ms after SIGTERM`);
    assert.ok(inFlight.length >= 3, `only ${inFlight.length} requests were in flight at the signal`);

    const summary =
      `SIGTERM: ${sent.length} requests (${inFlight.length} in flight at the signal) answered normally, ` +
      `late request on a busy keep-alive connection 503 + close, idle connection closed, new connection ` +
      `${refused}, exit ${code} after ${exitedAfterMs} ms`;
    console.log(summary);
    t.diagnostic(summary);
  },
);
