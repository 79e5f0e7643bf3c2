import { HttpError } from './http-errors.js';

export interface FairSchedulerOptions {
  /** Jobs running at once (one worker thread each). */
  concurrency: number;
  /** Jobs waiting, all accounts together; one more answers 503. */
  queueLimit: number;
  /** Jobs one account may have waiting; one more answers 429, so one account cannot fill the queue. */
  queuedPerAccount: number;
  /** The Retry-After of both refusals: about how long a running job may take. */
  retryAfterSeconds: number;
  /** What the 429 (this account has too many waiting) and the 503 (the queue is full) say. */
  messages: { accountQueueFull: string; queueFull: string };
}

/** A job gets a signal that aborts when its caller gives up or the scheduler closes; it must then stop. */
export type Job<T> = (signal: AbortSignal) => Promise<T>;

interface Waiting {
  start: () => void;
  withdraw: (reason: unknown) => void;
}

interface Account {
  waiting: Waiting[];
  running: boolean;
  /**
   * When this account last joined the rotation: on arrival, and again each time a job of its finishes (as in round
   * robin, where a turn ends at the back of the line). The smallest goes first.
   */
  lastServed: number;
}

/**
 * Runs jobs with bounded concurrency, shared fairly between accounts: an account runs one job at a time, and a free
 * slot goes to the waiting account served least recently (round robin), so one account's many jobs wait behind the
 * others' instead of ahead of them. The queue is bounded in total and per account. A waiting job whose signal aborts
 * leaves the queue without ever starting; a running one gets the abort and frees its slot when it settles.
 */
export class FairScheduler {
  private readonly accounts = new Map<string, Account>();
  /** One controller per job still waiting or running; close() aborts them. */
  private readonly live = new Set<AbortController>();
  private closedWith: { reason: unknown } | null = null;
  private runningJobs = 0;
  private waitingJobs = 0;
  private served = 0;

  constructor(private readonly options: FairSchedulerOptions) {}

  get running(): number {
    return this.runningJobs;
  }

  get queued(): number {
    return this.waitingJobs;
  }

  run<T>(accountId: string, job: Job<T>, signal?: AbortSignal): Promise<T> {
    if (this.closedWith) return Promise.reject(this.closedWith.reason);
    if (signal?.aborted) return Promise.reject(signal.reason);
    // A newcomer queues behind the accounts already in line, not ahead of them as if it had waited longest.
    const account = this.accounts.get(accountId) ?? {
      waiting: [],
      running: false,
      lastServed: ++this.served,
    };
    const retryAfter = { 'retry-after': String(this.options.retryAfterSeconds) };
    if (account.running || this.runningJobs >= this.options.concurrency) {
      if (account.waiting.length >= this.options.queuedPerAccount) {
        return Promise.reject(
          new HttpError(429, this.options.messages.accountQueueFull, { headers: retryAfter }),
        );
      }
      if (this.waitingJobs >= this.options.queueLimit) {
        return Promise.reject(new HttpError(503, this.options.messages.queueFull, { headers: retryAfter }));
      }
    }
    this.accounts.set(accountId, account);

    return new Promise<T>((resolve, reject) => {
      // A controller of its own rather than AbortSignal.any with a long-lived signal: on Node 20 each such call leaves
      // an entry on that signal for the life of the process.
      const controller = new AbortController();
      const jobSignal = controller.signal;
      const onCallerAbort = () => controller.abort(signal!.reason);
      signal?.addEventListener('abort', onCallerAbort, { once: true });
      this.live.add(controller);
      const settle = () => {
        this.live.delete(controller);
        signal?.removeEventListener('abort', onCallerAbort);
      };
      const onAbort = () => entry.withdraw(jobSignal.reason);
      const entry: Waiting = {
        start: () => {
          jobSignal.removeEventListener('abort', onAbort);
          account.running = true;
          this.runningJobs += 1;
          let outcome: Promise<T>;
          try {
            outcome = job(jobSignal);
          } catch (error) {
            // A job that throws before its first await settles like one that rejects.
            outcome = Promise.reject(error);
          }
          // The slot is free before the caller hears the outcome.
          const release = () => {
            settle();
            account.running = false;
            account.lastServed = ++this.served;
            this.runningJobs -= 1;
            this.forget(accountId, account);
            this.dispatch();
          };
          outcome.then(
            (value) => {
              release();
              resolve(value);
            },
            (error: unknown) => {
              release();
              reject(error);
            },
          );
        },
        withdraw: (reason) => {
          const index = account.waiting.indexOf(entry);
          if (index === -1) return;
          account.waiting.splice(index, 1);
          this.waitingJobs -= 1;
          settle();
          this.forget(accountId, account);
          reject(reason);
        },
      };
      account.waiting.push(entry);
      this.waitingJobs += 1;
      jobSignal.addEventListener('abort', onAbort, { once: true });
      this.dispatch();
    });
  }

  /** Refuses new jobs, withdraws the waiting ones and aborts the running ones. */
  close(reason: unknown = new HttpError(503, 'The server is shutting down; try again shortly')): void {
    if (this.closedWith) return;
    this.closedWith = { reason };
    for (const controller of [...this.live]) controller.abort(reason);
  }

  private dispatch(): void {
    while (this.runningJobs < this.options.concurrency) {
      let next: Account | undefined;
      for (const account of this.accounts.values()) {
        if (account.running || account.waiting.length === 0) continue;
        if (!next || account.lastServed < next.lastServed) next = account;
      }
      if (!next) return;
      const entry = next.waiting.shift()!;
      this.waitingJobs -= 1;
      entry.start();
    }
  }

  /** Accounts are kept only while they have work, so the map is bounded by the queue and the slots. */
  private forget(accountId: string, account: Account): void {
    if (!account.running && account.waiting.length === 0) this.accounts.delete(accountId);
  }
}
