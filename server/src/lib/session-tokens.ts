import { SignJWT, jwtVerify } from 'jose';

const ISSUER = 'time-wallet';

export interface SessionClaims {
  userId: string;
  sessionId: string;
}

function keyOf(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
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
    .sign(keyOf(secret));
}

/** Null for anything but an unexpired HS256 token this server signed; the algorithm is pinned, so alg:none fails. */
export async function verifySessionToken(
  secret: string,
  token: string,
  now: number,
): Promise<SessionClaims | null> {
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      currentDate: new Date(now),
      requiredClaims: ['sub', 'jti', 'exp'],
    });
    if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string') return null;
    return { userId: payload.sub, sessionId: payload.jti };
  } catch {
    return null;
  }
}
