import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { assertJsonMessage, buildSecurityApp, report } from './support.js';

const summary: string[] = [];
after(() => report(`rate limits: ${summary.join('; ')}`));

const PROXY = '10.0.0.1';

/** A request as a proxy forwards it: from the proxy's socket, with the client's X-Forwarded-For. */
function viaProxy(app: FastifyInstance, url: string, forwardedFor: string, method: 'GET' | 'POST' = 'GET') {
  return app.inject({
    method,
    url,
    remoteAddress: PROXY,
    headers: { 'x-forwarded-for': forwardedFor },
    ...(method === 'POST' ? { payload: { username: 'nobodyAtAll', password: 'Wr0ng-guess!' } } : {}),
  });
}

describe('the health check has a limit', () => {
  for (const store of ['memory', 'database'] as const) {
    test(`past it /api/health answers 429 with Retry-After; API traffic of the same address is counted apart (${store} store)`, async () => {
      const { app } = await buildSecurityApp({
        rateLimit: { healthPerMinute: 3, globalPerMinute: 3, store },
      });
      const statuses: number[] = [];
      let last;
      for (let attempt = 0; attempt < 5; attempt += 1) {
        last = await app.inject({ method: 'GET', url: '/api/health', remoteAddress: '198.51.100.30' });
        statuses.push(last.statusCode);
      }
      assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
      assert.ok(Number(last!.headers['retry-after']) > 0, String(last!.headers['retry-after']));
      assertJsonMessage(last!, 'health past its limit');
      const elsewhere = await app.inject({
        method: 'GET',
        url: '/api/health',
        remoteAddress: '198.51.100.31',
      });
      assert.equal(elsewhere.statusCode, 200);
      // The same address still has its whole API allowance, and using it up leaves a probe from there answered.
      const api: number[] = [];
      for (let attempt = 0; attempt < 4; attempt += 1) {
        api.push(
          (await app.inject({ method: 'GET', url: '/api/auth/me', remoteAddress: '198.51.100.31' }))
            .statusCode,
        );
      }
      assert.deepEqual(api, [401, 401, 401, 429], 'the probe took part of the API allowance');
      const probe = await app.inject({ method: 'GET', url: '/api/health', remoteAddress: '198.51.100.31' });
      assert.equal(probe.statusCode, 200);
      summary.push(
        `health (${store} store): 3 per minute -> 429 + Retry-After, counted apart from the API limit`,
      );
    });
  }
});

