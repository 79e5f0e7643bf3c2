import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  VERIFIED_TOKENS_KEPT,
  signSessionToken,
  verifiedTokenCount,
  verifySessionToken,
} from '../../src/lib/session-tokens.js';

// verifySessionToken remembers tokens that passed; what it remembers must answer exactly as a full check would.
const secret = 'a-secret-of-at-least-thirty-two-characters';
const otherSecret = 'another-secret-of-at-least-thirty-two-chars';
const issuedAt = Date.parse('2026-03-11T15:00:00.000Z');
const expiresAt = issuedAt + 3_600_000;
const claims = { userId: 'user-1', sessionId: 'session-1' };

async function freshToken(sessionId = `session-${Math.random()}`) {
  return signSessionToken(secret, { ...claims, sessionId, issuedAt, expiresAt });
}

/** The token signSessionToken makes, signed synchronously: ten thousand of them through WebCrypto take seconds. */
function quickToken(sessionId: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({
    iss: 'time-wallet',
    sub: claims.userId,
    jti: sessionId,
    iat: issuedAt / 1000,
    exp: expiresAt / 1000,
  })}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

describe('session tokens', () => {
  test('a verified token still verifies on the next request', async () => {
    const token = await freshToken('session-1');
    assert.deepEqual(await verifySessionToken(secret, token, issuedAt + 1000), claims);
    assert.deepEqual(await verifySessionToken(secret, token, issuedAt + 2000), claims);
  });

  test('a token that verified before is refused once it has expired', async () => {
    const token = await freshToken();
    assert.ok(await verifySessionToken(secret, token, issuedAt + 1000));
    assert.equal(await verifySessionToken(secret, token, expiresAt), null);
    assert.equal(await verifySessionToken(secret, token, expiresAt + 60_000), null);
  });

  test('a token that verified under one secret is refused under another', async () => {
    const token = await freshToken();
    assert.ok(await verifySessionToken(secret, token, issuedAt + 1000));
    assert.equal(await verifySessionToken(otherSecret, token, issuedAt + 1000), null);
  });

  test('a token with an altered signature is refused after the genuine one verified', async () => {
    const token = await freshToken();
    assert.ok(await verifySessionToken(secret, token, issuedAt + 1000));
    const signatureAt = token.lastIndexOf('.') + 1;
    const altered = token[signatureAt] === 'A' ? 'B' : 'A';
    const forged = token.slice(0, signatureAt) + altered + token.slice(signatureAt + 1);
    assert.equal(await verifySessionToken(secret, forged, issuedAt + 1000), null);
  });

  test('an expired token is forgotten, not kept until the cache is full', async () => {
    const token = await freshToken();
    assert.ok(await verifySessionToken(secret, token, issuedAt + 1000));
    const remembered = verifiedTokenCount();
    assert.equal(await verifySessionToken(secret, token, expiresAt), null);
    assert.equal(verifiedTokenCount(), remembered - 1);
  });

  test('past its bound the least recently used token is forgotten, not every session at once', async () => {
    const hot = await freshToken();
    for (let index = 0; index <= VERIFIED_TOKENS_KEPT; index += 1) {
      assert.ok(await verifySessionToken(secret, quickToken(`bulk-${index}`), issuedAt + 1000));
      if (index % 100 === 0) assert.ok(await verifySessionToken(secret, hot, issuedAt + 1000));
    }
    assert.equal(verifiedTokenCount(), VERIFIED_TOKENS_KEPT);
  });
});
