import fp from 'fastify-plugin';
import { FairScheduler } from '../../lib/fair-scheduler.js';
import type { CalendarJob, ParsedCalendar } from '../../lib/ics/parse.js';
import { CalendarParseTimeoutError, runCalendarWorker } from '../../lib/ics/worker.js';

export interface IcsParsePoolOptions {
  concurrency: number;
  queueLimit: number;
  queuedPerAccount: number;
  timeoutMs: number;
  memoryMb: number;
}

export const ICS_PARSE_POOL_DEFAULTS: IcsParsePoolOptions = {
  /** Worker threads at once per process; an account has at most one of them. */
  concurrency: 2,
  /** Imports waiting for a worker, all accounts together (then 503), and per account (then 429). */
  queueLimit: 16,
  queuedPerAccount: 2,
  /** ical.js may still loop on a rule the checks in lib/ics/recurrence-rules.ts let through: parsing has this long. */
  timeoutMs: 5000,
  memoryMb: 256,
};

export interface IcsParsePoolCounts {
  running: number;
  queued: number;
  /** Workers started since the pool was made. */
  started: number;
  /** Workers stopped by the time limit. */
  timedOut: number;
  /** Workers stopped because their request's client went away (or the server closed). */
  cancelled: number;
}

export interface IcsParsePool {
  /** Parses in a worker when `accountId` has none running and a slot is free; rejects with an HttpError if refused. */
  parse(accountId: string, job: CalendarJob, signal: AbortSignal): Promise<ParsedCalendar>;
  counts(): IcsParsePoolCounts;
  close(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    icsParsePool: IcsParsePool;
  }
}

export function createIcsParsePool(options: IcsParsePoolOptions): IcsParsePool {
  const scheduler = new FairScheduler({
    concurrency: options.concurrency,
    queueLimit: options.queueLimit,
    queuedPerAccount: options.queuedPerAccount,
    retryAfterSeconds: Math.ceil(options.timeoutMs / 1000),
    messages: {
      accountQueueFull: 'Your previous calendar files are still being read; try again in a few seconds',
      queueFull: 'Too many calendar imports are waiting to be read; try again in a few seconds',
    },
  });
  const counts = { started: 0, timedOut: 0, cancelled: 0 };
  return {
    parse(accountId, job, signal) {
      return scheduler.run(
        accountId,
        async (jobSignal) => {
          counts.started += 1;
          try {
            return await runCalendarWorker(job, {
              timeoutMs: options.timeoutMs,
              memoryMb: options.memoryMb,
              signal: jobSignal,
            });
          } catch (error) {
            if (error instanceof CalendarParseTimeoutError) counts.timedOut += 1;
            else if (jobSignal.aborted) counts.cancelled += 1;
            throw error;
          }
        },
        signal,
      );
    },
    counts: () => ({ running: scheduler.running, queued: scheduler.queued, ...counts }),
    close: () => scheduler.close(),
  };
}

/** The .ics parse pool belongs to the app: made with it, closed with it (after the requests in flight). */
export default fp(
  async function icsParsePoolPlugin(app, options: Partial<IcsParsePoolOptions>) {
    const pool = createIcsParsePool({ ...ICS_PARSE_POOL_DEFAULTS, ...options });
    app.decorate('icsParsePool', pool);
    app.addHook('onClose', async () => pool.close());
  },
  { name: 'ics-parse-pool' },
);
