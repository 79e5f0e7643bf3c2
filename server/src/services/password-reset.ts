import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { UserRow } from '../db/schema.js';
import { HttpError } from '../lib/http-errors.js';
import { singleLine } from '../lib/mailer.js';

/** A reset link works for this long, once. */
export const RESET_TOKEN_TTL_MS = 30 * 60_000;
/** Reset mails per account per hour: enough for a lost mail or two, too few to flood a mailbox. */
const RESET_MAILS_PER_ACCOUNT = 3;
const RESET_MAIL_WINDOW_MS = 3600_000;

/** Only the token's hash is stored: a copy of the database does not hold live links. */
const hashResetToken = (token: string) => createHash('sha256').update(token).digest('hex');

function resetMail(user: UserRow, link: string) {
  return {
    to: user.email,
    subject: 'Reset your Time Wallet password',
    text: [
      `Hello ${singleLine(user.name)},`,
      '',
      'Someone asked to reset the password of your Time Wallet account. Open this link within 30 minutes to choose a new one:',
      '',
      singleLine(link),
      '',
      'If it was not you, ignore this mail: your password stays as it is.',
    ].join('\n'),
  };
}

/**
 * Mails a single-use link to the account with this email, if there is one and it has not had its hourly share of
 * links. The caller answers the same whatever happens here, so the answer tells nothing about the account. A new link
 * makes the account's older ones unusable.
 */
export async function sendPasswordResetLink(app: FastifyInstance, email: string): Promise<void> {
  const user = await app.usersRepository.findByEmail(email);
  if (!user) return;
  const token = randomBytes(32).toString('base64url');
  const now = app.now();
  const issued = await app.accountSecurityRepository.issuePasswordReset(
    {
      tokenHash: hashResetToken(token),
      userId: user.id,
      createdAt: now,
      expiresAt: now + RESET_TOKEN_TTL_MS,
    },
    { perAccount: RESET_MAILS_PER_ACCOUNT, windowMs: RESET_MAIL_WINDOW_MS },
  );
  if (issued) app.mailer.send(resetMail(user, `${app.config.appUrl}/auth/reset-password?token=${token}`));
}

/** Sets the new password with a live link's token and signs out every session; 400 for a bad, used or old link. */
export async function resetPassword(app: FastifyInstance, token: string, password: string): Promise<void> {
  const tokenHash = hashResetToken(token);
  const reset = await app.accountSecurityRepository.findPasswordReset(tokenHash);
  const now = app.now();
  if (!reset) throw new HttpError(400, 'This password reset link is invalid');
  if (reset.usedAt !== null) throw new HttpError(400, 'This password reset link has already been used');
  if (reset.expiresAt <= now)
    throw new HttpError(400, 'This password reset link has expired; ask for a new one');
  const passwordHash = await app.passwords.hash(password);
  const completed = await app.accountSecurityRepository.completePasswordReset(
    tokenHash,
    reset.userId,
    passwordHash,
    now,
  );
  if (!completed) throw new HttpError(400, 'This password reset link has already been used');
}