describe('the client address behind a proxy', () => {
  test('TRUST_PROXY=1: a forged leftmost X-Forwarded-For does not change the address the global limit counts', async () => {
    const { app } = await buildSecurityApp({ env: { TRUST_PROXY: '1' }, rateLimit: { globalPerMinute: 2 } });
    const statuses: number[] = [];
    for (const forged of ['1.1.1.1', '2.2.2.2', '3.3.3.3']) {
      statuses.push((await viaProxy(app, '/api/auth/me', `${forged}, 203.0.113.10`)).statusCode);
    }
    assert.deepEqual(statuses, [401, 401, 429], 'forged left parts got counters of their own');
    // Another client behind the same proxy has its own counter.
    assert.equal((await viaProxy(app, '/api/auth/me', '1.1.1.1, 203.0.113.11')).statusCode, 401);
    assert.equal((await viaProxy(app, '/api/auth/me', '203.0.113.12')).statusCode, 401);
    summary.push('TRUST_PROXY=1: 3 forged X-Forwarded-For left parts share one global counter');
  });

  test('TRUST_PROXY=1: the sign-in limit cannot be bypassed with a forged X-Forwarded-For either', async () => {
    const { app } = await buildSecurityApp({ env: { TRUST_PROXY: '1' }, rateLimit: { authPerMinute: 2 } });
    const statuses: number[] = [];
    for (const forged of ['1.1.1.1', '2.2.2.2', '3.3.3.3']) {
      statuses.push((await viaProxy(app, '/api/auth/login', `${forged}, 203.0.113.20`, 'POST')).statusCode);
    }
    assert.deepEqual(statuses, [401, 401, 429]);
    assert.equal((await viaProxy(app, '/api/auth/login', '203.0.113.21', 'POST')).statusCode, 401);
    summary.push('TRUST_PROXY=1: sign-in limit shared across forged left parts');
  });

  test('TRUST_PROXY=1: a client on the public side that reaches the API directly is counted as itself', async () => {
    const { app } = await buildSecurityApp({ env: { TRUST_PROXY: '1' }, rateLimit: { globalPerMinute: 2 } });
    const direct: number[] = [];
    for (const forged of ['4.4.4.4', '5.5.5.5', 'not-an-address']) {
      const response = await app.inject({
        method: 'GET',
        url: '/api/auth/me',
        remoteAddress: '198.51.100.50',
        headers: { 'x-forwarded-for': forged },
      });
      direct.push(response.statusCode);
    }
    assert.deepEqual(direct, [401, 401, 429], 'a direct client chose its own address');
    summary.push('TRUST_PROXY=1: a direct public client cannot forge its address');
  });

  test("TRUST_PROXY=<the proxies' addresses>: through them the client counts, straight from a client its socket", async () => {
    const { app } = await buildSecurityApp({
      env: { TRUST_PROXY: '10.0.0.0/8, 127.0.0.1, ::1, fd00::/8, loopback' },
      rateLimit: { globalPerMinute: 2 },
    });
    const throughProxy: number[] = [];
    for (const forged of ['1.1.1.1', '2.2.2.2', '3.3.3.3']) {
      throughProxy.push((await viaProxy(app, '/api/auth/me', `${forged}, 203.0.113.30`)).statusCode);
    }
    assert.deepEqual(throughProxy, [401, 401, 429]);
    // A client that reaches the API directly is not a proxy: whatever it writes in X-Forwarded-For, its socket counts.
    const direct: number[] = [];
    for (const forged of ['4.4.4.4', '5.5.5.5', '6.6.6.6']) {
      const response = await app.inject({
        method: 'GET',
        url: '/api/auth/me',
        remoteAddress: '198.51.100.40',
        headers: { 'x-forwarded-for': forged },
      });
      direct.push(response.statusCode);
    }
    assert.deepEqual(direct, [401, 401, 429]);
    assert.equal((await viaProxy(app, '/api/auth/me', '203.0.113.31')).statusCode, 401);
    summary.push('TRUST_PROXY=addresses: forged headers from proxies and from direct clients both ignored');
  });

  test('TRUST_PROXY=true is refused at start-up with what to set instead; counts and addresses are read', () => {
    const env = { JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/nonexistent/time-wallet' };
    for (const value of ['true', 'TRUE', ' true ']) {
      assert.throws(
        () => loadConfig({ ...env, TRUST_PROXY: value }),
        /TRUST_PROXY=1.*TRUST_PROXY=10\.0\.0\.5/,
        value,
      );
    }
    for (const value of [
      'proxy.internal',
      '10.0.0.0/33',
      '0.0.0.0/0',
      '::/0',
      '10.0.0.1/8/8',
      '300.1.1.1',
      '1.5',
    ]) {
      assert.throws(() => loadConfig({ ...env, TRUST_PROXY: value }), /TRUST_PROXY/, value);
    }
    const read = (value?: string) =>
      loadConfig({ ...env, ...(value === undefined ? {} : { TRUST_PROXY: value }) }).trustProxy;
    assert.equal(read(), false);
    assert.equal(read(''), false);
    assert.equal(read('false'), false);
    assert.equal(read('1'), 1);
    assert.equal(read('2'), 2);
    assert.deepEqual(read('127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback'), [
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    summary.push('TRUST_PROXY=true refused at start-up');
  });
});

describe('the private feed has a limit of its own', () => {
  test('past 30 reads a minute from one address a feed answers 429, known token or not; another address still reads', async () => {
    // The global limit far above the feed's: what answers 429 is the feed route's own limit.
    const { app } = await buildSecurityApp({ rateLimit: { globalPerMinute: 1_000 } });
    const guess = `/api/feed/${'A'.repeat(43)}.ics`;
    const statuses: number[] = [];
    let last;
    for (let attempt = 0; attempt < 32; attempt += 1) {
      last = await app.inject({ method: 'GET', url: guess, remoteAddress: '198.51.100.40' });
      statuses.push(last.statusCode);
    }
    assert.deepEqual(statuses, [...Array(30).fill(404), 429, 429]);
    assert.ok(Number(last!.headers['retry-after']) > 0, String(last!.headers['retry-after']));
    assertJsonMessage(last!, 'a feed past its limit');
    const elsewhere = await app.inject({ method: 'GET', url: guess, remoteAddress: '198.51.100.41' });
    assert.equal(elsewhere.statusCode, 404);
    summary.push('feed: 30 reads per minute per address -> 429, token guesses included');
  });
});
