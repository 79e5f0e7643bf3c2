import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import type PgBoss from 'pg-boss';
import type { DatabaseConfig, JobsConfig } from '../../config.js';
import { pgBoss, postgresClient } from '../../lib/packages-loaded-on-use.js';

/**
 * Background jobs: plugins and routes register a handler per job kind and a scan that sends due work; the same job code
 * runs on pg-boss over PostgreSQL (any number of instances share one queue) or in-process on SQLite (one instance).
 * With config.jobs.enabled false the instance neither runs nor queues jobs: handle() and every() register nothing,
 * send() drops the run (a scan of an instance with jobs on finds the work still due) and idle() resolves at once.
 */
export interface Jobs {
  /** The handler of one job kind, registered before the app is ready (plugins/routes call it at registration). */
  handle<T extends object>(name: string, handler: (data: T) => Promise<void>): void;
  /** Queues one run. With a key, a run of the same name and key that is already waiting is not queued again. */
  send<T extends object>(name: string, data: T, options?: { key?: string }): Promise<void>;
  /** Every config.jobs.tickSeconds on every instance (and once soon after start), calls scan(), which sends due work. */
  every(name: string, scan: () => Promise<void>): void;
  /** Tests: resolves when nothing is waiting or running on this instance. */
  idle(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    jobs: Jobs;
  }
}

/** Failed runs tried again before a run is given up (and logged as an error). */
export const JOB_RETRIES = 2;
/** Runs at once per instance: across all kinds on SQLite, per kind on PostgreSQL (as many pg-boss workers). */
const RUNS_AT_ONCE = 2;
/** Runs the in-process queue holds waiting; past it a send is dropped, and the next tick's scan sends it again. */
const IN_PROCESS_QUEUE_LIMIT = 1000;
/** How long closing the app waits for running jobs before the database closes under them. */
const STOP_TIMEOUT_MS = 10_000;

/**
 * pg-boss's tables live in a schema of their own next to the app's: `<schema>_jobs` (tests give every app a schema,
 * so test apps never see each other's jobs), or pg-boss's usual `pgboss` beside the default schema.
 */
export function jobSchemaOf(database: Extract<DatabaseConfig, { kind: 'postgres' }>): string {
  return database.schema ? `${database.schema}_jobs` : 'pgboss';
}

type JobHandler = (data: object) => Promise<void>;

interface JobRunner {
  start(): Promise<void>;
  send(name: string, data: object, key: string | undefined): Promise<void>;
  idle(): Promise<void>;
  stop(): Promise<void>;
}

interface RunnerOptions {
  handlers: ReadonlyMap<string, JobHandler>;
  log: FastifyBaseLogger;
  /** A failed run is tried again after about this long, then twice as long. */
  retryDelaySeconds: number;
}

function logFailure(
  log: FastifyBaseLogger,
  error: unknown,
  run: { job: string; key?: string; attempt: number; willRetry: boolean },
) {
  const { willRetry, ...details } = run;
  if (willRetry) log.warn({ err: error, ...details }, 'background job failed; it runs again later');
  else log.error({ err: error, ...details }, `background job failed ${run.attempt} times; given up`);
}

/** Resolves when `settled` does or after STOP_TIMEOUT_MS; says which. */
async function settledInTime(settled: Promise<unknown>): Promise<boolean> {
  const timeout = new AbortController();
  const timedOut = delay(STOP_TIMEOUT_MS, true, { signal: timeout.signal }).catch(() => false);
  const result = await Promise.race([settled.then(() => false), timedOut]);
  timeout.abort();
  return !result;
}

interface QueuedRun {
  name: string;
  data: object;
  key: string | undefined;
  attempt: number;
}

