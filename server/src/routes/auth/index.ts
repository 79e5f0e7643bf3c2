import { createHash, randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  collectFieldErrors,
  emailError,
  nameError,
  passwordError,
  usernameError,
} from '../../lib/account-rules.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { HttpError, notFound, validationFailed } from '../../lib/http-errors.js';
import { singleLine } from '../../lib/mailer.js';
import { newId } from '../../lib/ids.js';
import { signedInUser } from '../../plugins/app/authentication.js';
import { attemptKeyOfName, attemptKeyOfUser } from '../../plugins/app/users-repository.js';
import { checkPasswordAttempt, sourceOfAttempt } from '../../services/password-attempts.js';
import {
  ChangePasswordBody,
  ForgotPasswordBody,
  LoginBody,
  LoginResponse,
  Message,
  RegisterBody,
  RegisterUserBody,
  RegistrationResponse,
  ResetPasswordBody,
  SessionList,
  SessionResponse,
  ValidateResponse,
  toSessionJson,
} from '../../schemas/auth.js';
import { IdParams, NoBody, bearerAuth } from '../../schemas/common.js';
import { UserEnvelope, toUserJson } from '../../schemas/user.js';
import type { UserRow } from '../../db/schema.js';

const RESET_TOKEN_TTL_MS = 30 * 60_000;
/** Reset mails per account per hour: enough for a lost mail or two, too few to flood a mailbox. */
const RESET_MAILS_PER_ACCOUNT = 3;
const RESET_MAIL_WINDOW_MS = 3600_000;
const INVALID_CREDENTIALS = 'Invalid username or password';
const CURRENT_PASSWORD_INCORRECT = 'Current password is incorrect';

function required(
  value: string | undefined,
  label: string,
  check: (value: string) => string | null,
): string | null {
  return value === undefined || value.length === 0 ? `${label} is required` : check(value);
}

async function rejectTakenAccount(app: FastifyInstance, username: string, email: string): Promise<void> {
  const taken = await app.usersRepository.takenFields(username, email);
  if (taken.username) throw new HttpError(409, 'Username already exists');
  if (taken.email) throw new HttpError(409, 'Email already exists');
}

async function createAccount(
  app: FastifyInstance,
  request: FastifyRequest,
  account: { username: string; email: string; password: string; name: string; profilePicture: string },
): Promise<UserRow> {
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
      budgetHours: 15,
      timeZone: request.hasTimeZoneHeader ? request.timeZone : 'UTC',
      createdAt: now,
      updatedAt: now,
    });
  } catch (error) {
    // Two registrations racing for the same name: the unique index decides, the answer stays a 409.
    if (isUniqueViolation(error)) await rejectTakenAccount(app, account.username, account.email);
    throw error;
  }
}

async function usernameFromEmail(app: FastifyInstance, email: string): Promise<string> {
  let base = (email.split('@')[0] ?? '').replace(/[^A-Za-z0-9_]/g, '').slice(0, 40);
  if (base.length < 3) base = `user${base}`;
  if (!(await app.usersRepository.isUsernameTaken(base))) return base;
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const candidate = `${base}${randomBytes(3).readUIntBE(0, 3) % 10_000}`;
    if (!(await app.usersRepository.isUsernameTaken(candidate))) return candidate;
  }
  return `user_${randomBytes(8).toString('hex')}`;
}

const hashResetToken = (token: string) => createHash('sha256').update(token).digest('hex');

