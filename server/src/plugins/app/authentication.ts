import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { UserRow } from '../../db/schema.js';
import { unauthorized } from '../../lib/http-errors.js';
import { newId } from '../../lib/ids.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import { signSessionToken, verifySessionToken } from '../../lib/session-tokens.js';
import { USER_AGENT_KEPT } from '../../schemas/auth.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook: answers 401 unless the bearer token names a live session. */
    authenticate(request: FastifyRequest): Promise<void>;
    /** Signs a new token; `userAgent` (the sign-in request's) lets the session list tell devices apart. */
    startSession(userId: string, userAgent?: string): Promise<string>;
    sessionPolicy: SessionPolicy;
    passwords: {
      hash(password: string): Promise<string>;
      verify(password: string, passwordHash: string): Promise<boolean>;
      /** Spends the time of a real verification, so an unknown account answers as slowly as a wrong password. */
      verifyAgainstNobody(password: string): Promise<false>;
    };
  }
  interface FastifyRequest {
    currentUser: UserRow | null;
    sessionId: string | null;
  }
  interface FastifyContextConfig {
    /** Answers without a session (sign-in, registration, the health check); every other API route needs one. */
    public?: boolean;
  }
}

export interface AuthenticationOptions {
  jwtSecret: string;
  tokenTtlSeconds: number;
  passwordHashCost: number;
  /** The browser's inactivity time-out; a session unused for longer (plus a grace) ends on the server too. */
  sessionIdleMinutes: number;
}

/**
 * last_seen_at is written at most once a minute per session, not on every request: a busy session costs one write a
 * minute. It can therefore lag the last request by up to a minute, so the server waits that minute, plus one more
 * for the browser's timer and the request in flight, before it calls a session idle: the browser's own sign-out
 * always comes first.
 */
export const ACTIVITY_WRITE_INTERVAL_MS = 60_000;
export const IDLE_GRACE_MS = 60_000;
/** A bound on one account's rows: signing in beyond it ends the least recently used sessions. */
export const MAX_SESSIONS_PER_USER = 50;

export interface SessionPolicy {
  /** A session whose last recorded use is this long ago (or longer) is refused and deleted. */
  idleLimitMs: number;
}

export function signedInUser(request: FastifyRequest): UserRow {
  if (!request.currentUser) throw unauthorized();
  return request.currentUser;
}

export default fp(
  async function authenticationPlugin(app, options: AuthenticationOptions) {
    let decoyHash: Promise<string> | undefined;

    app.decorate('passwords', {
      hash: (password: string) => hashPassword(password, options.passwordHashCost),
      verify: verifyPassword,
      async verifyAgainstNobody(password: string) {
        decoyHash ??= hashPassword(newId(), options.passwordHashCost);
        await verifyPassword(password, await decoyHash);
        return false as const;
      },
    });

    // Prepared in the background once the app is ready, so the first unknown-account login is not the slow one.
    app.addHook('onReady', async () => {
      decoyHash ??= hashPassword(newId(), options.passwordHashCost);
      decoyHash.catch(() => undefined);
    });

    app.decorateRequest('currentUser', null);
    app.decorateRequest('sessionId', null);

    const sessionPolicy: SessionPolicy = {
      idleLimitMs: options.sessionIdleMinutes * 60_000 + ACTIVITY_WRITE_INTERVAL_MS + IDLE_GRACE_MS,
    };
    app.decorate('sessionPolicy', sessionPolicy);

    app.decorate('startSession', async (userId: string, userAgent = '') => {
      const now = app.now();
      const sessionId = newId();
      const expiresAt = now + options.tokenTtlSeconds * 1000;
      const sessions = app.accountSecurityRepository;
      await sessions.deleteExpiredSessions(userId, now, now - sessionPolicy.idleLimitMs);
      await sessions.createSession({
        id: sessionId,
        userId,
        createdAt: now,
        expiresAt,
        userAgent: userAgent.slice(0, USER_AGENT_KEPT),
      });
      await sessions.keepRecentSessions(userId, MAX_SESSIONS_PER_USER);
      return signSessionToken(options.jwtSecret, { userId, sessionId, issuedAt: now, expiresAt });
    });

    app.decorate('authenticate', async (request: FastifyRequest) => {
      const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(request.headers.authorization ?? '');
      if (!match) throw unauthorized();
      const now = app.now();
      const claims = await verifySessionToken(options.jwtSecret, match[1]!, now);
      if (!claims) throw unauthorized();
      const session = await app.accountSecurityRepository.findSessionUser(
        claims.sessionId,
        claims.userId,
        now,
      );
      if (!session) throw unauthorized();
      if (session.lastSeenAt <= now - sessionPolicy.idleLimitMs) {
        await app.accountSecurityRepository.deleteSession(claims.sessionId);
        throw unauthorized();
      }
      if (now - session.lastSeenAt >= ACTIVITY_WRITE_INTERVAL_MS) {
        await app.accountSecurityRepository.recordSessionActivity(
          claims.sessionId,
          now,
          now - ACTIVITY_WRITE_INTERVAL_MS,
        );
      }
      const { user } = session;
      request.currentUser = user;
      request.sessionId = claims.sessionId;
      if (!request.hasTimeZoneHeader) request.timeZone = user.timeZone;
    });
  },
  { name: 'authentication', dependencies: ['repositories', 'time-zone', 'clock'] },
);
