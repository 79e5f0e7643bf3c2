import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { OutboundError } from '../../src/lib/outbound/fetch-calendar.js';
import { postPush } from '../../src/lib/outbound/push-request.js';
import {
  MAX_DEVICES_PER_ACCOUNT,
  PushError,
  sendPush,
  subscriptionsOf,
  vapidKeysOf,
  type PushPayload,
} from '../../src/services/push.js';
import { buildTestApp, send, signUp, type SignedInUser } from '../helpers.js';
// Nothing here may connect anywhere but loopback, also when this file runs without test/run.mjs (which preloads it).
import '../support/loopback-only.mjs';
import {
  browserSubscription,
  decryptPush,
  startPushService,
  verifyVapid,
  type BrowserSubscription,
} from '../support/push-service.js';

/** An endpoint under a reserved name that never resolves: stored and listed, never sent to. */
let unresolvable = 0;
const offlineEndpoint = () => `https://push.example.invalid/send/${++unresolvable}`;

const subscribeBody = (subscription: BrowserSubscription['json'], device = 'Pixel 8, Chrome') => ({
  subscription,
  device,
});

async function subscribe(
  app: FastifyInstance,
  user: SignedInUser,
  endpoint = offlineEndpoint(),
  device?: string,
) {
  const browser = browserSubscription(endpoint);
  const response = await send(
    app,
    user.headers,
    'POST',
    '/api/push/subscriptions',
    subscribeBody(browser.json, device),
  );
  assert.equal(response.statusCode, 201, response.body);
  return { browser, device: response.json() as { id: string; device: string; createdAt: string } };
}

/** An app that sends: jobs on with a one-second tick (so a retry comes after about a second), loopback allowed. */
async function sendingApp() {
  const { app } = await buildTestApp({
    config: {
      jobs: { enabled: true, tickSeconds: 1 },
      subscriptions: { refreshMinutes: 60, allowPrivateHosts: true, fetchTimeoutMs: 5000 },
    },
  });
  return app;
}

