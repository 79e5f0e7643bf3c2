import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { PRODUCTION_PASSWORD_HASH_COST } from '../../src/config.js';
import { sourceOfAttempt } from '../../src/services/password-attempts.js';
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

/** Counts every scrypt verification the routes start, known account or not. */
function countPasswordChecks(app: FastifyInstance): { count: number } {
  const counter = { count: 0 };
  const { verify, verifyAgainstNobody } = app.passwords;
  app.passwords.verify = (password, hash) => {
    counter.count += 1;
    return verify(password, hash);
  };
  app.passwords.verifyAgainstNobody = (password) => {
    counter.count += 1;
    return verifyAgainstNobody(password);
  };
  return counter;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

describe('sign-in abuse', () => {
  test('failed logins lock the account for that address with 429 and Retry-After, known account or not', async () => {
    const { app } = await buildSecurityApp({ rateLimit: { loginFailuresPerAccount: 5 } });
    const known = await signUp(app);
    const answers = [];
    for (const [index, username] of [known.user.username, 'noSuchAccount'].entries()) {
      // One address per account, so the per-IP counters in the headers read the same for both.
      const stranger = `203.0.113.${index + 1}`;
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const failure = await login(app, { username, password: 'Wr0ng-guess' }, stranger);
        assert.equal(failure.statusCode, 401, failure.body);
      }
      const locked = await login(app, { username, password: known.password }, stranger);
      assert.equal(locked.statusCode, 429, locked.body);
      assert.equal(locked.headers['retry-after'], String(15 * 60));
      assert.equal(typeof locked.json().message, 'string');
      answers.push(observable(locked));
    }
    // The lock tells nothing about whether the account exists.
    assert.deepEqual(answers[0], answers[1]);
    // The stranger's failures do not keep the owner out: from the owner's own address the password still works.
    const owner = await login(
      app,
      { username: known.user.username, password: known.password },
      '198.51.100.20',
    );
    assert.equal(owner.statusCode, 200, owner.body);
    // Another account from the locked address is not affected either.
    const other = await signUp(app);
    assert.equal(
      (await login(app, { username: other.user.username, password: other.password }, '203.0.113.1'))
        .statusCode,
      200,
    );
    summary.push(
      'per-account-and-address lock after 5 failures -> 429 + Retry-After; the owner elsewhere signs in',
    );
  });

  test('concurrent wrong passwords are counted before the hash: 12 at once, limit 5, at most 5 scrypt checks', async () => {
    const { app } = await buildSecurityApp({ rateLimit: { loginFailuresPerAccount: 5 } });
    const checks = countPasswordChecks(app);
    const known = await signUp(app);
    checks.count = 0;
    for (const username of [known.user.username, 'ghostOfNobody']) {
      const before = checks.count;
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => login(app, { username, password: 'Wr0ng-guess!' }, '203.0.113.50')),
      );
      const statuses = answers.map((answer) => answer.statusCode).sort();
      assert.deepEqual(statuses, [...Array(5).fill(401), ...Array(7).fill(429)], username);
      assert.equal(checks.count - before, 5, `${username}: scrypt checks`);
      for (const answer of answers.filter((one) => one.statusCode === 429))
        assert.ok(Number(answer.headers['retry-after']) > 0);
    }
    summary.push(
      '12 concurrent wrong passwords, limit 5: 5 scrypt checks, 7 x 429 (known and unknown account)',
    );
  });

  test('the account is counted whichever of its names is typed', async () => {
    const { app } = await buildSecurityApp({ rateLimit: { loginFailuresPerAccount: 5 } });
    const known = await signUp(app);
    const address = '203.0.113.60';
    for (const payload of [
      { username: known.user.username, password: 'Wr0ng-1!' },
      { username: known.user.username.toUpperCase(), password: 'Wr0ng-2!' },
      { email: known.user.email, password: 'Wr0ng-3!' },
      { username: known.user.email.toUpperCase(), password: 'Wr0ng-4!' },
      { email: ` ${known.user.email} `, password: 'Wr0ng-5!' },
    ]) {
      assert.equal((await login(app, payload, address)).statusCode, 401, JSON.stringify(payload));
    }
    for (const payload of [
      { username: known.user.username, password: known.password },
      { email: known.user.email, password: known.password },
    ]) {
      assert.equal((await login(app, payload, address)).statusCode, 429, JSON.stringify(payload));
    }
    summary.push('username and e-mail share one count (5, not 5 + 5)');
  });

  test('a success clears only its own address; a stranger cannot lock the owner out', async () => {
    const { app } = await buildSecurityApp({ rateLimit: { loginFailuresPerAccount: 5 } });
    const known = await signUp(app);
    const [stranger, owner] = ['203.0.113.70', '198.51.100.70'];
    const statuses = async (count: number, password: string, address: string) => {
      const seen = [];
      for (let attempt = 0; attempt < count; attempt += 1)
        seen.push((await login(app, { username: known.user.username, password }, address)).statusCode);
      return seen;
    };
    assert.deepEqual(await statuses(8, 'Wr0ng-guess!', stranger), [401, 401, 401, 401, 401, 429, 429, 429]);
    // The owner mistypes four times, then gets it right: that clears the owner's count, not the stranger's.
    assert.deepEqual(await statuses(4, 'Wr0ng-typo!', owner), [401, 401, 401, 401]);
    assert.deepEqual(await statuses(1, known.password, owner), [200]);
    assert.deepEqual(await statuses(6, 'Wr0ng-typo!', owner), [401, 401, 401, 401, 401, 429]);
    assert.deepEqual(await statuses(1, known.password, stranger), [429]);
  });

  test('an IPv6 address counts as its /64: other addresses in the block share its count', async () => {
    assert.equal(sourceOfAttempt('203.0.113.9'), '203.0.113.9');
    assert.equal(sourceOfAttempt('::ffff:203.0.113.9'), '203.0.113.9');
    assert.equal(sourceOfAttempt('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(sourceOfAttempt('2001:0DB8:0000:0000:ffff:1:2:3'), '2001:db8:0:0::/64');
    assert.equal(sourceOfAttempt('2001:db8:1:2:3::'), '2001:db8:1:2::/64');
    assert.equal(sourceOfAttempt('fe80::1%eth0'), 'fe80:0:0:0::/64');
    const { app } = await buildSecurityApp({ rateLimit: { loginFailuresPerAccount: 5 } });
    const known = await signUp(app);
    for (let host = 1; host <= 5; host += 1) {
      const failure = await login(
        app,
        { username: known.user.username, password: 'Wr0ng!' },
        `2001:db8:7:7::${host}`,
      );
      assert.equal(failure.statusCode, 401);
    }
    const sameBlock = { username: known.user.username, password: known.password };
    assert.equal((await login(app, sameBlock, '2001:db8:7:7:abcd::1')).statusCode, 429);
    assert.equal((await login(app, sameBlock, '2001:db8:7:8::1')).statusCode, 200);
    summary.push('IPv6 counted per /64');
  });

  test('account deletion and password change share the throttle, counted before their scrypt', async () => {
    const { app } = await buildSecurityApp({ rateLimit: { loginFailuresPerAccount: 5 } });
    const checks = countPasswordChecks(app);
    const victim = await signUp(app);
    const address = '203.0.113.80';
    // A stolen token: 12 concurrent guesses at DELETE /users/me.
    checks.count = 0;
    const deletions = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        app.inject({
          method: 'DELETE',
          url: '/api/users/me',
          headers: victim.headers,
          payload: { password: `Wr0ng-${index}!` },
          remoteAddress: address,
        }),
      ),
    );
    assert.deepEqual(deletions.map((answer) => answer.statusCode).sort(), [
      ...Array(5).fill(403),
      ...Array(7).fill(429),
    ]);
    assert.equal(checks.count, 5);
    const locked = deletions.find((answer) => answer.statusCode === 429)!;
    assert.ok(Number(locked.headers['retry-after']) > 0);
    assert.equal(typeof locked.json().message, 'string');
    // The same count also stops sign-in and a password change from that address, even with the right password.
    assert.equal(
      (await login(app, { username: victim.user.username, password: victim.password }, address)).statusCode,
      429,
    );
    const change = await app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: victim.headers,
      payload: { currentPassword: victim.password, newPassword: 'N3w-Passw0rd!' },
      remoteAddress: address,
    });
    assert.equal(change.statusCode, 429, change.body);
    assert.ok(Number(change.headers['retry-after']) > 0);
    assert.equal(checks.count, 5);

    // Mixed: sign-in, deletion and change-password failures from one address add up to one limit.
    const other = await signUp(app);
    const mixed = '203.0.113.81';
    const wrongLogin = () => login(app, { username: other.user.username, password: 'Wr0ng!' }, mixed);
    const wrongDelete = () =>
      app.inject({
        method: 'DELETE',
        url: '/api/users/me',
        headers: other.headers,
        payload: { password: 'Wr0ng!' },
        remoteAddress: mixed,
      });
    const wrongChange = () =>
      app.inject({
        method: 'POST',
        url: '/api/auth/change-password',
        headers: other.headers,
        payload: { currentPassword: 'Wr0ng!', newPassword: 'N3w-Passw0rd!' },
        remoteAddress: mixed,
      });
    const mixedStatuses = [];
    for (const attempt of [wrongLogin, wrongDelete, wrongChange, wrongLogin, wrongChange, wrongDelete])
      mixedStatuses.push((await attempt()).statusCode);
    assert.deepEqual(mixedStatuses, [401, 403, 403, 401, 403, 429]);
    summary.push('DELETE /users/me and change-password: same count, 12 concurrent -> 5 scrypt checks');
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