/** SQLite: one instance, so a FIFO queue in memory with the same dedup, retries and logging as the pg-boss queues. */
function createInProcessRunner({ handlers, log, retryDelaySeconds }: RunnerOptions): JobRunner {
  const waiting: QueuedRun[] = [];
  const waitingKeys = new Set<string>();
  const running = new Set<Promise<void>>();
  const retryTimers = new Set<NodeJS.Timeout>();
  let idleWaiters: Array<() => void> = [];
  let state: 'created' | 'started' | 'stopped' = 'created';

  const keyOf = (run: QueuedRun) => (run.key === undefined ? undefined : `${run.name}\u0000${run.key}`);
  const settle = () => {
    if (waiting.length > 0 || running.size > 0 || retryTimers.size > 0) return;
    for (const resolve of idleWaiters) resolve();
    idleWaiters = [];
  };

  function enqueue(run: QueuedRun) {
    const key = keyOf(run);
    if (key !== undefined && waitingKeys.has(key)) return;
    if (waiting.length >= IN_PROCESS_QUEUE_LIMIT) {
      log.warn(
        { job: run.name, key: run.key },
        'background job queue is full; run dropped until the next scan',
      );
      return;
    }
    waiting.push(run);
    if (key !== undefined) waitingKeys.add(key);
    pump();
  }

  async function execute(run: QueuedRun) {
    try {
      await handlers.get(run.name)!(run.data);
    } catch (error) {
      const willRetry = run.attempt <= JOB_RETRIES && state === 'started';
      logFailure(log, error, { job: run.name, key: run.key, attempt: run.attempt, willRetry });
      if (!willRetry) return;
      const timer = setTimeout(
        () => {
          retryTimers.delete(timer);
          // A run of the same key waiting meanwhile does this one's work.
          if (state === 'started') enqueue({ ...run, attempt: run.attempt + 1 });
          settle();
        },
        retryDelaySeconds * 1000 * 2 ** (run.attempt - 1),
      ).unref();
      retryTimers.add(timer);
    }
  }

  function pump() {
    while (state === 'started' && running.size < RUNS_AT_ONCE && waiting.length > 0) {
      const run = waiting.shift()!;
      const key = keyOf(run);
      if (key !== undefined) waitingKeys.delete(key);
      const done: Promise<void> = execute(run).finally(() => {
        running.delete(done);
        pump();
        settle();
      });
      running.add(done);
    }
  }

  return {
    async start() {
      state = 'started';
      pump();
    },
    async send(name, data, key) {
      // Through JSON, as pg-boss stores it: a handler sees the same data on either database.
      enqueue({ name, data: JSON.parse(JSON.stringify(data)) as object, key, attempt: 1 });
    },
    idle() {
      return new Promise((resolve) => {
        // Retry timers do not hold the process open; a test waiting here must.
        const keepAlive = setInterval(() => undefined, 60_000);
        idleWaiters.push(() => {
          clearInterval(keepAlive);
          resolve();
        });
        settle();
      });
    },
    async stop() {
      state = 'stopped';
      for (const timer of retryTimers) clearTimeout(timer);
      retryTimers.clear();
      // Waiting runs live in memory only; the first scan after the next start sends what is still due.
      if (waiting.length > 0)
        log.info({ dropped: waiting.length }, 'background jobs stopped with runs waiting');
      waiting.length = 0;
      waitingKeys.clear();
      if (!(await settledInTime(Promise.allSettled(running)))) {
        log.warn({ running: running.size }, 'background jobs still running when the app closed');
      }
      settle();
    },
  };
}

/**
 * PostgreSQL: one pg-boss per app, in its own schema, with the app's connection string and a small pool of its own.
 * The pool is handed to pg-boss rather than opened by it: pg-pool never answers a query still waiting for a connection
 * when the pool ends, and a pg-boss worker whose fetch waited there kept the process alive after close. Closing
 * here ends the pool only once no query is under way.
 */