describe('notification settings', async () => {
  const { app } = await buildTestApp();

  it('answers the defaults until changed', async () => {
    const user = await signUp(app);
    const response = await send(app, user.headers, 'GET', '/api/users/me/notifications');
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), {
      eventReminderMinutes: 10,
      taskStart: true,
      timerAlerts: true,
      planDayAt: null,
    });
  });

  it('changes any subset and answers the whole settings, kept per person', async () => {
    const user = await signUp(app);
    const other = await signUp(app);
    let response = await send(app, user.headers, 'PATCH', '/api/users/me/notifications', {
      eventReminderMinutes: 30,
      planDayAt: '07:45',
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), {
      eventReminderMinutes: 30,
      taskStart: true,
      timerAlerts: true,
      planDayAt: '07:45',
    });
    response = await send(app, user.headers, 'PATCH', '/api/users/me/notifications', {
      eventReminderMinutes: null,
      taskStart: false,
    });
    assert.deepEqual(response.json(), {
      eventReminderMinutes: null,
      taskStart: false,
      timerAlerts: true,
      planDayAt: '07:45',
    });
    response = await send(app, user.headers, 'PATCH', '/api/users/me/notifications', {
      timerAlerts: false,
      planDayAt: null,
      eventReminderMinutes: 0,
    });
    const expected = { eventReminderMinutes: 0, taskStart: false, timerAlerts: false, planDayAt: null };
    assert.deepEqual(response.json(), expected);
    assert.deepEqual((await send(app, user.headers, 'GET', '/api/users/me/notifications')).json(), expected);
    // An empty change answers what is stored.
    assert.deepEqual(
      (await send(app, user.headers, 'PATCH', '/api/users/me/notifications', {})).json(),
      expected,
    );
    const untouched = await send(app, other.headers, 'GET', '/api/users/me/notifications');
    assert.equal(untouched.json().eventReminderMinutes, 10);
  });

  it('refuses bad values with a 400 naming the field, and changes nothing', async () => {
    const user = await signUp(app);
    const cases: Array<[object, string]> = [
      [{ eventReminderMinutes: 1441 }, 'eventReminderMinutes'],
      [{ eventReminderMinutes: -1 }, 'eventReminderMinutes'],
      [{ eventReminderMinutes: 2.5 }, 'eventReminderMinutes'],
      [{ eventReminderMinutes: '10' }, 'eventReminderMinutes'],
      [{ taskStart: 'yes' }, 'taskStart'],
      [{ timerAlerts: 1 }, 'timerAlerts'],
      [{ planDayAt: '24:00' }, 'planDayAt'],
      [{ planDayAt: '9:30' }, 'planDayAt'],
      [{ planDayAt: '09:60' }, 'planDayAt'],
      [{ planDayAt: 930 }, 'planDayAt'],
      [{ quietHours: true }, 'quietHours'],
    ];
    for (const [body, field] of cases) {
      const response = await send(app, user.headers, 'PATCH', '/api/users/me/notifications', {
        taskStart: false,
        ...body,
      });
      assert.equal(response.statusCode, 400, JSON.stringify(body));
      const answer = response.json() as {
        message: string;
        errors?: Array<{ field: string; message: string }>;
      };
      assert.equal(typeof answer.message, 'string');
      const error = answer.errors?.find((entry) => entry.field === field);
      assert.ok(error, `${JSON.stringify(body)}: ${response.body}`);
      assert.match(error.message, /\w+ \w+/);
    }
    const minutes = await send(app, user.headers, 'PATCH', '/api/users/me/notifications', {
      eventReminderMinutes: 1441,
    });
    assert.match(minutes.json().errors[0].message, /0 to 1440/);
    const time = await send(app, user.headers, 'PATCH', '/api/users/me/notifications', {
      planDayAt: '25:00',
    });
    assert.match(time.json().errors[0].message, /HH:MM/);
    const stored = await send(app, user.headers, 'GET', '/api/users/me/notifications');
    assert.equal(stored.json().taskStart, true);
  });

  it('needs a session', async () => {
    const response = await send(app, {}, 'GET', '/api/users/me/notifications');
    assert.equal(response.statusCode, 401);
  });

  it('goes with the account, devices included', async () => {
    const user = await signUp(app);
    await send(app, user.headers, 'PATCH', '/api/users/me/notifications', { planDayAt: '08:00' });
    await subscribe(app, user);
    const removed = await send(app, user.headers, 'DELETE', '/api/users/me', { password: user.password });
    assert.equal(removed.statusCode, 204, removed.body);
    const settings = await app.db
      .selectFrom('notificationSettings')
      .selectAll()
      .where('userId', '=', user.user.id)
      .execute();
    assert.deepEqual(settings, []);
    assert.deepEqual(await subscriptionsOf(app, user.user.id), []);
  });
});

