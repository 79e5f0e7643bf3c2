// Reminders exactly once on three built API processes sharing one PostgreSQL database (and one pg-boss queue): 200
// reminders fall due over about 15 seconds of real time, and a fake push service (test/support/push-service.ts)
// counts what arrives, each push opened with its browser's keys. Mid-run, one instance is killed with SIGKILL while it
// is delivering: a TCP pass-through in front of the push service, which tells the instances' connections apart by
// their /proc socket inodes, holds every new push connection of that instance (never forwarding a byte of it), and the
// instance is killed once it waits in at least one of them (so it dies holding a claimed row with a live lease) and
// every push it got through to the service before has its row marked sent. Then: all 200 arrive exactly once at the
// push service, the held ones only after their lease, from another instance (claimed twice); none is lost; the
// reminder of an event deleted before it fell due never arrives.
//
// Where exactly-once ends (docs/product.md, "Reminders"): a push the service accepted whose row the instance had not
// yet marked sent when it died is sent again after its lease. This test does not kill in that window, by design;
// test/routes/reminders.test.ts puts a delivery in it and checks that the copy carries the same Topic and tag.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import webpush from 'web-push';
import { createDatabase, migrateToLatest } from '../../src/db/database.js';
import { newId } from '../../src/lib/ids.js';
import { REMINDER_LEASE_MS, topicOf } from '../../src/services/reminders.js';
import {
  browserSubscription,
  decryptPush,
  startPushService,
  type BrowserSubscription,
  type ReceivedPush,
} from '../support/push-service.js';
import { call, ensureBuilt, signUpOn, startApi, type RunningApi } from './support.js';

const databaseUrl = process.env.TEST_DATABASE_URL;
const skip = databaseUrl ? false : 'needs TEST_DATABASE_URL (CI sets it)';

const PEOPLE = 2;
/** Reminders per person (each registration costs two password hashes at the production cost). */
const EACH = 100;
const TOTAL = PEOPLE * EACH;
const MINUTE = 60_000;
/** The first reminder falls due this long after seeding, then one every SPACING_MS. */
const FIRST_DUE_MS = 3_000;
const SPACING_MS = 75;
const LEAD_MS = 10 * MINUTE;

// Must match SCHEMA_LOCK in ../helpers.ts (see two-instances.test.ts).
const SCHEMA_LOCK = 0x7717_2026;

async function lockSession(mode: 'shared' | 'exclusive'): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(
    mode === 'shared' ? 'select pg_advisory_lock_shared($1)' : 'select pg_advisory_lock($1)',
    [SCHEMA_LOCK],
  );
  return client;
}

/** The inode of the IPv4 TCP socket whose local port is `port` and remote port `remotePort` (/proc/net/tcp). */
function socketInode(port: number, remotePort: number): string | undefined {
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10) continue;
    const local = parseInt(fields[1].split(':')[1], 16);
    const remote = parseInt(fields[2].split(':')[1], 16);
    if (local === port && remote === remotePort) return fields[9];
  }
  return undefined;
}