function createPgBossRunner(
  { handlers, log, retryDelaySeconds }: RunnerOptions,
  database: Extract<DatabaseConfig, { kind: 'postgres' }>,
  options: { pollingIntervalSeconds: number; connectionTimeoutMs: number },
): JobRunner {
  const schema = jobSchemaOf(database);
  const pool = new (postgresClient().Pool)({
    connectionString: database.url,
    // Fetch loops (RUNS_AT_ONCE per kind) take turns on these; sends and maintenance use them between fetches.
    max: 3,
    connectionTimeoutMillis: options.connectionTimeoutMs,
    application_name: 'time-wallet-jobs',
  });
  pool.on('error', (error) =>
    log.warn({ err: error }, 'background jobs: database connection lost while idle'),
  );
  let queriesUnderWay = 0;
  const boss = new (pgBoss())({
    schema,
    db: {
      async executeSql(text, values) {
        queriesUnderWay += 1;
        try {
          return await pool.query(text, values);
        } finally {
          queriesUnderWay -= 1;
        }
      },
    },
    // Cron scheduling stays off: every() ticks on each instance, and its keyed sends make the extra scans harmless.
    schedule: false,
  });
  boss.on('error', (error) => log.error({ err: error }, 'background jobs: pg-boss failed'));
  const workers = new Map<string, string[]>();
  let running = 0;
  let stopping = false;

  /**
   * Instances starting together on a new schema deadlock in pg-boss's create_queue (its insert into the queue table
   * and the foreign key of the new partition lock in opposite orders), so queues are made one instance at a time
   * under a session advisory lock held on a connection of its own.
   */
  async function createQueues() {
    const lockHolder = await pool.connect();
    try {
      await lockHolder.query('select pg_advisory_lock(hashtext($1))', [`${schema}.create_queue`]);
      for (const name of handlers.keys()) {
        // 'short' has a unique index on (name, key) over jobs in the created state only: at most one run per key
        // waits, and a send while one waits returns null. A run that is active or waiting to retry does not block a
        // new one, so work that became due during a run is not lost. 'stately' would also keep two runs of a key from
        // being active at once, but its index covers active and retry too, and a fetch or the expiry of a job that
        // collides there fails for the whole queue (pg-boss issues #492, #535); handlers are idempotent instead.
        // 'singleton' limits active runs only, and 'standard' dedups only within singletonSeconds slots.
        const queue: PgBoss.Queue = {
          name,
          policy: 'short',
          retryLimit: JOB_RETRIES,
          retryDelay: retryDelaySeconds,
          retryBackoff: true,
        };
        await boss.createQueue(name, queue);
        // createQueue leaves an existing queue as it was: this brings a changed setting to it.
        await boss.updateQueue(name, queue);
      }
    } finally {
      // Destroyed, not returned to the pool: its session ends, and the lock with it.
      lockHolder.release(true);
    }
  }

  return {
    async start() {
      const started = performance.now();
      await boss.start();
      await createQueues();
      for (const [name, handler] of handlers) {
        const ids: string[] = [];
        for (let index = 0; index < RUNS_AT_ONCE; index += 1) {
          let workerId: string | undefined = undefined;
          workerId = await boss.work<object>(
            name,
            { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSeconds, includeMetadata: true },
            async ([job]) => {
              // A fetch that was under way when the app began to close: pg-boss retries the run later.
              if (stopping) throw new Error('background jobs are stopping');
              running += 1;
              try {
                await handler(job.data);
              } catch (error) {
                const willRetry = job.retryCount < job.retryLimit;
                logFailure(log, error, {
                  job: name,
                  key: job.singletonKey ?? undefined,
                  attempt: job.retryCount + 1,
                  willRetry,
                });
                throw error;
              } finally {
                running -= 1;
                // A worker otherwise waits a polling interval after each run: look for the next one now.
                if (workerId) boss.notifyWorker(workerId);
              }
            },
          );
          ids.push(workerId);
        }
        workers.set(name, ids);
      }
      log.info(
        { schema, startMs: Math.round(performance.now() - started) },
        'background jobs run on pg-boss',
      );
    },
    async send(name, data, key) {
      // Under 'short' an unkeyed run would share the empty key and wait at most once per name: give it a key of its own.
      const id = await boss.send(name, data, { singletonKey: key ?? randomUUID() });
      // Sent here, run here without waiting for the next poll (when no other instance's worker is faster).
      if (id) boss.notifyWorker(workers.get(name)![0]);
    },
    async idle() {
      // The queue is shared: counting its created, retry and active jobs also covers a fetch whose handler has not
      // started yet, and a run whose completion pg-boss is still writing.
      for (;;) {
        if (running === 0 && !stopping) {
          const sizes = await Promise.all(
            [...handlers.keys()].map((name) => boss.getQueueSize(name, { before: 'completed' })),
          );
          if (running === 0 && sizes.every((size) => !size)) return;
        }
        if (stopping) return;
        await delay(100);
      }
    },
    async stop() {
      stopping = true;
      // Graceful: workers stop fetching and pg-boss waits for the active runs, up to the timeout; the ones still
      // running then are failed, so they run again (within the retry limit) on an instance still up.
      await boss.stop({ graceful: true, wait: true, close: false, timeout: STOP_TIMEOUT_MS });
      // A fetch under way when the workers stopped still ends, and pg-boss then fails (retries) what it fetched.
      const settled = Date.now() + STOP_TIMEOUT_MS;
      while (queriesUnderWay > 0 && Date.now() < settled) await delay(20);
      await pool.end();
    },
  };
}