describe('push subscriptions', async () => {
  const { app } = await buildTestApp();

  it('publishes the VAPID public key: an uncompressed P-256 point', async () => {
    const user = await signUp(app);
    const response = await send(app, user.headers, 'GET', '/api/push/key');
    assert.equal(response.statusCode, 200);
    const { publicKey } = response.json() as { publicKey: string };
    assert.equal(publicKey, vapidKeysOf(app).publicKey);
    const raw = Buffer.from(publicKey, 'base64url');
    assert.equal(raw.length, 65);
    assert.equal(raw[0], 4);
    assert.equal((await send(app, {}, 'GET', '/api/push/key')).statusCode, 401);
  });

  it('stores, lists newest first, and removes only the own devices', async () => {
    const user = await signUp(app);
    const other = await signUp(app);
    const first = await subscribe(app, user, offlineEndpoint(), 'Laptop, Firefox');
    assert.deepEqual(Object.keys(first.device).sort(), ['createdAt', 'device', 'id']);
    assert.equal(first.device.device, 'Laptop, Firefox');
    assert.ok(!Number.isNaN(Date.parse(first.device.createdAt)));
    const second = await subscribe(app, user, offlineEndpoint(), 'Phone');
    // The clock stands still in tests: created in the same millisecond, they are still listed newest first.
    await app.db
      .updateTable('pushSubscriptions')
      .set({ createdAt: Date.parse(first.device.createdAt) + 1000 })
      .where('id', '=', second.device.id)
      .execute();
    const listed = await send(app, user.headers, 'GET', '/api/push/subscriptions');
    assert.equal(listed.statusCode, 200);
    assert.deepEqual(
      listed.json().subscriptions.map((device: { device: string }) => device.device),
      ['Phone', 'Laptop, Firefox'],
    );
    assert.deepEqual((await send(app, other.headers, 'GET', '/api/push/subscriptions')).json(), {
      subscriptions: [],
    });

    const foreign = await send(app, other.headers, 'DELETE', `/api/push/subscriptions/${first.device.id}`);
    assert.equal(foreign.statusCode, 404);
    assert.equal(foreign.json().message, 'Device not found');
    const unknown = await send(app, user.headers, 'DELETE', '/api/push/subscriptions/no-such-device');
    assert.equal(unknown.statusCode, 404);
    const removed = await send(app, user.headers, 'DELETE', `/api/push/subscriptions/${first.device.id}`);
    assert.equal(removed.statusCode, 204);
    const again = await send(app, user.headers, 'DELETE', `/api/push/subscriptions/${first.device.id}`);
    assert.equal(again.statusCode, 404);
    const left = await send(app, user.headers, 'GET', '/api/push/subscriptions');
    assert.deepEqual(
      left.json().subscriptions.map((device: { id: string }) => device.id),
      [second.device.id],
    );
  });

  it('updates the row of an endpoint posted again, and moves it to the account that posted it', async () => {
    const user = await signUp(app);
    const other = await signUp(app);
    const endpoint = offlineEndpoint();
    const first = await subscribe(app, user, endpoint, 'Old name');
    const renewed = await subscribe(app, user, endpoint, 'New name');
    assert.equal(renewed.device.id, first.device.id);
    assert.equal(renewed.device.device, 'New name');
    const [row] = await subscriptionsOf(app, user.user.id);
    assert.equal(row.p256dh, renewed.browser.json.keys.p256dh);
    assert.equal(row.auth, renewed.browser.json.keys.auth);
    assert.equal((await subscriptionsOf(app, user.user.id)).length, 1);

    const moved = await subscribe(app, other, endpoint, 'Shared tablet');
    assert.equal(moved.device.id, first.device.id);
    assert.deepEqual(await subscriptionsOf(app, user.user.id), []);
    assert.equal((await subscriptionsOf(app, other.user.id))[0].device, 'Shared tablet');
  });

  it(`keeps at most ${MAX_DEVICES_PER_ACCOUNT} devices per account`, async () => {
    const user = await signUp(app);
    const endpoints = Array.from({ length: MAX_DEVICES_PER_ACCOUNT }, () => offlineEndpoint());
    for (const endpoint of endpoints) await subscribe(app, user, endpoint);
    const browser = browserSubscription(offlineEndpoint());
    const refused = await send(
      app,
      user.headers,
      'POST',
      '/api/push/subscriptions',
      subscribeBody(browser.json),
    );
    assert.equal(refused.statusCode, 409);
    assert.match(refused.json().message, /already has 20 devices .* remove one/);
    // An endpoint already stored may still be renewed at the bound.
    await subscribe(app, user, endpoints[0], 'Renewed');
    // And another account's device cannot be moved in past it.
    const other = await signUp(app);
    const elsewhere = await subscribe(app, other);
    const moved = await send(
      app,
      user.headers,
      'POST',
      '/api/push/subscriptions',
      subscribeBody(browserSubscription(elsewhere.browser.json.endpoint).json),
    );
    assert.equal(moved.statusCode, 409);
    assert.equal((await subscriptionsOf(app, other.user.id)).length, 1);
    const listed = await send(app, user.headers, 'GET', '/api/push/subscriptions');
    assert.equal(listed.json().subscriptions.length, MAX_DEVICES_PER_ACCOUNT);
  });

  it('counts devices added at once one after another', async () => {
    const user = await signUp(app);
    for (let index = 0; index < MAX_DEVICES_PER_ACCOUNT - 2; index += 1) await subscribe(app, user);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        send(
          app,
          user.headers,
          'POST',
          '/api/push/subscriptions',
          subscribeBody(browserSubscription(offlineEndpoint()).json),
        ),
      ),
    );
    assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [201, 201, 409, 409, 409, 409]);
    const rows = await app.db
      .selectFrom('pushSubscriptions')
      .select('id')
      .where('userId', '=', user.user.id)
      .execute();
    assert.equal(rows.length, MAX_DEVICES_PER_ACCOUNT);
  });

  it('refuses bad keys, endpoints and labels with a 400 naming the field', async () => {
    const user = await signUp(app);
    const good = browserSubscription(offlineEndpoint()).json;
    const notOnCurve = Buffer.from(good.keys.p256dh, 'base64url');
    notOnCurve[64] ^= 1;
    const compressed = Buffer.concat([
      Buffer.from([2]),
      Buffer.from(good.keys.p256dh, 'base64url').subarray(1, 33),
    ]);
    const cases: Array<[string, unknown, string]> = [
      [
        'short p256dh',
        { ...good, keys: { ...good.keys, p256dh: good.keys.p256dh.slice(0, 40) } },
        'subscription.keys.p256dh',
      ],
      [
        'p256dh off the curve',
        { ...good, keys: { ...good.keys, p256dh: notOnCurve.toString('base64url') } },
        'subscription.keys.p256dh',
      ],
      [
        'compressed p256dh',
        { ...good, keys: { ...good.keys, p256dh: compressed.toString('base64url') } },
        'subscription.keys.p256dh',
      ],
      [
        'p256dh not base64url',
        { ...good, keys: { ...good.keys, p256dh: `${good.keys.p256dh.slice(1)}!` } },
        'subscription.keys.p256dh',
      ],
      [
        'auth of 15 bytes',
        { ...good, keys: { ...good.keys, auth: Buffer.alloc(15, 1).toString('base64url') } },
        'subscription.keys.auth',
      ],
      [
        'auth of 32 bytes',
        { ...good, keys: { ...good.keys, auth: Buffer.alloc(32, 1).toString('base64url') } },
        'subscription.keys.auth',
      ],
      ['no keys', { endpoint: good.endpoint }, 'subscription.keys'],
      ['http endpoint', { ...good, endpoint: 'http://push.example.invalid/x' }, 'subscription.endpoint'],
      ['not a URL', { ...good, endpoint: 'push service' }, 'subscription.endpoint'],
      [
        'credentials',
        { ...good, endpoint: 'https://user:pw@push.example.invalid/x' },
        'subscription.endpoint',
      ],
      [
        'too long',
        { ...good, endpoint: `https://push.example.invalid/${'x'.repeat(2000)}` },
        'subscription.endpoint',
      ],
      ['expirationTime text', { ...good, expirationTime: 'soon' }, 'subscription.expirationTime'],
      ['expirationTime past a Date', { ...good, expirationTime: 1e300 }, 'subscription.expirationTime'],
      ['expirationTime negative', { ...good, expirationTime: -1 }, 'subscription.expirationTime'],
    ];
    for (const [name, subscription, field] of cases) {
      const response = await send(app, user.headers, 'POST', '/api/push/subscriptions', {
        subscription,
        device: 'Phone',
      });
      assert.equal(response.statusCode, 400, `${name}: ${response.body}`);
      const errors = (response.json().errors ?? []) as Array<{ field: string; message: string }>;
      assert.ok(
        errors.some((error) => error.field === field),
        `${name}: ${response.body}`,
      );
    }
    for (const device of ['', '   ', 'x'.repeat(101)]) {
      const response = await send(app, user.headers, 'POST', '/api/push/subscriptions', {
        subscription: good,
        device,
      });
      assert.equal(response.statusCode, 400, `device ${JSON.stringify(device)}: ${response.body}`);
    }
    const expiring = browserSubscription(offlineEndpoint()).json;
    const kept = await send(app, user.headers, 'POST', '/api/push/subscriptions', {
      subscription: { ...expiring, expirationTime: Date.UTC(2030, 0, 1) + 0.5 },
      device: 'Phone',
    });
    assert.equal(kept.statusCode, 201, kept.body);
    assert.equal((await subscriptionsOf(app, user.user.id))[0].expirationTime, Date.UTC(2030, 0, 1));
    await send(app, user.headers, 'DELETE', `/api/push/subscriptions/${kept.json().id}`);
    const extra = await send(app, user.headers, 'POST', '/api/push/subscriptions', {
      subscription: good,
      device: 'Phone',
      owner: 'someone',
    });
    assert.equal(extra.statusCode, 400);
    assert.deepEqual(await subscriptionsOf(app, user.user.id), []);
  });

  it('refuses endpoints on loopback, private and link-local addresses unless private hosts are allowed', async () => {
    const user = await signUp(app);
    for (const host of [
      '127.0.0.2',
      '10.1.2.3',
      '192.168.1.10',
      '169.254.169.254',
      '[::1]',
      '[fd00:ec2::254]',
      '[::ffff:127.0.0.1]',
      '0.0.0.0',
    ]) {
      const browser = browserSubscription(`https://${host}:8443/push/1`);
      const response = await send(
        app,
        user.headers,
        'POST',
        '/api/push/subscriptions',
        subscribeBody(browser.json),
      );
      assert.equal(response.statusCode, 400, `${host}: ${response.body}`);
      assert.match(
        response.json().errors[0].message,
        /points to an? [a-z -]+ address; push services must be on the public internet/,
      );
    }
    assert.deepEqual(await subscriptionsOf(app, user.user.id), []);
    const allowed = await sendingApp();
    const elsewhere = await signUp(allowed);
    await subscribe(allowed, elsewhere, 'https://127.0.0.2:8443/push/1');
  });

  it('answers 409 to a test with no device to send to', async () => {
    const user = await signUp(app);
    const response = await send(app, user.headers, 'POST', '/api/push/test');
    assert.equal(response.statusCode, 409);
    assert.match(response.json().message, /no device to send to/);
    assert.equal((await send(app, user.headers, 'POST', '/api/push/test', { devices: 1 })).statusCode, 400);
  });
});