/** Whether process `pid` holds the socket `inode` open. */
function holdsSocket(pid: number, inode: string): boolean {
  const dir = `/proc/${pid}/fd`;
  try {
    return readdirSync(dir).some((fd) => {
      try {
        return readlinkSync(`${dir}/${fd}`) === `socket:[${inode}]`;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/** One connection to the pass-through: whose it was, and what became of it. */
interface PassedConnection {
  /** The pid of the instance that opened it, or undefined when it could not be read (then treated as the doomed's). */
  owner: number | undefined;
  /** Held: accepted but never forwarded a byte. */
  held: boolean;
  open: boolean;
  /** The local port of the forwarded connection to the service (what the service sees as its remotePort). */
  upstreamPort?: number;
}

/**
 * A TCP pass-through to `target` on the same loopback host (the push certificate names the address, not the port). It
 * notes which of `pids()` opened each connection (through /proc, at accept). Once `hold(pid)` is called, every new
 * connection that is not positively another instance's is held: accepted, and nothing forwarded either way, so its
 * push never reaches the service and its process waits inside the delivery; a held socket is destroyed when its client
 * closes it (or dies).
 */
async function startPassThrough(host: string, target: number, pids: () => number[]) {
  let holding: number | undefined;
  const connections: PassedConnection[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    const inode = socketInode(client.remotePort!, port);
    const owner = inode === undefined ? undefined : pids().find((pid) => holdsSocket(pid, inode));
    const held = holding !== undefined && (owner === undefined || owner === holding);
    const connection: PassedConnection = { owner, held, open: true };
    connections.push(connection);
    client.on('close', () => {
      sockets.delete(client);
      connection.open = false;
    });
    client.on('error', () => client.destroy());
    // Read and dropped, so that its client closing it (a timeout, or its death) is seen.
    if (held) return void client.resume();
    const upstream = net.connect(target, host, () => (connection.upstreamPort = upstream.localPort));
    sockets.add(upstream);
    upstream.on('close', () => {
      sockets.delete(upstream);
      // Unpiped from a closed upstream, the client is no longer read: read on, so that its end is seen and it closes.
      client.resume();
    });
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  after(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return {
    port,
    connections,
    /** Holds the new connections of `pid` from now on (undefined: of none). */
    hold(pid: number | undefined) {
      holding = pid;
    },
  };
}

before(async () => {
  if (!skip) await ensureBuilt();
});

test(
  `three instances deliver ${TOTAL} reminders exactly once through a kill -9, and never a deleted event's`,
  { skip, timeout: 120_000 },
  async () => {
    const started = Date.now();
    const service = await startPushService();
    const serviceUrl = new URL(service.origin);
    const instances: RunningApi[] = [];
    const passThrough = await startPassThrough(serviceUrl.hostname, Number(serviceUrl.port), () =>
      instances.map((instance) => instance.pid),
    );
    /** A browser's endpoint, reached through the pass-through. */
    const endpointOf = () => {
      const endpoint = new URL(service.endpoint());
      endpoint.port = String(passThrough.port);
      return endpoint.toString();
    };
    const schema = `rem_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const dataDirs: string[] = [];
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    after(async () => {
      for (const instance of instances) await instance.kill();
      await admin.end();
      const lock = await lockSession('exclusive');
      try {
        await lock.query(`drop schema if exists ${schema} cascade`);
      } finally {
        await lock.end();
      }
      for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
    });
    await admin.query(`create schema ${schema}`);
    const url = new URL(databaseUrl!);
    url.searchParams.set('options', `-c search_path=${schema}`);
    const vapid = webpush.generateVAPIDKeys();
    const lock = await lockSession('shared');
    try {
      const handle = createDatabase({ kind: 'postgres', url: databaseUrl!, schema });
      await migrateToLatest(handle.db, schema);
      await handle.db.destroy();
      const env = async () => {
        const dataDir = await mkdtemp(path.join(tmpdir(), 'time-wallet-reminders-'));
        dataDirs.push(dataDir);
        return {
          DATA_DIR: dataDir,
          DATABASE_URL: url.toString(),
          JWT_SECRET: 'reliability-reminders-shared-secret-0123456789abcdef',
          VAPID_PUBLIC_KEY: vapid.publicKey,
          VAPID_PRIVATE_KEY: vapid.privateKey,
          VAPID_SUBJECT: 'mailto:reliability@example.com',
          JOBS_TICK_SECONDS: '1',
          // The fake push service is on a loopback address, with the certificate this process trusts.
          SUBSCRIPTIONS_ALLOW_PRIVATE_HOSTS: 'true',
          NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? '',
        };
      };
      instances.push(...(await Promise.all([0, 1, 2].map(async () => startApi(await env(), 60_000)))));
    } finally {
      await lock.end();
    }
    const [first, doomed, last] = instances;
    const startedUp = Date.now() - started;

    // Two people, each with one browser; 100 events each, seeded straight into the tables so their starts are exact
    // to the millisecond, reminded 10 minutes before (the default).
    const browsers = new Map<string, { browser: BrowserSubscription; subscriptionId: string }>();
    const people: Array<{ id: string; token: string }> = [];
    for (let index = 0; index < PEOPLE; index += 1) {
      const account = await signUpOn(instances[index].url, 'rem');
      const me = await call<{ user: { _id: string } }>(last.url, 'GET', '/users/me', {
        token: account.token,
      });
      assert.equal(me.status, 200, JSON.stringify(me.body));
      people.push({ id: me.body.user._id, token: account.token });
    }
    for (const person of people) {
      const browser = browserSubscription(endpointOf());
      const subscriptionId = newId();
      browsers.set(new URL(browser.json.endpoint).pathname, { browser, subscriptionId });
      await admin.query(
        `insert into ${schema}.push_subscriptions
           (id, user_id, endpoint, p256dh, auth, device, created_at, updated_at)
         values ($1, $2, $3, $4, $5, 'Reliability browser', $6, $6)`,
        [
          subscriptionId,
          person.id,
          browser.json.endpoint,
          browser.json.keys.p256dh,
          browser.json.keys.auth,
          Date.now(),
        ],
      );
    }
    const seededAt = Date.now();
    const signedUp = seededAt - started;
    const expected = new Set<string>();
    for (let k = 0; k < TOTAL; k += 1) {
      const owner = people[k % PEOPLE];
      const startAt = seededAt + FIRST_DUE_MS + k * SPACING_MS + LEAD_MS;
      const title = `Reminder ${k}`;
      expected.add(title);
      await admin.query(
        `insert into ${schema}.events
           (id, user_id, title, start_at, end_at, all_day, source, calendar_id, created_at, updated_at)
         values ($1, $2, $3, $4, $5, 0, 'manual', $2, $6, $6)`,
        [newId(), owner.id, title, startAt, startAt + 30 * MINUTE, seededAt],
      );
    }
    // One more, in the middle of the run, deleted through the API before it falls due.
    const doomedStart = seededAt + FIRST_DUE_MS + (TOTAL / 2) * SPACING_MS + LEAD_MS + 10;
    const created = await call<{ _id: string }>(last.url, 'POST', '/events', {
      token: people[0].token,
      body: {
        title: 'Deleted before it fell due',
        start: new Date(doomedStart).toISOString(),
        end: new Date(doomedStart + 30 * MINUTE).toISOString(),
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));

    /**
     * What a push carried, opened with its browser's keys, and the delivery row it stands for: the row's key is the
     * payload's tag and the instant it fell due (services/reminders.ts), on the browser's subscription.
     */
    const opened = (push: ReceivedPush) => {
      const known = browsers.get(push.path);
      assert.ok(known, `a push to an unknown endpoint ${push.path}`);
      const payload = JSON.parse(decryptPush(push.body, known.browser)) as { title: string; tag: string };
      assert.equal(push.headers.topic, topicOf(payload.tag), "a push without its reminder's Topic");
      return { ...payload, row: `${known.subscriptionId} ${payload.tag}` };
    };
    const rowOf = (row: { subscription_id: string; reminder_key: string }) =>
      `${row.subscription_id} ${row.reminder_key.slice(0, row.reminder_key.lastIndexOf('@'))}`;

    // Let the scans plan the rows (they do within a tick), then delete the event through another instance.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const deleted = await call(first.url, 'DELETE', `/events/${created.body._id}`, {
      token: people[0].token,
    });
    assert.equal(deleted.status, 204, JSON.stringify(deleted.body));
    const planned = await admin.query<{ count: string }>(
      `select count(*) from ${schema}.reminder_deliveries where kind = 'event-reminder'`,
    );
    assert.equal(Number(planned.rows[0].count), TOTAL + 1, 'every reminder planned before it falls due');

    // Mid-run, once a tenth of the reminders have fallen due, every new push connection of one instance is held. It
    // is killed once (a) it waits in at least one of them, holding that row's lease, and (b) each push it got through
    // to the service before has its row marked sent: so it dies mid-delivery, but never between a push accepted and
    // its row marked sent (the window the second test below is about).
    const armAt = seededAt + FIRST_DUE_MS + (TOTAL / 10) * SPACING_MS;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, armAt - Date.now())));
    passThrough.hold(doomed.pid);
    const armed = Date.now();
    const doomedOwns = (connection: PassedConnection) =>
      connection.owner === undefined || connection.owner === doomed.pid;
    let heldAtKill = 0;
    let throughBeforeHold = 0;
    for (;;) {
      // Read before the database: whatever connects meanwhile is held, so what is checked below stays all of it.
      // Held and still waiting: only those positively its own count, as each is a row it claimed.
      const held = passThrough.connections.filter(
        (each) => each.held && each.open && each.owner === doomed.pid,
      );
      const forwarded = passThrough.connections.filter((each) => !each.held && doomedOwns(each));
      const pushes = service.received.filter((push) =>
        forwarded.some((each) => each.upstreamPort === push.remotePort),
      );
      const through = pushes.map(opened);
      // Each push is a connection of its own (lib/outbound: agent false): one still open and without its push at the
      // service may yet deliver it.
      const inFlight = forwarded.filter(
        (each) => each.open && !pushes.some((push) => push.remotePort === each.upstreamPort),
      );
      if (held.length > 0 && inFlight.length === 0) {
        const unsent = await admin.query<{ subscription_id: string; reminder_key: string }>(
          `select subscription_id, reminder_key from ${schema}.reminder_deliveries where state <> 'sent'`,
        );
        const pending = new Set(unsent.rows.map(rowOf));
        if (through.every((push) => !pending.has(push.row))) {
          heldAtKill = held.length;
          throughBeforeHold = through.length;
          break;
        }
      }
      assert.ok(
        Date.now() - armed < REMINDER_LEASE_MS / 2,
        `no moment to kill: ${held.length} connections held, ${inFlight.length} forwarded still under way, ` +
          `${through.length} pushes through`,
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    doomed.child.kill('SIGKILL');
    const killedAt = Date.now();
    const receivedAtKill = service.received.length;
    assert.equal((await doomed.exited).signal, 'SIGKILL');
    passThrough.hold(undefined);
    // Its rows are among those leased now (with the other two's deliveries under way): those arrive only after the
    // lease, from another instance; the others within it.
    const leased = await admin.query<{ subscription_id: string; reminder_key: string; lease_until: string }>(
      `select subscription_id, reminder_key, lease_until from ${schema}.reminder_deliveries
        where state = 'due' and lease_until > $1`,
      [Date.now()],
    );
    const leaseOf = new Map(leased.rows.map((row) => [rowOf(row), Number(row.lease_until)]));

    // Every reminder arrives: those of the dead instance's live leases once the leases expire.
    const lastDue = seededAt + FIRST_DUE_MS + TOTAL * SPACING_MS;
    const deadline = Math.max(lastDue, killedAt + REMINDER_LEASE_MS) + 8_000;
    while (service.received.length < TOTAL && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const waited = Date.now() - started;
    // A few more ticks on the two left: nothing arrives again.
    await new Promise((resolve) => setTimeout(resolve, 2_500));

    const arrived = service.received.map((push) => ({ ...opened(push), at: push.at }));
    const counts = new Map<string, number>();
    for (const { title } of arrived) counts.set(title, (counts.get(title) ?? 0) + 1);
    const missing = [...expected].filter((title) => !counts.has(title));
    const twice = [...counts].filter(([, count]) => count > 1).map(([title]) => title);
    const late = arrived.filter((push) => push.at >= (leaseOf.get(push.row) ?? Infinity));
    console.log(
      `reminders: ${arrived.length} pushes for ${TOTAL} reminders; started at ${startedUp} ms, seeded at ` +
        `${signedUp} ms, killed at ${killedAt - started} ms (${killedAt - armed} ms after the hold began), ` +
        `waited until ${waited} ms; at the kill ${receivedAtKill} had arrived (${throughBeforeHold} from the ` +
        `killed instance), it held ${heldAtKill} connections, ${leased.rows.length} rows were leased, and ` +
        `${late.length} arrived after their lease`,
    );
    assert.ok(!counts.has('Deleted before it fell due'), "a deleted event's reminder was sent");
    assert.deepEqual(missing, [], 'reminders lost');
    assert.deepEqual(twice, [], 'reminders that arrived twice at the push service');
    assert.equal(arrived.length, TOTAL);
    // Each held connection was a delivery of the killed instance with a live lease: another sent it after the lease.
    assert.ok(
      late.length >= heldAtKill,
      `${heldAtKill} deliveries were held at the kill, ${late.length} arrived after their lease`,
    );
    // Claimed twice: by the killed instance, and after its lease by another.
    const attempts = await admin.query<{ subscription_id: string; reminder_key: string; attempts: number }>(
      `select subscription_id, reminder_key, attempts from ${schema}.reminder_deliveries`,
    );
    const attemptsOf = new Map(attempts.rows.map((row) => [rowOf(row), row.attempts]));
    assert.deepEqual(
      late.filter((push) => attemptsOf.get(push.row) !== 2).map((push) => push.title),
      [],
      'a reminder sent after its lease was not claimed twice',
    );
    const states = await admin.query<{ state: string; count: string }>(
      `select state, count(*) from ${schema}.reminder_deliveries group by state order by state`,
    );
    assert.deepEqual(Object.fromEntries(states.rows.map((row) => [row.state, Number(row.count)])), {
      cancelled: 1,
      sent: TOTAL,
    });
  },
);
