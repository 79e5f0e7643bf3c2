import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { SignJWT, decodeJwt } from 'jose';
import { signSessionToken } from '../../src/lib/session-tokens.js';
import { signUp } from '../helpers.js';
import {
  NOW,
  PROTECTED_ENDPOINTS,
  buildSecurityApp,
  contextFor,
  databaseState,
  describeEndpoint,
  injectOptions,
  needsSubscriptions,
  report,
  seedActor,
} from './support.js';

const { app, dataDir } = await buildSecurityApp();
const secret = app.config.jwtSecret;
const owner = await seedActor(app, 'tokenOwner');
const ownerContext = contextFor(app, dataDir, owner);

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const live = decodeJwt(owner.token) as { sub: string; jti: string; iss: string; iat: number; exp: number };

async function meWith(token: string) {
  return app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
}

// A second session of the owner, then signed out: its token is genuine, unexpired and correctly signed.
const loggedOut = await signUp(app);
assert.equal((await meWith(loggedOut.token)).statusCode, 200);
assert.equal(
  (await app.inject({ method: 'POST', url: '/api/auth/logout', headers: loggedOut.headers })).statusCode,
  204,
);

// A user whose password is reset: every session made before it ends.
const resetUser = await signUp(app);
assert.equal((await meWith(resetUser.token)).statusCode, 200);
const resetToken = await contextFor(app, dataDir, { ...owner, ...resetUser }).resetToken();
const reset = await app.inject({
  method: 'POST',
  url: '/api/auth/reset-password',
  payload: { token: resetToken, password: 'Brand-n3w-pass!' },
});
assert.equal(reset.statusCode, 200, reset.body);

const VARIANTS: Array<[string, Record<string, string>]> = [
  ['no token', {}],
  ['malformed token', { authorization: 'Bearer not-a-jwt' }],
  [
    'bad signature',
    {
      authorization: `Bearer ${await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(live.iss)
        .setSubject(live.sub)
        .setJti(live.jti)
        .setIssuedAt(live.iat)
        .setExpirationTime(live.exp)
        .sign(new TextEncoder().encode(`${secret}-but-not-this-one`))}`,
    },
  ],
  [
    'alg: none',
    { authorization: `Bearer ${base64url({ alg: 'none', typ: 'JWT' })}.${owner.token.split('.')[1]}.` },
  ],
  [
    'expired',
    {
      // This server's secret and a live session: only the expiry is wrong.
      authorization: `Bearer ${await signSessionToken(secret, {
        userId: live.sub,
        sessionId: live.jti,
        issuedAt: NOW - 2 * 3600_000,
        expiresAt: NOW - 1000,
      })}`,
    },
  ],
  ['revoked by logout', { authorization: `Bearer ${loggedOut.token}` }],
  ['revoked by password reset', { authorization: `Bearer ${resetUser.token}` }],
];

let cases = 0;
after(() =>
  report(
    `${VARIANTS.length} token variants x ${PROTECTED_ENDPOINTS.length} protected endpoints = ${cases} cases, all 401 with one body`,
  ),
);

describe('every protected endpoint refuses every bad token alike', () => {
  test('the variants are otherwise sound: the live token they derive from is accepted', async () => {
    assert.equal((await meWith(owner.token)).statusCode, 200);
  });

  test('7 variants x every protected endpoint: 401, same body, nothing stored', async () => {
    const before = await databaseState(app);
    const bodies = new Map<string, string>();
    for (const endpoint of PROTECTED_ENDPOINTS) {
      const request = await endpoint.valid(ownerContext);
      for (const [variant, headers] of VARIANTS) {
        const response = await app.inject(injectOptions(endpoint, ownerContext, request, { headers }));
        cases += 1;
        const name = `${describeEndpoint(endpoint)} with ${variant}`;
        assert.equal(response.statusCode, 401, `${name}: ${response.body}`);
        bodies.set(name, response.body);
      }
    }
    const distinct = new Set(bodies.values());
    assert.equal(distinct.size, 1, `401 bodies differ: ${JSON.stringify([...distinct])}`);
    assert.deepEqual(JSON.parse([...distinct][0]!), { message: 'Unauthorized' });
    assert.equal(cases, VARIANTS.length * PROTECTED_ENDPOINTS.length);
    assert.deepEqual(await databaseState(app), before);
  });

  test('the same requests with a live session are not refused (each endpoint really is reachable)', async () => {
    for (const endpoint of PROTECTED_ENDPOINTS) {
      // A fresh user per endpoint: logout and account deletion must not spoil the next request.
      const actor = await seedActor(app, 'control', {
        importEvent: false,
        subscriptions: needsSubscriptions(endpoint),
      });
      const ctx = contextFor(app, dataDir, actor);
      const response = await app.inject(injectOptions(endpoint, ctx, await endpoint.valid(ctx)));
      assert.ok(response.statusCode < 300, `${describeEndpoint(endpoint)}: ${response.body}`);
    }
  });
});

describe("the private feed's address is its only key", () => {
  test('a replaced or revoked address answers the 404 of one never issued; a session is no key', async () => {
    const feed = (path: string, headers: Record<string, string> = {}) =>
      app.inject({ method: 'GET', url: path, headers });
    const neverIssued = await feed(`/api/feed/${'A'.repeat(43)}.ics`);
    assert.equal(neverIssued.statusCode, 404);
    const first = owner.feed;
    assert.equal((await feed(first)).statusCode, 200);

    const replaced = await app.inject({ method: 'POST', url: '/api/calendars/feed', headers: owner.headers });
    assert.equal(replaced.statusCode, 200, replaced.body);
    const second = new URL(replaced.json<{ url: string }>().url).pathname;
    assert.notEqual(second, first);
    assert.equal((await feed(second)).statusCode, 200);
    const revoked = await app.inject({
      method: 'DELETE',
      url: '/api/calendars/feed',
      headers: owner.headers,
    });
    assert.equal(revoked.statusCode, 204, revoked.body);

    for (const [name, response] of [
      ['the replaced address', await feed(first)],
      ['the revoked address', await feed(second)],
      ["the revoked address with the owner's session", await feed(second, owner.headers)],
      ['a never-issued address with a session', await feed(`/api/feed/${'B'.repeat(43)}.ics`, owner.headers)],
    ] as const) {
      assert.equal(response.statusCode, 404, `${name}: ${response.body}`);
      assert.equal(response.body, neverIssued.body, name);
      assert.equal(response.headers['content-type'], neverIssued.headers['content-type'], name);
    }
    report('feed: a replaced, a revoked and a never-issued address answer one 404; a session opens none');
  });
});