describe('delivery through a push service', async () => {
  const service = await startPushService('127.0.0.2');
  const app = await sendingApp();

  it('sends the encrypted test notification to each device, signed with the VAPID key', async () => {
    const user = await signUp(app);
    const phone = await subscribe(app, user, service.endpoint(), 'Phone');
    const laptop = await subscribe(app, user, service.endpoint(), 'Laptop');
    const before = service.received.length;
    const response = await send(app, user.headers, 'POST', '/api/push/test');
    assert.equal(response.statusCode, 202);
    assert.deepEqual(response.json(), { devices: 2 });
    await service.waitFor(before + 2);
    await app.jobs.idle();
    const pushes = service.received.slice(before);
    for (const { browser } of [phone, laptop]) {
      const path = new URL(browser.json.endpoint).pathname;
      const push = pushes.find((entry) => entry.path === path);
      assert.ok(push, `no push reached ${path}`);
      assert.equal(push.method, 'POST');
      assert.equal(push.headers['content-encoding'], 'aes128gcm');
      assert.equal(push.headers['content-type'], 'application/octet-stream');
      assert.equal(push.headers.ttl, '60');
      assert.equal(push.headers.urgency, 'normal');
      assert.equal(push.headers.topic, 'test');
      const payload = JSON.parse(decryptPush(push.body, browser)) as PushPayload;
      assert.deepEqual(payload, {
        kind: 'test',
        title: 'Time Wallet',
        body: 'Notifications reach this device.',
        url: '/app/today',
        tag: 'test',
      });
      const claims = await verifyVapid(push.headers, vapidKeysOf(app).publicKey, service.origin);
      assert.equal(claims.sub, app.config.push.vapidSubject);
      const expiresIn = Number(claims.exp) - Date.now() / 1000;
      assert.ok(expiresIn > 0 && expiresIn <= 24 * 3600, `exp ${claims.exp}`);
      // The other browser's keys cannot read it.
      const stranger = browser === phone.browser ? laptop.browser : phone.browser;
      assert.throws(() => decryptPush(push.body, stranger));
    }
  });

  it('sendPush carries the TTL, topic and urgency it is given, and bounds what the push shows', async () => {
    const user = await signUp(app);
    const { browser } = await subscribe(app, user, service.endpoint());
    const [row] = await subscriptionsOf(app, user.user.id);
    const before = service.received.length;
    const payload: PushPayload = {
      kind: 'event-reminder',
      title: `Stand-up ${'ü'.repeat(300)}`,
      body: 'In 10 minutes',
      url: '/app/calendar?date=2026-03-11',
      tag: 'event:abc:1773241200000',
    };
    const result = await sendPush(app, row, payload, {
      ttlSeconds: 900,
      topic: 'event-abc',
      urgency: 'high',
    });
    assert.equal(result, 'sent');
    const [push] = (await service.waitFor(before + 1)).slice(before);
    assert.equal(push.headers.ttl, '900');
    assert.equal(push.headers.topic, 'event-abc');
    assert.equal(push.headers.urgency, 'high');
    const received = JSON.parse(decryptPush(push.body, browser)) as PushPayload;
    assert.equal([...received.title].length, 120);
    assert.ok(received.title.startsWith('Stand-up ü'));
    assert.ok(received.title.endsWith('…'));
    assert.deepEqual({ ...received, title: '' }, { ...payload, title: '' });
  });

  it('sendPush sends only app paths that fit a push, and drops an expired subscription without asking', async () => {
    const user = await signUp(app);
    await subscribe(app, user, service.endpoint());
    const [row] = await subscriptionsOf(app, user.user.id);
    const before = service.received.length;
    const payload: PushPayload = { kind: 'test', title: 't', body: 'b', url: '/app/today', tag: 't' };
    for (const url of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'app/today', '']) {
      await assert.rejects(sendPush(app, row, { ...payload, url }, { ttlSeconds: 60 }), /path of the app/);
    }
    await assert.rejects(
      sendPush(app, row, { ...payload, tag: 'x'.repeat(4000) }, { ttlSeconds: 60 }),
      /must fit in 3993 bytes/,
    );
    // The longest title and body, in 4-byte characters, still fit.
    const widest = { ...payload, title: '😀'.repeat(500), body: '😀'.repeat(2000) };
    assert.equal(await sendPush(app, row, widest, { ttlSeconds: 60 }), 'sent');
    const [push] = (await service.waitFor(before + 1)).slice(before);
    assert.ok(push.body.length <= 4096, `${push.body.length} bytes`);
    const expired = { ...row, expirationTime: app.now() - 1 };
    assert.equal(await sendPush(app, expired, payload, { ttlSeconds: 60 }), 'gone');
    assert.equal(service.received.length, before + 1);
    assert.deepEqual(await subscriptionsOf(app, user.user.id), []);
  });

  for (const status of [410, 404]) {
    it(`removes a subscription the push service answers ${status} for`, async () => {
      const user = await signUp(app);
      const gone = await subscribe(app, user, service.endpoint(), 'Gone');
      const before = service.received.length;
      service.answer(status);
      assert.equal((await send(app, user.headers, 'POST', '/api/push/test')).statusCode, 202);
      await service.waitFor(before + 1);
      await app.jobs.idle();
      assert.equal(service.received.length, before + 1, 'not retried');
      assert.deepEqual(await subscriptionsOf(app, user.user.id), []);
      const listed = await send(app, user.headers, 'GET', '/api/push/subscriptions');
      assert.deepEqual(listed.json(), { subscriptions: [] });
      assert.equal(
        (await send(app, user.headers, 'DELETE', `/api/push/subscriptions/${gone.device.id}`)).statusCode,
        404,
      );
    });
  }

  it('retries a push the service failed with a 500, and keeps the subscription', async () => {
    const user = await signUp(app);
    const { browser } = await subscribe(app, user, service.endpoint());
    const before = service.received.length;
    service.answer(500);
    assert.equal((await send(app, user.headers, 'POST', '/api/push/test')).statusCode, 202);
    const [failed, retried] = (await service.waitFor(before + 2, 15_000)).slice(before);
    await app.jobs.idle();
    assert.equal(failed.path, retried.path);
    assert.equal(JSON.parse(decryptPush(retried.body, browser)).kind, 'test');
    assert.equal((await subscriptionsOf(app, user.user.id)).length, 1);
  });

  it('sendPush throws on a 500 and a 429 (a job retries them), and a permanent PushError on a 403', async () => {
    const user = await signUp(app);
    await subscribe(app, user, service.endpoint());
    const [row] = await subscriptionsOf(app, user.user.id);
    const payload: PushPayload = { kind: 'test', title: 't', body: 'b', url: '/app/today', tag: 't' };
    for (const [status, permanent] of [
      [500, false],
      [503, false],
      [429, false],
      [403, true],
      [400, true],
    ] as const) {
      service.answer(status);
      await assert.rejects(sendPush(app, row, payload, { ttlSeconds: 60 }), (error: unknown) => {
        assert.ok(error instanceof PushError);
        assert.equal(error.status, status);
        assert.equal(error.permanent, permanent);
        return true;
      });
    }
    assert.equal((await subscriptionsOf(app, user.user.id)).length, 1);
  });
});

