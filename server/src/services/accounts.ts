import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { UserRow } from '../db/schema.js';
import { isUniqueViolation } from '../lib/db-errors.js';
import { HttpError } from '../lib/http-errors.js';
import { newId } from '../lib/ids.js';
import { attemptKeyOfName, attemptKeyOfUser } from '../plugins/app/users-repository.js';
import { DEFAULT_BUDGET_HOURS } from '../schemas/product.js';
import { checkPasswordAttempt, sourceOfAttempt } from './password-attempts.js';

const INVALID_CREDENTIALS = 'Invalid username or password';

export interface NewAccount {
  username: string;
  email: string;
  password: string;
  name: string;
  profilePicture: string;
  /** The zone of the registration request, when it sent one. */
  timeZone: string | null;
}

async function rejectTakenAccount(app: FastifyInstance, username: string, email: string): Promise<void> {
  const taken = await app.usersRepository.takenFields(username, email);
  if (taken.username) throw new HttpError(409, 'Username already exists');
  if (taken.email) throw new HttpError(409, 'Email already exists');
}

/** A new account with the product's default budget; 409 when its username or email is taken, in any letter case. */
export async function createAccount(app: FastifyInstance, account: NewAccount): Promise<UserRow> {
  await rejectTakenAccount(app, account.username, account.email);
  const now = app.now();
  try {
    return await app.usersRepository.create({
      id: newId(),
      username: account.username,
      email: account.email,
      passwordHash: await app.passwords.hash(account.password),
      name: account.name,
      profilePicture: account.profilePicture,
      budgetHours: DEFAULT_BUDGET_HOURS,
      timeZone: account.timeZone ?? 'UTC',
      createdAt: now,
      updatedAt: now,
    });
  } catch (error) {
    // Two registrations racing for the same name: the unique index decides, the answer stays a 409.
    if (isUniqueViolation(error)) await rejectTakenAccount(app, account.username, account.email);
    throw error;
  }
}

/** A free username made from the part of the email before the @ (POST /auth/register takes no username). */
export async function usernameFromEmail(app: FastifyInstance, email: string): Promise<string> {
  let base = (email.split('@')[0] ?? '').replace(/[^A-Za-z0-9_]/g, '').slice(0, 40);
  if (base.length < 3) base = `user${base}`;
  if (!(await app.usersRepository.isUsernameTaken(base))) return base;
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const candidate = `${base}${randomBytes(3).readUIntBE(0, 3) % 10_000}`;
    if (!(await app.usersRepository.isUsernameTaken(candidate))) return candidate;
  }
  return `user_${randomBytes(8).toString('hex')}`;
}

/**
 * The account named by a username or an email, when the password is its own; 401 otherwise, the same for an unknown
 * account (which costs the same hash work). The attempt counts against the account whichever of its names was typed,
 * and past the limit answers 429 (see password-attempts.ts).
 */
export async function signIn(
  app: FastifyInstance,
  credentials: { identifier: string; password: string; ip: string },
): Promise<UserRow> {
  const user = await app.usersRepository.findByLogin(credentials.identifier);
  const attempt = {
    account: user ? attemptKeyOfUser(user.id) : attemptKeyOfName(credentials.identifier),
    source: sourceOfAttempt(credentials.ip),
  };
  const passwordMatches = await checkPasswordAttempt(app, attempt, () =>
    user
      ? app.passwords.verify(credentials.password, user.passwordHash)
      : app.passwords.verifyAgainstNobody(credentials.password),
  );
  if (!user || !passwordMatches) throw new HttpError(401, INVALID_CREDENTIALS);
  return user;
}

/**
 * Whether `password` is the signed-in user's, through the same throttle as sign-in: a token alone must not buy
 * unlimited guesses (password change, account deletion).
 */
export function isOwnPassword(
  app: FastifyInstance,
  user: UserRow,
  password: string,
  ip: string,
): Promise<boolean> {
  const attempt = { account: attemptKeyOfUser(user.id), source: sourceOfAttempt(ip) };
  return checkPasswordAttempt(app, attempt, () => app.passwords.verify(password, user.passwordHash));
}

/** 403 with a field error unless `currentPassword` is right; then the new one replaces it and other sessions end. */
export async function changePassword(
  app: FastifyInstance,
  session: { user: UserRow; sessionId: string; ip: string },
  passwords: { currentPassword: string; newPassword: string },
): Promise<void> {
  if (!(await isOwnPassword(app, session.user, passwords.currentPassword, session.ip))) {
    const message = 'Current password is incorrect';
    throw new HttpError(403, message, { errors: [{ field: 'currentPassword', message }] });
  }
  const passwordHash = await app.passwords.hash(passwords.newPassword);
  await app.accountSecurityRepository.changePassword(
    session.user.id,
    passwordHash,
    session.sessionId,
    app.now(),
  );
}
