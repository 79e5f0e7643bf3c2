import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { PRODUCTION_PASSWORD_HASH_COST } from '../../src/config.js';
import { signUp } from '../helpers.js';
import { buildSecurityApp, report } from './support.js';

const TIMING_HASH_COST = 14;
const summary: string[] = [];
after(() => report(`sign-in abuse: ${summary.join('; ')}`));

function login(app: FastifyInstance, payload: object, remoteAddress = '198.51.100.1') {
  return app.inject({ method: 'POST', url: '/api/auth/login', payload, remoteAddress });
}

/** Everything a client can compare between two answers, the per-request id and date aside. */
function observable(response: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  const headers = { ...response.headers };
  delete headers['x-request-id'];
  delete headers.date;
  return { statusCode: response.statusCode, headers, body: response.body };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

describe('sign-in abuse', () => {
  test('failed logins lock the account (not the IP) with 429 and Retry-After, known account or not', async () => {
    const { app } = await buildSecurityApp({ rateLimit: { loginFailuresPerAccount: 5 } });
    const known = await signUp(app);
    const answers = [];
    for (const [index, username] of [known.user.username, 'noSuchAccount'].entries()) {
      // Each guess from another address: the per-account lock does not depend on the IP.
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const failure = await login(app, { username, password: 'Wr0ng-guess' }, `203.0.113.${attempt + 1}`);
        assert.equal(failure.statusCode, 401, failure.body);
      }
      // A fresh address each, so the per-IP counters in the headers read the same.
      const locked = await login(app, { username, password: known.password }, `203.0.113.${90 + index}`);
      assert.equal(locked.statusCode, 429, locked.body);
      assert.ok(Number(locked.headers['retry-after']) > 0, String(locked.headers['retry-after']));
      assert.equal(typeof locked.json().message, 'string');
      answers.push(observable(locked));
    }
    // The lock tells nothing about whether the account exists.
    assert.deepEqual(answers[0], answers[1]);
    // Another account from the same addresses is not affected.
    const other = await signUp(app);
    assert.equal(
      (await login(app, { username: other.user.username, password: other.password }, '203.0.113.1'))
        .statusCode,
      200,
    );
    summary.push('per-account lock after 5 failures -> 429 + Retry-After');
  });

  test('sign-in requests are limited per IP with 429 and Retry-After; another IP is unaffected', async () => {
    const { app } = await buildSecurityApp({ rateLimit: { authPerMinute: 3 } });
    for (const url of ['/api/auth/login', '/api/auth/forgot-password']) {
      const statuses: number[] = [];
      let last;
      for (let attempt = 0; attempt < 4; attempt += 1) {
        last = await app.inject({
          method: 'POST',
          url,
          remoteAddress: '198.51.100.7',
          payload: {
            username: `someone${attempt}`,
            email: `someone${attempt}@example.com`,
            password: 'Wr0ng',
          },
        });
        statuses.push(last.statusCode);
      }
      assert.equal(statuses[3], 429, `${url}: ${statuses.join(',')}`);
      assert.ok(
        statuses.slice(0, 3).every((status) => status !== 429),
        `${url}: ${statuses.join(',')}`,
      );
      assert.ok(Number(last!.headers['retry-after']) > 0);
      assert.equal(typeof last!.json().message, 'string');
      const elsewhere = await app.inject({
        method: 'POST',
        url,
        remoteAddress: '198.51.100.8',
        payload: { username: 'someone', email: 'someone@example.com', password: 'Wr0ng' },
      });
      assert.notEqual(elsewhere.statusCode, 429, url);
    }
    summary.push('per-IP limit on login and forgot-password -> 429 + Retry-After');
  });

  test('unknown user and wrong password answer alike, on login and forgot-password', async () => {
    const { app } = await buildSecurityApp();
    const known = await signUp(app);
    const pairs: Array<[string, string, object, object]> = [
      [
        '/api/auth/login',
        'username',
        { username: known.user.username, password: 'Wr0ng-guess!' },
        { username: 'nobodyHere', password: 'Wr0ng-guess!' },
      ],
      [
        '/api/auth/login',
        'email',
        { email: known.user.email, password: 'Wr0ng-guess!' },
        { email: 'nobody@example.com', password: 'Wr0ng-guess!' },
      ],
      ['/api/auth/forgot-password', 'email', { email: known.user.email }, { email: 'nobody@example.com' }],
    ];
    let address = 0;
    const from = () => `192.0.2.${(address += 1)}`;
    for (const [url, by, existing, unknown] of pairs) {
      // A fresh address per request, so the per-IP counters in the headers read the same.
      const a = await app.inject({ method: 'POST', url, payload: existing, remoteAddress: from() });
      const b = await app.inject({ method: 'POST', url, payload: unknown, remoteAddress: from() });
      assert.ok(a.statusCode >= 200 && a.statusCode !== 429, a.body);
      assert.deepEqual(observable(a), observable(b), `${url} by ${by}`);
    }
    summary.push(`${pairs.length} enumeration pairs identical (status, headers, body)`);
  });

  test('an unknown user costs as much as a wrong password: same hash work (median ratio within [0.5, 2])', async () => {
    // Not the production cost: on a shared CI machine one scrypt at N=2^17 took 1.5 s, so 32 of them cost a minute.
    // At N=2^14 a hash still takes ~10-100x a database round trip, so skipping it on the unknown-user path would show
    // as a ratio far below 0.5. Both paths run the same code at any cost (verifyAgainstNobody hashes at the app's cost).
    const { app } = await buildSecurityApp({
      config: { passwordHashCost: TIMING_HASH_COST },
      rateLimit: { loginFailuresPerAccount: 1_000_000, authPerMinute: 1_000_000 },
    });
    const known = await signUp(app);
    const timed = async (username: string) => {
      const started = performance.now();
      const response = await login(app, { username, password: 'Wr0ng-guess!' });
      const elapsed = performance.now() - started;
      assert.equal(response.statusCode, 401, response.body);
      return elapsed;
    };
    // Warm-up: the decoy hash and the first database round trips.
    await timed('ghostUser0');
    await timed(known.user.username);
    const unknownTimes: number[] = [];
    const knownTimes: number[] = [];
    for (let round = 0; round < 15; round += 1) {
      unknownTimes.push(await timed(`ghostUser${round + 1}`));
      knownTimes.push(await timed(known.user.username));
    }
    const unknownMedian = median(unknownTimes);
    const knownMedian = median(knownTimes);
    const ratio = unknownMedian / knownMedian;
    const line = `login timing at scrypt N=2^${TIMING_HASH_COST} (production 2^${PRODUCTION_PASSWORD_HASH_COST}): unknown user median ${unknownMedian.toFixed(1)} ms, wrong password median ${knownMedian.toFixed(1)} ms, ratio ${ratio.toFixed(2)}`;
    console.log(line);
    summary.push(line);
    assert.ok(ratio >= 0.5 && ratio <= 2, line);
  });
});
