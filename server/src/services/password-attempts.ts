import { isIPv6 } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../lib/http-errors.js';

/**
 * The one throttle in front of every password check (sign-in, account deletion, password change).
 *
 * Attempts are counted per account AND source. A hard lock per account alone lets anyone who knows a username keep
 * its owner out; counted per source, a stranger's wrong guesses lock only the stranger's address, the owner still
 * signs in from elsewhere, and a guesser gets `limit` tries per address and window. An IPv6 source is its /64, the
 * block one subscriber usually holds, so cycling addresses inside it does not buy more guesses.
 */
export interface PasswordAttempt {
  /** attemptKeyOfUser(id) or, for a name that matches no account, attemptKeyOfName(name). */
  account: string;
  /** sourceOfAttempt(request.ip). */
  source: string;
}

export const TOO_MANY_ATTEMPTS = 'Too many failed sign-in attempts for this account. Try again later.';

function ipv6Network(address: string): string {
  const [head = '', tail] = address.split('%')[0]!.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  // An embedded IPv4 address (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) fills the last two groups.
  const width = (groups: string[]) => groups.reduce((sum, group) => sum + (group.includes('.') ? 2 : 1), 0);
  const missing = tail === undefined ? 0 : 8 - width(headGroups) - width(tailGroups);
  const groups = [...headGroups, ...Array<string>(Math.max(0, missing)).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

/** The address the attempt comes from as the throttle counts it: an IPv4 address, or an IPv6 address's /64. */
export function sourceOfAttempt(ip: string): string {
  if (!isIPv6(ip)) return ip;
  const mappedIpv4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return mappedIpv4 ? mappedIpv4[1]! : ipv6Network(ip);
}

/**
 * Counts the attempt, then runs `verify` (the scrypt work) only while the account has attempts left from this
 * source: 429 with Retry-After otherwise. The count is taken atomically before the hash, so concurrent guesses
 * cannot all pass a limit that none of them has written yet. The right password clears this source's count.
 */
export async function checkPasswordAttempt(
  app: FastifyInstance,
  attempt: PasswordAttempt,
  verify: () => Promise<boolean>,
): Promise<boolean> {
  const { loginFailuresPerAccount: limit, loginFailureWindowMs: windowMs } = app.config.rateLimit;
  const now = app.now();
  const counted = await app.accountSecurityRepository.countPasswordAttempt(
    attempt.account,
    attempt.source,
    now,
    windowMs,
  );
  if (counted.attempts > limit) {
    const retryAfterSeconds = Math.max(1, Math.ceil((counted.windowStartedAt + windowMs - now) / 1000));
    throw new HttpError(429, TOO_MANY_ATTEMPTS, { headers: { 'retry-after': String(retryAfterSeconds) } });
  }
  const matches = await verify();
  if (matches) await app.accountSecurityRepository.clearPasswordAttempts(attempt.account, attempt.source);
  return matches;
}
