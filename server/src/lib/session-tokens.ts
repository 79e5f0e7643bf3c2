import { webcrypto } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { LruCache } from './lru-cache.js';

const ISSUER = 'time-wallet';

export interface SessionClaims {
  userId: string;
  sessionId: string;
}

// Importing the raw secret is a WebCrypto call of its own on every request: each secret is imported once. A process
// has one secret; the few kept cover tests that build apps with different ones.
const keys = new LruCache<string, Promise<webcrypto.CryptoKey>>(8);

function keyOf(secret: string): Promise<webcrypto.CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = webcrypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
    keys.set(secret, key);
  }
  return key;
}

export async function signSessionToken(
  secret: string,
  claims: SessionClaims & { issuedAt: number; expiresAt: number },
): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setSubject(claims.userId)
    .setJti(claims.sessionId)
    .setIssuedAt(Math.floor(claims.issuedAt / 1000))
    .setExpirationTime(Math.floor(claims.expiresAt / 1000))
    .sign(await keyOf(secret));
}

// Every request of a session carries the same token, and WebCrypto's HMAC check is most of a small read's cost: a
// token that verified is remembered with its expiry, so it is checked once, not on each request. Only a token that
// passed the full check gets in, under the secret it passed with; the expiry is still checked each time, and
// revocation (sign-out, a password reset) is the session row the caller looks up on every request anyway. Past the
// bound the least recently used session is checked in full again, not every session at once.
export const VERIFIED_TOKENS_KEPT = 10_000;
const verifiedTokens = new LruCache<
  string,
  { secret: string; claims: SessionClaims; expiresAtSeconds: number }
>(VERIFIED_TOKENS_KEPT);

/** How many verified tokens are remembered now (for tests). */
export function verifiedTokenCount(): number {
  return verifiedTokens.size;
}

/** Null for anything but an unexpired HS256 token this server signed; the algorithm is pinned, so alg:none fails. */
export async function verifySessionToken(
  secret: string,
  token: string,
  now: number,
): Promise<SessionClaims | null> {
  const nowSeconds = Math.floor(now / 1000);
  const known = verifiedTokens.get(token);
  if (known && known.secret === secret) {
    if (known.expiresAtSeconds > nowSeconds) return known.claims;
    verifiedTokens.delete(token);
    return null;
  }
  try {
    const { payload } = await jwtVerify(token, await keyOf(secret), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      currentDate: new Date(now),
      requiredClaims: ['sub', 'jti', 'exp'],
    });
    if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string') return null;
    const claims = { userId: payload.sub, sessionId: payload.jti };
    verifiedTokens.set(token, { secret, claims, expiresAtSeconds: payload.exp! });
    return claims;
  } catch {
    return null;
  }
}
