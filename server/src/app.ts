import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { loadConfig, type AppConfig } from './config.js';
import { createMailer, type Mailer } from './lib/mailer.js';
import authentication from './plugins/app/authentication.js';
import clock from './plugins/app/clock.js';
import database from './plugins/app/database.js';
import errorHandler from './plugins/app/error-handler.js';
import repositories from './plugins/app/repositories.js';
import timeZone from './plugins/app/time-zone.js';
import cors from './plugins/external/cors.js';
import helmet from './plugins/external/helmet.js';
import multipart from './plugins/external/multipart.js';
import rateLimit from './plugins/external/rate-limit.js';
import swagger from './plugins/external/swagger.js';
import aggregationAutohooks from './routes/aggregation/autohooks.js';
import aggregationRoutes from './routes/aggregation/index.js';
import authRoutes from './routes/auth/index.js';
import categoriesAutohooks from './routes/categories/autohooks.js';
import categoriesRoutes from './routes/categories/index.js';
import eventsAutohooks from './routes/events/autohooks.js';
import eventsRoutes from './routes/events/index.js';
import healthRoutes from './routes/health/index.js';
import tasksAutohooks from './routes/tasks/autohooks.js';
import tasksRoutes from './routes/tasks/index.js';
import usersAutohooks from './routes/users/autohooks.js';
import usersRoutes from './routes/users/index.js';
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
}

const resources = [
  { prefix: '/auth', routes: authRoutes },
  { prefix: '/health', routes: healthRoutes },
  { prefix: '/users', routes: usersRoutes, autohooks: usersAutohooks },
  { prefix: '/categories', routes: categoriesRoutes, autohooks: categoriesAutohooks },
  { prefix: '/tasks', routes: tasksRoutes, autohooks: tasksAutohooks },
  { prefix: '/events', routes: eventsRoutes, autohooks: eventsAutohooks },
  { prefix: '/aggregation', routes: aggregationRoutes, autohooks: aggregationAutohooks },
];

export async function buildApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const config = loadConfig(options.env ?? process.env, options.config);

  const app = Fastify({
    logger: options.logger ?? {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    },
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    bodyLimit: config.bodyLimitBytes,
    requestTimeout: config.requestTimeoutMs,
    trustProxy: config.trustProxy,
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
  });

  // An empty body with a JSON content type (a body-less POST from some clients) reads as no body.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body.length === 0) {
      done(null, undefined);
      return;
    }
    parseJson(request, typeof body === 'string' ? body : body.toString('utf8'), done);
  });

  for (const schema of schemasForSharing) app.addSchema(schema);

  await app.register(errorHandler);
  await app.register(clock, { now: options.now });
  await app.register(database, { database: config.database });
  await app.register(repositories);
  await app.register(helmet);
  await app.register(cors, { origins: config.corsOrigins });
  await app.register(rateLimit, config.rateLimit);
  await app.register(multipart, { fileSizeLimit: config.icsUploadLimitBytes });
  await app.register(swagger);
  await app.register(timeZone);
  await app.register(authentication, {
    jwtSecret: config.jwtSecret,
    tokenTtlSeconds: config.tokenTtlSeconds,
    passwordHashCost: config.passwordHashCost,
  });

  await app.register(
    async (api) => {
      for (const resource of resources) {
        await api.register(
          async (scope) => {
            if (resource.autohooks) await scope.register(resource.autohooks);
            await scope.register(resource.routes);
          },
          { prefix: resource.prefix },
        );
      }
    },
    { prefix: '/api' },
  );

  return app;
}