describe('the push request', async () => {
  const service = await startPushService('127.0.0.5');
  const push = (endpoint = service.endpoint(), timeoutMs?: number) =>
    postPush(endpoint, { 'content-type': 'application/octet-stream', ttl: '60' }, Buffer.from('sealed'), {
      allowPrivateHosts: true,
      ...(timeoutMs ? { timeoutMs } : {}),
    });

  it('posts the body once and answers the status, following no redirect', async () => {
    const before = service.received.length;
    service.answer({ status: 301, headers: { location: `${service.origin}/elsewhere` } });
    const answer = await push();
    assert.equal(answer.status, 301);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(service.received.length, before + 1);
    assert.equal(service.received[before].body.toString(), 'sealed');
    assert.equal(service.received[before].headers.ttl, '60');
  });

  it('reads at most 4 KiB of an answer, and Retry-After', async () => {
    service.answer({
      status: 429,
      headers: { 'retry-after': '30' },
      body: Buffer.alloc(5 * 1024 * 1024, 97),
    });
    const answer = await push();
    assert.equal(answer.status, 429);
    assert.equal(answer.text.length, 4096);
    assert.equal(answer.retryAfterSeconds, 30);
  });

  it('gives up on a push service that does not answer in time', async () => {
    service.answer({ status: 201, delayMs: 2000 });
    const started = Date.now();
    await assert.rejects(push(undefined, 200), (error: unknown) => {
      assert.ok(error instanceof OutboundError);
      assert.equal(error.reason, 'timeout');
      return true;
    });
    assert.ok(Date.now() - started < 1500);
  });

  it('refuses a certificate that does not name the host', async () => {
    // The service's certificate names 127.0.0.5, not this host name: TLS refuses it.
    const resolveHost = async () => [{ address: '127.0.0.5', family: 4 }];
    const endpoint = service.endpoint().replace('127.0.0.5', 'push.example.invalid');
    await assert.rejects(
      postPush(endpoint, {}, Buffer.from('x'), { allowPrivateHosts: true, resolveHost }),
      /has no valid certificate/,
    );
  });

  it('refuses a host name that resolves to a private address', async () => {
    const resolveHost = async () => [{ address: '10.0.0.7', family: 4 }];
    await assert.rejects(
      postPush('https://push.example.invalid/x', {}, Buffer.from('x'), {
        allowPrivateHosts: false,
        resolveHost,
      }),
      /points to a private network address; push services must be on the public internet/,
    );
  });
});

