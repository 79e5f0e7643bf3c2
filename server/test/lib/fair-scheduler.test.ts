import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FairScheduler, type FairSchedulerOptions } from '../../src/lib/fair-scheduler.js';
import { HttpError } from '../../src/lib/http-errors.js';

/** Jobs that start when the scheduler says so and finish when the test says so, each noting its start in `log`. */
function harness(options: Partial<FairSchedulerOptions> = {}) {
  const scheduler = new FairScheduler({
    concurrency: 1,
    queueLimit: 10,
    queuedPerAccount: 10,
    retryAfterSeconds: 5,
    messages: { accountQueueFull: 'account queue full', queueFull: 'queue full' },
    ...options,
  });
  const log: string[] = [];
  const finishers = new Map<string, () => void>();
  const signals = new Map<string, AbortSignal>();
  const submit = (account: string, name: string, signal?: AbortSignal) => {
    const outcome = scheduler.run(
      account,
      (jobSignal) =>
        new Promise<string>((resolve) => {
          log.push(name);
          signals.set(name, jobSignal);
          finishers.set(name, () => resolve(name));
        }),
      signal,
    );
    // Settled outcomes are read by the tests that care; none may go unhandled.
    outcome.catch(() => undefined);
    return outcome;
  };
  const finish = async (name: string) => {
    const resolve = finishers.get(name);
    assert.ok(resolve, `${name} has not started`);
    resolve();
    // Let the job's settlement and the next dispatch run.
    for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
  };
  return { scheduler, log, submit, finish, signals };
}

describe('FairScheduler', () => {
  test("an account's second job waits behind other accounts' work (round robin between accounts)", async () => {
    const { log, submit, finish } = harness({ concurrency: 1 });
    for (const name of ['A1', 'A2', 'A3', 'A4']) void submit('A', name);
    void submit('B', 'B1');
    void submit('C', 'C1');
    assert.deepEqual(log, ['A1']);
    await finish('A1');
    await finish('B1');
    await finish('C1');
    await finish('A2');
    await finish('A3');
    assert.deepEqual(log, ['A1', 'B1', 'C1', 'A2', 'A3', 'A4']);
  });

  test('an account that sends one file at a time does not jump ahead of accounts already waiting', async () => {
    const { log, submit, finish } = harness({ concurrency: 1 });
    void submit('A', 'A1');
    void submit('C', 'C1');
    void submit('C', 'C2');
    void submit('B', 'B1');
    await finish('A1');
    await finish('C1');
    // A had nothing left and was forgotten; it comes back while B runs, after C2 had long been waiting.
    void submit('A', 'A2');
    await finish('B1');
    await finish('C2');
    assert.deepEqual(log, ['A1', 'C1', 'B1', 'C2', 'A2']);
  });

  test('one account holds at most one slot: its other jobs wait even while a slot is free', async () => {
    const { scheduler, log, submit, finish } = harness({ concurrency: 2 });
    for (const name of ['A1', 'A2', 'A3', 'A4']) void submit('A', name);
    assert.deepEqual(log, ['A1']);
    assert.deepEqual({ running: scheduler.running, queued: scheduler.queued }, { running: 1, queued: 3 });
    void submit('B', 'B1');
    assert.deepEqual(log, ['A1', 'B1'], "B starts at once, before A's second");
    await finish('A1');
    assert.deepEqual(log, ['A1', 'B1', 'A2']);
    await finish('B1');
    assert.deepEqual(log, ['A1', 'B1', 'A2'], 'A still runs only one at a time');
  });

  test('a full queue answers 503 and a full account queue 429, both with Retry-After; running jobs do not count', async () => {
    const { scheduler, log, submit } = harness({ concurrency: 1, queueLimit: 3, queuedPerAccount: 2 });
    void submit('A', 'A1');
    void submit('A', 'A2');
    void submit('A', 'A3');
    const accountFull = await submit('A', 'A4').then(
      () => assert.fail('A4 was accepted'),
      (error: unknown) => error,
    );
    assert.ok(accountFull instanceof HttpError);
    assert.deepEqual(
      { status: accountFull.statusCode, message: accountFull.message, headers: accountFull.headers },
      { status: 429, message: 'account queue full', headers: { 'retry-after': '5' } },
    );
    void submit('B', 'B1');
    const full = await submit('C', 'C1').then(
      () => assert.fail('C1 was accepted'),
      (error: unknown) => error,
    );
    assert.ok(full instanceof HttpError);
    assert.deepEqual(
      { status: full.statusCode, message: full.message, headers: full.headers },
      { status: 503, message: 'queue full', headers: { 'retry-after': '5' } },
    );
    assert.deepEqual({ running: scheduler.running, queued: scheduler.queued }, { running: 1, queued: 3 });
    assert.deepEqual(log, ['A1']);
  });

  test('a queued job whose signal aborts leaves the queue, is rejected with the reason and never starts', async () => {
    const { scheduler, log, submit, finish } = harness({ concurrency: 1 });
    void submit('A', 'A1');
    const disconnect = new AbortController();
    const abandoned = submit('B', 'B1', disconnect.signal);
    void submit('C', 'C1');
    assert.equal(scheduler.queued, 2);
    const reason = new HttpError(499, 'gone');
    disconnect.abort(reason);
    await assert.rejects(abandoned, (error) => error === reason);
    assert.equal(scheduler.queued, 1, 'its place is free at once');
    await finish('A1');
    await finish('C1');
    assert.deepEqual(log, ['A1', 'C1']);
    assert.deepEqual({ running: scheduler.running, queued: scheduler.queued }, { running: 0, queued: 0 });
  });

  test('an already aborted signal is refused without queueing', async () => {
    const { scheduler, log, submit } = harness();
    const gone = new AbortController();
    gone.abort(new Error('gone'));
    await assert.rejects(submit('A', 'A1', gone.signal), /gone/);
    assert.deepEqual(
      { log, queued: scheduler.queued, running: scheduler.running },
      { log: [], queued: 0, running: 0 },
    );
  });

  test('a running job gets the abort through its own signal, and its slot is free once it settles', async () => {
    const scheduler = new FairScheduler({
      concurrency: 1,
      queueLimit: 10,
      queuedPerAccount: 10,
      retryAfterSeconds: 5,
      messages: { accountQueueFull: '', queueFull: '' },
    });
    const disconnect = new AbortController();
    const started: string[] = [];
    // A job that stops when told to, as the worker runner does (it terminates its worker).
    const stoppable = (name: string) => (signal: AbortSignal) =>
      new Promise<string>((_resolve, reject) => {
        started.push(name);
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    const running = scheduler.run('A', stoppable('A1'), disconnect.signal);
    const next = scheduler.run('B', async () => {
      started.push('B1');
      return 'B1';
    });
    assert.deepEqual(started, ['A1']);
    disconnect.abort(new Error('client closed'));
    await assert.rejects(running, /client closed/);
    assert.equal(await next, 'B1');
    assert.deepEqual(started, ['A1', 'B1']);
  });

  test('close withdraws the queue, aborts the running jobs and refuses new ones', async () => {
    const { scheduler, log, submit, signals } = harness({ concurrency: 1 });
    void submit('A', 'A1');
    const waiting = submit('B', 'B1');
    scheduler.close(new Error('closing'));
    await assert.rejects(waiting, /closing/);
    assert.equal(signals.get('A1')?.aborted, true);
    await assert.rejects(submit('C', 'C1'), /closing/);
    assert.deepEqual(log, ['A1']);
  });
});
