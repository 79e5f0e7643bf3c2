import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ACCOUNT_FIELDS,
  SIGN_IN_FIELDS,
  checkAccountFields,
  oneSignInIdentifier,
} from '../../lib/account-rules.js';
import { notFound } from '../../lib/http-errors.js';
import { signedInUser } from '../../plugins/app/authentication.js';
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
import { changePassword, createAccount, signIn, usernameFromEmail } from '../../services/accounts.js';
import { resetPassword, sendPasswordResetLink } from '../../services/password-reset.js';

const { username, email, password, name, currentPassword, newPassword } = ACCOUNT_FIELDS;

const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const authRateLimit = { rateLimit: { max: app.config.rateLimit.authPerMinute, timeWindow: 60_000 } };

  app.post(
    '/register/user',
    {
      config: { ...authRateLimit, public: true },
      schema: {
        tags: ['auth'],
        summary: 'Register with username, email, password, name and an optional profile picture',
        body: RegisterUserBody,
        response: { 201: RegistrationResponse },
      },
      preValidation: checkAccountFields(RegisterUserBody, { username, email, password, name }),
    },
    async (request, reply) => {
      const user = await createAccount(app, {
        ...request.body,
        profilePicture: request.body.profilePicture ?? '',
        timeZone: request.hasTimeZoneHeader ? request.timeZone : null,
      });
      return reply.code(201).send({ message: 'Registration successful', user: toUserJson(user) });
    },
  );

  app.post(
    '/register',
    {
      config: { ...authRateLimit, public: true },
      schema: {
        tags: ['auth'],
        summary: 'Register with email, password and name; signs in at once',
        body: RegisterBody,
        response: { 201: SessionResponse },
      },
      preValidation: checkAccountFields(RegisterBody, { email, password, name }),
    },
    async (request, reply) => {
      const user = await createAccount(app, {
        ...request.body,
        username: await usernameFromEmail(app, request.body.email),
        profilePicture: '',
        timeZone: request.hasTimeZoneHeader ? request.timeZone : null,
      });
      const token = await app.startSession(user.id, request.headers['user-agent']);
      return reply.code(201).send({ token, user: toUserJson(user) });
    },
  );

  app.post(
    '/login',
    {
      config: { ...authRateLimit, public: true },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a username or an email',
        body: LoginBody,
        response: { 200: LoginResponse },
      },
      preValidation: checkAccountFields(LoginBody, SIGN_IN_FIELDS, oneSignInIdentifier),
    },
    async (request) => {
      const { body } = request;
      const identifier = body.username ?? body.email ?? '';
      const user = await signIn(app, { identifier, password: body.password, ip: request.ip });
      const token = await app.startSession(user.id, request.headers['user-agent']);
      return { message: 'Login successful', token, user: toUserJson(user) };
    },
  );

  app.get(
    '/validate',
    {
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
      config: { ...authRateLimit, public: true },
      schema: {
        tags: ['auth'],
        summary:
          'Mail a single-use reset link valid for 30 minutes; answers the same whether or not the account exists',
        body: ForgotPasswordBody,
        response: { 202: Message },
      },
      preValidation: checkAccountFields(ForgotPasswordBody, { email }),
    },
    async (request, reply) => {
      await sendPasswordResetLink(app, request.body.email);
      return reply.code(202).send({
        message: 'If an account exists for that email, a link to reset the password has been sent.',
      });
    },
  );

  app.post(
    '/reset-password',
    {
      config: { ...authRateLimit, public: true },
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a reset token; signs out every session',
        body: ResetPasswordBody,
        response: { 200: Message },
      },
      preValidation: checkAccountFields(ResetPasswordBody, { password }),
    },
    async (request) => {
      await resetPassword(app, request.body.token, request.body.password);
      return { message: 'Your password has been reset. Sign in with your new password.' };
    },
  );

  app.post(
    '/change-password',
    {
      config: authRateLimit,
      schema: {
        tags: ['auth'],
        summary:
          'Change the password of the signed-in user; signs out every other session (the one asking stays)',
        security: bearerAuth,
        body: ChangePasswordBody,
        response: { 200: Message },
      },
      preValidation: checkAccountFields(ChangePasswordBody, { currentPassword, newPassword }),
    },
    async (request) => {
      await changePassword(
        app,
        { user: signedInUser(request), sessionId: request.sessionId!, ip: request.ip },
        request.body,
      );
      return { message: 'Your password has been changed. Other sessions were signed out.' };
    },
  );

  // Sessions: each device signed in, listed so one can be ended from another (ASVS 7.4/7.5).
  app.get(
    '/sessions',
    {
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