function disabledJobs(): Jobs {
  return {
    handle: () => undefined,
    send: async () => undefined,
    every: () => undefined,
    idle: async () => undefined,
  };
}

export default fp(
  async function jobsPlugin(app) {
    const config: JobsConfig = app.config.jobs;
    if (!config.enabled) {
      app.decorate('jobs', disabledJobs());
      return;
    }

    const handlers = new Map<string, JobHandler>();
    const scans = new Map<string, () => Promise<void>>();
    const scanning = new Map<string, Promise<void>>();
    const timers: NodeJS.Timeout[] = [];
    // registering -> running (ready) -> closing (scans end, sends still go) -> stopped (sends are dropped)
    let phase: 'registering' | 'running' | 'closing' | 'stopped' = 'registering';

    const runnerOptions: RunnerOptions = {
      handlers,
      log: app.log,
      // About one tick after a failure, then two: a refresh that failed for a passing reason waits about as long as
      // due work does.
      retryDelaySeconds: config.tickSeconds,
    };
    const database = app.config.database;
    // Made at start-up, and only when some plugin has work: an app without job kinds opens no pg-boss pool or schema.
    let runner: JobRunner | undefined;

    const scan = (name: string, run: () => Promise<void>) => {
      // A scan still under way when the next tick comes is not started twice.
      if (scanning.has(name) || phase !== 'running') return;
      const scanned = run()
        .catch((error: unknown) =>
          app.log.error({ err: error, scan: name }, 'background job scan failed; the next tick tries again'),
        )
        .finally(() => scanning.delete(name));
      scanning.set(name, scanned);
    };

    const jobs: Jobs = {
      handle(name, handler) {
        if (phase !== 'registering')
          throw new Error(`Job handler "${name}" registered after the app started`);
        if (handlers.has(name)) throw new Error(`Job "${name}" already has a handler`);
        // The data a handler gets is what its kind's sends give; the map holds every kind at once.
        handlers.set(name, handler as JobHandler);
      },
      async send(name, data, options = {}) {
        if (!handlers.has(name)) throw new Error(`Job "${name}" has no handler`);
        if (phase === 'registering') throw new Error(`Job "${name}" sent before the app is ready`);
        if (phase === 'stopped') {
          app.log.debug({ job: name, key: options.key }, 'background job sent after jobs stopped; dropped');
          return;
        }
        await runner?.send(name, data, options.key);
      },
      every(name, run) {
        if (phase !== 'registering') throw new Error(`Job scan "${name}" registered after the app started`);
        if (scans.has(name)) throw new Error(`Job scan "${name}" is already registered`);
        scans.set(name, run);
      },
      idle: async () => runner?.idle(),
    };
    app.decorate('jobs', jobs);

    app.addHook('onReady', async () => {
      if (handlers.size > 0 || scans.size > 0) {
        runner =
          database.kind === 'postgres'
            ? createPgBossRunner(runnerOptions, database, {
                // pg-boss's default of 2 s, shorter with short ticks (tests): a worker polls for other instances' sends.
                pollingIntervalSeconds: Math.min(2, Math.max(0.5, config.tickSeconds / 2)),
                connectionTimeoutMs: app.config.postgresPool.connectionTimeoutMs,
              })
            : createInProcessRunner(runnerOptions);
        await runner.start();
      }
      phase = 'running';
      for (const [name, run] of scans) {
        scan(name, run);
        timers.push(setInterval(() => scan(name, run), config.tickSeconds * 1000).unref());
      }
    });

    // onClose hooks run in reverse order of registration: this one before the database plugin's closes the pool.
    app.addHook('onClose', async () => {
      phase = 'closing';
      for (const timer of timers) clearInterval(timer);
      await Promise.allSettled(scanning.values());
      phase = 'stopped';
      await runner?.stop();
    });
  },
  { name: 'jobs', dependencies: ['database'] },
);
