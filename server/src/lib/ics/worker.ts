import { Worker } from 'node:worker_threads';
import { InvalidCalendarError, type CalendarJob, type ParsedCalendar } from './parse.js';

type WorkerAnswer = { ok: true; calendar: ParsedCalendar } | { ok: false; message: string };

/** The worker ran out of time: the pool counts these apart from files that are merely invalid. */
export class CalendarParseTimeoutError extends InvalidCalendarError {}

export interface WorkerLimits {
  timeoutMs: number;
  memoryMb: number;
  /** Aborting terminates the worker at once and rejects with the signal's reason. */
  signal: AbortSignal;
}

/**
 * parseCalendar in a worker thread with a time and memory limit, so a file that loops ical.js forever or bloats it
 * costs one terminated worker instead of the API's event loop.
 */
export function runCalendarWorker(job: CalendarJob, limits: WorkerLimits): Promise<ParsedCalendar> {
  if (limits.signal.aborted) return Promise.reject(limits.signal.reason);
  const options = { workerData: job, resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb } };
  // Built, the worker is the .js file beside this one. Under tsx (dev, tests) it is TypeScript, and Node 20 does
  // not run --import hooks in workers, so a bootstrap registers tsx in the worker first.
  const worker = import.meta.url.endsWith('.ts')
    ? new Worker(
        `import('tsx/esm/api').then(({ register }) => { register(); ` +
          `return import(${JSON.stringify(new URL('./worker-thread.ts', import.meta.url).href)}); })`,
        { ...options, eval: true },
      )
    : new Worker(new URL('./worker-thread.js', import.meta.url), options);
  return new Promise<ParsedCalendar>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      limits.signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      outcome();
    };
    const onAbort = () => settle(() => reject(limits.signal.reason));
    limits.signal.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(
            new CalendarParseTimeoutError(
              'The calendar could not be read in time: a recurrence rule (RRULE) in it may never end',
            ),
          ),
        ),
      limits.timeoutMs,
    );
    worker.once('message', (answer: WorkerAnswer) =>
      settle(() => (answer.ok ? resolve(answer.calendar) : reject(new InvalidCalendarError(answer.message)))),
    );
    worker.once('error', (error: Error & { code?: string }) =>
      settle(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new InvalidCalendarError('The calendar is too large to read')
            : error,
        ),
      ),
    );
    worker.once('exit', () =>
      settle(() => reject(new Error('The calendar worker stopped without an answer'))),
    );
  });
}