const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const authRateLimit = { rateLimit: { max: app.config.rateLimit.authPerMinute, timeWindow: 60_000 } };

  app.post(
    '/register/user',
    {
      config: authRateLimit,
      schema: {
        tags: ['auth'],
        summary: 'Register with username, email, password, name and an optional profile picture',
        body: RegisterUserBody,
        response: { 201: RegistrationResponse },
      },
    },
    async (request, reply) => {
      const { username, email, password, name, profilePicture } = request.body;
      const errors = collectFieldErrors([
        ['username', required(username, 'Username', usernameError)],
        ['email', required(email?.trim(), 'Email', emailError)],
        ['password', required(password, 'Password', passwordError)],
        ['name', required(name, 'Name', nameError)],
      ]);
      if (errors.length > 0) throw validationFailed(errors);
      const user = await createAccount(app, request, {
        username: username!,
        email: email!.trim(),
        password: password!,
        name: name!.trim(),
        profilePicture: profilePicture ?? '',
      });
      return reply.code(201).send({ message: 'Registration successful', user: toUserJson(user) });
    },
  );

  app.post(
    '/register',
    {
      config: authRateLimit,
      schema: {
        tags: ['auth'],
        summary: 'Register with email, password and name; signs in at once',
        body: RegisterBody,
        response: { 201: SessionResponse },
      },
    },
    async (request, reply) => {
      const { email, password, name } = request.body;
      const errors = collectFieldErrors([
        ['email', required(email?.trim(), 'Email', emailError)],
        ['password', required(password, 'Password', passwordError)],
        ['name', required(name, 'Name', nameError)],
      ]);
      if (errors.length > 0) throw validationFailed(errors);
      const user = await createAccount(app, request, {
        username: await usernameFromEmail(app, email!.trim()),
        email: email!.trim(),
        password: password!,
        name: name!.trim(),
        profilePicture: '',
      });
      const token = await app.startSession(user.id, request.headers['user-agent']);
      return reply.code(201).send({ token, user: toUserJson(user) });
    },
  );

  app.post(
    '/login',
    {
      config: authRateLimit,
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a username or an email',
        body: LoginBody,
        response: { 200: LoginResponse },
      },
    },
    async (request) => {
      const identifier = (request.body.username?.trim() || request.body.email?.trim()) ?? '';
      const { password } = request.body;
      const errors = collectFieldErrors([
        ['username', identifier ? null : 'Username is required'],
        ['password', password ? null : 'Password is required'],
      ]);
      if (errors.length > 0) throw validationFailed(errors);

      // The account is looked up first so the attempt counts against it whichever of its names was typed.
      const user = await app.usersRepository.findByLogin(identifier);
      const attempt = {
        account: user ? attemptKeyOfUser(user.id) : attemptKeyOfName(identifier),
        source: sourceOfAttempt(request.ip),
      };
      const passwordMatches = await checkPasswordAttempt(app, attempt, () =>
        user
          ? app.passwords.verify(password, user.passwordHash)
          : app.passwords.verifyAgainstNobody(password),
      );
      if (!user || !passwordMatches) throw new HttpError(401, INVALID_CREDENTIALS);
      const token = await app.startSession(user.id, request.headers['user-agent']);
      return { message: 'Login successful', token, user: toUserJson(user) };
    },
  );

  app.get(
    '/validate',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Check the bearer token',
        security: bearerAuth,
        response: { 200: ValidateResponse },
      },
    },
    async (request) => ({ valid: true, user: toUserJson(signedInUser(request)) }),
  );

  app.get(
    '/me',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user',
        security: bearerAuth,
        response: { 200: UserEnvelope },
      },
    },
    async (request) => ({ user: toUserJson(signedInUser(request)) }),
  );

  app.post(
    '/logout',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Revoke the bearer token',
        security: bearerAuth,
        body: NoBody,
        response: { 204: { type: 'null' } },
      },
    },
    async (request, reply) => {
      if (request.sessionId) await app.accountSecurityRepository.deleteSession(request.sessionId);
      return reply.code(204).send();
    },
  );

  app.post(
    '/forgot-password',
    {
      config: authRateLimit,
      schema: {
        tags: ['auth'],
        summary:
          'Mail a single-use reset link valid for 30 minutes; answers the same whether or not the account exists',
        body: ForgotPasswordBody,
        response: { 202: Message },
      },
    },
    async (request, reply) => {
      const email = request.body.email.trim();
      const problem = required(email, 'Email', emailError);
      if (problem) throw validationFailed([{ field: 'email', message: problem }]);
      const user = await app.usersRepository.findByEmail(email);
      if (user) {
        const token = randomBytes(32).toString('base64url');
        const now = app.now();
        // Past the limit the answer stays the same 202, so it tells nothing about the account.
        const issued = await app.accountSecurityRepository.issuePasswordReset(
          {
            tokenHash: hashResetToken(token),
            userId: user.id,
            createdAt: now,
            expiresAt: now + RESET_TOKEN_TTL_MS,
          },
          { perAccount: RESET_MAILS_PER_ACCOUNT, windowMs: RESET_MAIL_WINDOW_MS },
        );
        if (issued) {
          const link = `${app.config.appUrl}/auth/reset-password?token=${token}`;
          app.mailer.send({
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
          });
        }
      }
      return reply.code(202).send({
        message: 'If an account exists for that email, a link to reset the password has been sent.',
      });
    },
  );

  app.post(
    '/reset-password',
    {
      config: authRateLimit,
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a reset token; signs out every session',
        body: ResetPasswordBody,
        response: { 200: Message },
      },
    },
    async (request) => {
      const { token, password } = request.body;
      const problem = required(password, 'Password', passwordError);
      if (problem) throw validationFailed([{ field: 'password', message: problem }]);
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
      return { message: 'Your password has been reset. Sign in with your new password.' };
    },
  );

  app.post(
    '/change-password',
    {
      config: authRateLimit,
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary:
          'Change the password of the signed-in user; signs out every other session (the one asking stays)',
        security: bearerAuth,
        body: ChangePasswordBody,
        response: { 200: Message },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const { currentPassword, newPassword } = request.body;
      const errors = collectFieldErrors([
        ['currentPassword', currentPassword ? null : 'Current password is required'],
        ['newPassword', required(newPassword, 'New password', passwordError)],
      ]);
      if (errors.length > 0) throw validationFailed(errors);
      const attempt = { account: attemptKeyOfUser(user.id), source: sourceOfAttempt(request.ip) };
      if (
        !(await checkPasswordAttempt(app, attempt, () =>
          app.passwords.verify(currentPassword, user.passwordHash),
        ))
      ) {
        throw new HttpError(403, CURRENT_PASSWORD_INCORRECT, {
          errors: [{ field: 'currentPassword', message: CURRENT_PASSWORD_INCORRECT }],
        });
      }
      const passwordHash = await app.passwords.hash(newPassword);
      await app.accountSecurityRepository.changePassword(
        user.id,
        passwordHash,
        request.sessionId!,
        app.now(),
      );
      return { message: 'Your password has been changed. Other sessions were signed out.' };
    },
  );

  // Sessions: each device signed in, listed so one can be ended from another (ASVS 7.4/7.5).
  app.get(
    '/sessions',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary:
          "The user's live sessions (not expired, not idle), most recently used first; `current` marks this token's",
        security: bearerAuth,
        response: { 200: SessionList },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const now = app.now();
      const sessions = await app.accountSecurityRepository.listLiveSessions(
        user.id,
        now,
        now - app.sessionPolicy.idleLimitMs,
      );
      return { sessions: sessions.map((session) => toSessionJson(session, request.sessionId)) };
    },
  );

  app.delete(
    '/sessions/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary:
          "End one of the user's sessions (this one included); another user's answers like a missing one",
        security: bearerAuth,
        params: IdParams,
        body: NoBody,
        response: { 204: { type: 'null' } },
      },
    },
    async (request, reply) => {
      const ended = await app.accountSecurityRepository.deleteUserSession(
        signedInUser(request).id,
        request.params.id,
      );
      if (!ended) throw notFound();
      return reply.code(204).send();
    },
  );

  app.post(
    '/logout-all',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Sign out everywhere: end every session of the user, this one included',
        security: bearerAuth,
        body: NoBody,
        response: { 204: { type: 'null' } },
      },
    },
    async (request, reply) => {
      await app.accountSecurityRepository.deleteUserSessions(signedInUser(request).id);
      return reply.code(204).send();
    },
  );
};

export default authRoutes;