describe('delivery guard', async () => {
  const service = await startPushService('127.0.0.3');

  it('refuses to send to a loopback endpoint when private hosts are not allowed', async () => {
    // Stored while allowed (an intranet push service), then the server is restarted without the knob.
    const { app } = await buildTestApp();
    const user = await signUp(app);
    const browser = browserSubscription(service.endpoint());
    const now = app.now();
    await app.db
      .insertInto('pushSubscriptions')
      .values({
        id: 'loopback-device',
        userId: user.user.id,
        endpoint: browser.json.endpoint,
        p256dh: browser.json.keys.p256dh,
        auth: browser.json.keys.auth,
        device: 'Phone',
        expirationTime: null,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    const [row] = await subscriptionsOf(app, user.user.id);
    const payload: PushPayload = { kind: 'test', title: 't', body: 'b', url: '/app/today', tag: 't' };
    await assert.rejects(sendPush(app, row, payload, { ttlSeconds: 60 }), (error: unknown) => {
      assert.ok(error instanceof OutboundError);
      assert.equal(error.reason, 'refused');
      assert.match(error.message, /loopback address/);
      return true;
    });
    assert.equal(service.received.length, 0);
    assert.equal((await subscriptionsOf(app, user.user.id)).length, 1);
  });

  it('throws when the push service cannot be reached', async () => {
    const app = await sendingApp();
    const user = await signUp(app);
    // A loopback port nothing listens on.
    await subscribe(app, user, 'https://127.0.0.4:9/push/1');
    const [row] = await subscriptionsOf(app, user.user.id);
    const payload: PushPayload = { kind: 'test', title: 't', body: 'b', url: '/app/today', tag: 't' };
    await assert.rejects(sendPush(app, row, payload, { ttlSeconds: 60 }), (error: unknown) => {
      assert.ok(error instanceof OutboundError);
      assert.equal(error.reason, 'unreachable');
      return true;
    });
    assert.equal((await subscriptionsOf(app, user.user.id)).length, 1);
  });
});
