import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { RateLimitConfig } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { HttpError } from '../../lib/http-errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route counts against its own `rateLimit` only, not the per-IP limit of every route (the health check). */
    ownRateLimitOnly?: boolean;
  }
}

interface RouteSettings {
  routeInfo?: { method?: string | string[]; url?: string };
}

type IncrementCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * A fixed-window counter kept in the database, so several API instances behind a load balancer share one limit.
 * Selected with RATE_LIMIT_STORE=database (the default on PostgreSQL).
 */
export function databaseRateLimitStore(db: Kysely<Database>, now: () => number) {
  return class DatabaseRateLimitStore {
    readonly namespace: string;

    // At run time the plugin passes the merged route settings, whose routeInfo names the route.
    constructor(options: object = {}) {
      const route = (options as RouteSettings).routeInfo;
      this.namespace = route?.url ? `${String(route.method)} ${route.url}|` : 'global|';
    }

    incr(key: string, callback: IncrementCallback, timeWindow: number) {
      const current = now();
      const windowStart = current - (current % timeWindow);
      const rowKey = this.namespace + key;
      db.insertInto('rateLimitHits')
        .values({ key: rowKey, windowStart, hits: 1 })
        .onConflict((conflict) =>
          conflict.columns(['key', 'windowStart']).doUpdateSet({ hits: sql`rate_limit_hits.hits + 1` }),
        )
        .returning('hits')
        .executeTakeFirstOrThrow()
        .then(async (row) => {
          // Occasional clean-up keeps the table to the live windows without a scheduler.
          if (Math.random() < 0.01) {
            await db
              .deleteFrom('rateLimitHits')
              .where('windowStart', '<', current - 2 * timeWindow)
              .execute();
          }
          callback(null, { current: Number(row.hits), ttl: windowStart + timeWindow - current });
        })
        .catch((error: Error) => callback(error));
    }

    child(routeOptions: object) {
      return new DatabaseRateLimitStore(routeOptions);
    }
  };
}

export default fp(
  async function rateLimitPlugin(app, options: RateLimitConfig) {
    // Routes with their own limit (sign-in, registration, password reset) get it from the plugin's route hooks.
    await app.register(rateLimit, {
      global: false,
      max: options.globalPerMinute,
      timeWindow: 60_000,
      ...(options.store === 'database' ? { store: databaseRateLimitStore(app.db, app.now) } : {}),
      errorResponseBuilder: (_request, context) =>
        new HttpError(context.statusCode, `Too many requests. Try again in ${context.after}.`),
    });

    // The per-IP limit for every route is an application-level hook, so it runs before the sign-in check of the
    // resource scopes: the plugin's own global mode adds route-level hooks, which run after it, and would then never
    // count requests with a missing or forged token.
    const globalLimit = app.createRateLimit();
    app.addHook('onRequest', async (request) => {
      if (request.routeOptions.config?.ownRateLimitOnly) return;
      const limit = await globalLimit(request);
      if (limit.isAllowed || !limit.isExceeded) return;
      const seconds = Math.max(1, limit.ttlInSeconds);
      throw new HttpError(429, `Too many requests. Try again in ${seconds} seconds.`, {
        headers: { 'retry-after': String(seconds) },
      });
    });
  },
  { name: 'rate-limit', dependencies: ['database', 'clock'] },
);
