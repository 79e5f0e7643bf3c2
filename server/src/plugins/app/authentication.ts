import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { UserRow } from '../../db/schema.js';
import { unauthorized } from '../../lib/http-errors.js';
import { newId } from '../../lib/ids.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import { signSessionToken, verifySessionToken } from '../../lib/session-tokens.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook: answers 401 unless the bearer token names a live session. */
    authenticate(request: FastifyRequest): Promise<void>;
    startSession(userId: string): Promise<string>;
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
}

export interface AuthenticationOptions {
  jwtSecret: string;
  tokenTtlSeconds: number;
  passwordHashCost: number;
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

    app.decorate('startSession', async (userId: string) => {
      const now = app.now();
      const sessionId = newId();
      const expiresAt = now + options.tokenTtlSeconds * 1000;
      await app.accountSecurityRepository.deleteExpiredSessions(userId, now);
      await app.accountSecurityRepository.createSession({ id: sessionId, userId, createdAt: now, expiresAt });
      return signSessionToken(options.jwtSecret, { userId, sessionId, issuedAt: now, expiresAt });
    });

    app.decorate('authenticate', async (request: FastifyRequest) => {
      const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(request.headers.authorization ?? '');
      if (!match) throw unauthorized();
      const now = app.now();
      const claims = await verifySessionToken(options.jwtSecret, match[1]!, now);
      if (!claims) throw unauthorized();
      const user = await app.accountSecurityRepository.findSessionUser(claims.sessionId, claims.userId, now);
      if (!user) throw unauthorized();
      request.currentUser = user;
      request.sessionId = claims.sessionId;
      if (!request.hasTimeZoneHeader) request.timeZone = user.timeZone;
    });
  },
  { name: 'authentication', dependencies: ['repositories', 'time-zone', 'clock'] },
);
