import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autoload from '@fastify/autoload';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { loadConfig, trustProxyOption, type AppConfig } from './config.js';
import { HttpError } from './lib/http-errors.js';
import { fieldWithControlCharacter } from './lib/input-rules.js';
import { fastifySchemaCompilers, onFirstUse, type SchemaCompilers } from './lib/lazy-schema-compilers.js';
import { createMailer, type Mailer } from './lib/mailer.js';
import authentication from './plugins/app/authentication.js';
import clock from './plugins/app/clock.js';
import database from './plugins/app/database.js';
import errorHandler from './plugins/app/error-handler.js';
import icsParsePool from './plugins/app/ics-parse-pool.js';
import jobs from './plugins/app/jobs.js';
import repositories from './plugins/app/repositories.js';
import timeZone from './plugins/app/time-zone.js';
import trashSweep from './plugins/app/trash-sweep.js';
import reminders from './services/reminders.js';
import cors from './plugins/external/cors.js';
import helmet from './plugins/external/helmet.js';
import multipart from './plugins/external/multipart.js';
import rateLimit from './plugins/external/rate-limit.js';
import swagger from './plugins/external/swagger.js';
import { schemasForSharing } from './schemas/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    mailer: Mailer;
  }
}

export interface BuildAppOptions {
  /** Overrides on top of the environment; tests pass a fresh database and dataDir here. */
  config?: Partial<AppConfig>;
  env?: NodeJS.ProcessEnv;
  now?: () => number;
  logger?: FastifyServerOptions['logger'];
  /** Where the production logger (same level and redaction) writes; tests read it back. */
  logStream?: { write(line: string): void };
  /**
   * Fastify's schema compilers (its defaults when absent). The test suites build hundreds of apps in one process and
   * pass compilers that reuse what an earlier app compiled from the same schema (server/test/support/schema-compilers.ts).
   */
  schemaCompilers?: SchemaCompilers;
  /** Compile every route's schemas while starting, as Fastify does by default, instead of on each one's first use. */
  compileSchemasAtStart?: boolean;
}

/** Each folder of routes/ is the URL prefix of its index.ts (under /api); routes/autohooks.ts guards them all. */
const ROUTES_DIR = fileURLToPath(new URL('./routes', import.meta.url));

// Run from its TypeScript source (tsx in development and tests), the app's route files are .ts. @fastify/autoload only
// recognises tsx started as a CLI, not `node --import tsx`, so it is told here; built, the files are .js.
if (import.meta.url.endsWith('.ts')) process.env.FASTIFY_AUTOLOAD_TYPESCRIPT ??= '1';

/** Answers that hold neither a user's data nor a session token: the health check and the API's documentation. */
const CACHEABLE_ROUTE = /^\/api\/(health|docs|openapi\.json)(\/|$)/;

export async function buildApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const config = loadConfig(options.env ?? process.env, options.config);

  const app = Fastify({
    logger: options.logger ?? {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    bodyLimit: config.bodyLimitBytes,
    requestTimeout: config.requestTimeoutMs,
    trustProxy: trustProxyOption(config.trustProxy),
    // A URL the router cannot decode ('/api/tasks/%ff') or an over-long id names no record: the same 404 as a missing
    // one, as JSON, instead of Fastify's default body with its internal error code.
    frameworkErrors: (error, request, reply) => {
      const status =
        error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 404 : 400;
      request.log.info({ code: error.code }, error.message);
      // This answer skips every hook, CORS and helmet included, so it sets what the client needs to read it.
      const origin = request.headers.origin;
      const headers: Record<string, string> = {
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
        // The headers helmet sets on every other answer that matter for an error body.
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
        vary: 'Origin',
      };
      if (origin && config.corsOrigins.includes(origin)) {
        headers['access-control-allow-origin'] = origin;
        headers['access-control-allow-credentials'] = 'true';
      }
      // The option's reply is generic over every route's reply schema; this answer belongs to none of them.
      void (reply as unknown as FastifyReply)
        .code(status)
        .headers(headers)
        .send({ message: status === 404 ? 'Not found' : 'Bad request' });
    },
    schemaController: {
      compilersFactory: options.compileSchemasAtStart
        ? (options.schemaCompilers ?? fastifySchemaCompilers())
        : onFirstUse(options.schemaCompilers ?? fastifySchemaCompilers()),
    },
    ajv: {
      customOptions: {
        // Unknown properties are an error and JSON types are not coerced: a client bug must surface as a 400.
        removeAdditional: false,
        coerceTypes: false,
        useDefaults: false,
        verbose: true,
        keywords: ['errorMessage'],
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('config', config);
  app.decorate(
    'mailer',
    createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      outboxDir: path.join(config.dataDir, 'outbox'),
      log: app.log,
    }),
  );
  app.addHook('onClose', async () => app.mailer.flush());
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // Answers carry a user's data or a session token: no browser or shared cache may keep them.
    // A route that says how it may be cached (the private feed) keeps its own.
    if (!CACHEABLE_ROUTE.test(request.routeOptions.url ?? '') && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
  });

  // An empty body with a JSON content type (a body-less POST from some clients) reads as no body. Strings with NUL or
  // other control characters are refused here, once for every route: PostgreSQL cannot store NUL at all.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body.length === 0) {
      done(null, undefined);
      return;
    }
    parseJson(request, typeof body === 'string' ? body : body.toString('utf8'), (error, parsed) => {
      if (error) return done(error, undefined);
      let field: string | null;
      try {
        field = fieldWithControlCharacter(parsed);
      } catch {
        // Only a nesting deep enough to exhaust the stack gets here; JSON.parse usually refuses it first.
        return done(new HttpError(400, 'Request body is nested too deeply'), undefined);
      }
      if (field) {
        const message = `${field} must not contain control characters`;
        return done(new HttpError(400, 'Validation failed', { errors: [{ field, message }] }), undefined);
      }
      done(null, parsed);
    });
  });
  // The API reads JSON (and multipart for the .ics upload) only: a text/plain body is a 415, not a string to validate.
  app.removeContentTypeParser('text/plain');

  for (const schema of schemasForSharing) app.addSchema(schema);

  await app.register(errorHandler);
  await app.register(clock, { now: options.now });
  await app.register(database, { database: config.database, pool: config.postgresPool });
  await app.register(jobs);
  await app.register(repositories);
  await app.register(trashSweep);
  await app.register(reminders);
  await app.register(helmet);
  await app.register(cors, { origins: config.corsOrigins });
  await app.register(rateLimit, config.rateLimit);
  await app.register(multipart, { fileSizeLimit: config.icsUploadLimitBytes });
  await app.register(icsParsePool);
  await app.register(swagger, { serveDocs: config.apiDocs });
  await app.register(timeZone);
  await app.register(authentication, {
    jwtSecret: config.jwtSecret,
    tokenTtlSeconds: config.tokenTtlSeconds,
    passwordHashCost: config.passwordHashCost,
    sessionIdleMinutes: config.sessionIdleMinutes,
  });

  await app.register(autoload, {
    dir: ROUTES_DIR,
    autoHooks: true,
    cascadeHooks: true,
    options: { prefix: '/api' },
  });

  return app;
}
