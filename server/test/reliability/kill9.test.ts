// kill -9 durability: the built API on SQLite takes concurrent writes, is SIGKILLed at a random moment, and restarts
// on the same DATA_DIR. Every write that got a 2xx before the kill must be there after it (and every acknowledged
// delete gone), and the file must pass PRAGMA integrity_check.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { call, ensureBuilt, startApi, type RunningApi } from './support.js';
import { isPostgresRun } from '../helpers.js';

// Each cycle kills the API once; KILL9_CYCLES=50 runs a longer hunt than `npm test` does.
const CYCLES = Number(process.env.KILL9_CYCLES ?? 8);
const WORKERS = 4;

interface TaskRecord {
  id: string;
  title: string;
  date: string;
  worker: number;
  deleted: boolean;
}

/** A write whose answer never came: the kill arrived first, so it may or may not have been committed. */
type Unanswered =
  | { kind: 'create'; title: string; date: string; worker: number }
  | { kind: 'edit'; task: TaskRecord; title: string }
  | { kind: 'delete'; task: TaskRecord };

interface Task {
  _id: string;
  title: string;
}

const dates = (cycle: number) =>
  Array.from({ length: cycle }, (_, index) => `2026-05-${String(index + 1).padStart(2, '0')}`);

function integrityOf(file: string): string {
  // Read-only, after the process is dead: nothing has touched the file since the kill.
  const db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    return String(db.pragma('integrity_check', { simple: true }));
  } finally {
    db.close();
  }
}

before(ensureBuilt);

test(
  `kill -9 during concurrent writes loses no acknowledged write (${CYCLES} cycles)`,
  // The file's durability is SQLite's; the PostgreSQL pass of the suite would only repeat it.
  { timeout: 240_000, skip: isPostgresRun ? 'SQLite files: runs in the SQLite pass' : false },
  async (t) => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'time-wallet-kill9-'));
    const databaseFile = path.join(dataDir, 'time-wallet.sqlite');
    let api: RunningApi | undefined;
    after(async () => {
      await api?.kill();
      await rm(dataDir, { recursive: true, force: true });
    });
    const start = () => startApi({ DATA_DIR: dataDir }, 60_000);

    api = await start();
    const registration = await call<{ token: string }>(api.url, 'POST', '/auth/register', {
      body: { email: `kill9-${process.pid}@example.com`, password: 'Passw0rd!', name: 'Kill Nine' },
    });
    assert.equal(registration.status, 201, JSON.stringify(registration.body));
    const { token } = registration.body;

    const tasks = new Map<string, TaskRecord>();
    let acknowledged = 0;
    let unansweredTotal = 0;
    const unexpected: string[] = [];

    async function verify(base: string, cycle: number, unanswered: Unanswered[]): Promise<string[]> {
      const problems: string[] = [];
      const seen = new Map<string, string>();
      for (const date of dates(cycle)) {
        const list = await call<{ tasks: Task[] }>(base, 'GET', `/tasks?date=${date}`, { token });
        assert.equal(list.status, 200, JSON.stringify(list.body));
        for (const task of list.body.tasks) seen.set(task._id, task.title);
      }
      const uncertain = new Map<string, Unanswered>();
      for (const write of unanswered) if (write.kind !== 'create') uncertain.set(write.task.id, write);
      for (const task of tasks.values()) {
        const stored = seen.get(task.id);
        const doubt = uncertain.get(task.id);
        if (task.deleted) {
          if (stored !== undefined) problems.push(`deleted task ${task.id} is back`);
        } else if (doubt?.kind === 'delete') {
          if (stored !== undefined && stored !== task.title)
            problems.push(`task ${task.id} has title ${stored}`);
          if (stored === undefined) task.deleted = true;
        } else if (doubt?.kind === 'edit') {
          if (stored !== task.title && stored !== doubt.title)
            problems.push(
              `task ${task.id} is ${stored ?? 'missing'}, expected ${task.title} or ${doubt.title}`,
            );
          if (stored !== undefined) task.title = stored;
        } else if (stored !== task.title) {
          problems.push(`acknowledged task ${task.id} (${task.title}) is ${stored ?? 'missing'}`);
        }
      }
      // A task nobody was told about must come from a create whose answer the kill cut off.
      for (const [id, title] of seen) {
        if (tasks.has(id)) continue;
        const create = unanswered.find((write) => write.kind === 'create' && write.title === title);
        if (!create || create.kind !== 'create') {
          problems.push(`unexpected task ${id} (${title})`);
          continue;
        }
        tasks.set(id, { id, title, date: create.date, worker: create.worker, deleted: false });
      }
      return problems;
    }

    for (let cycle = 1; cycle <= CYCLES; cycle += 1) {
      const running: RunningApi = api;
      const base = running.url;
      const date = dates(cycle).at(-1)!;
      let killed = false;
      const unanswered: Unanswered[] = [];

      async function worker(index: number) {
        let sequence = 0;
        while (!killed) {
          sequence += 1;
          const mine = [...tasks.values()].filter((task) => task.worker === index && !task.deleted);
          const roll = Math.random();
          const target = mine[Math.floor(Math.random() * mine.length)];
          let write: Unanswered;
          if (!target || roll < 0.5) {
            write = { kind: 'create', title: `c${cycle}-w${index}-${sequence}`, date, worker: index };
          } else if (roll < 0.75) {
            write = {
              kind: 'edit',
              task: target,
              title: `${target.title.split('~')[0]}~e${cycle}.${sequence}`,
            };
          } else {
            write = { kind: 'delete', task: target };
          }
          let answer;
          try {
            if (write.kind === 'create') {
              answer = await call<Task>(base, 'POST', '/tasks', {
                token,
                body: { title: write.title, startHHMM: '09:00', endHHMM: '10:00', date: write.date },
              });
            } else if (write.kind === 'edit') {
              answer = await call<Task>(base, 'PATCH', `/tasks/${write.task.id}`, {
                token,
                body: { title: write.title },
              });
            } else {
              answer = await call(base, 'DELETE', `/tasks/${write.task.id}`, { token });
            }
          } catch {
            // No answer: the process died with this write in flight (or before it arrived).
            unanswered.push(write);
            return;
          }
          if (answer.status < 200 || answer.status >= 300) {
            unexpected.push(`${write.kind}: ${answer.status} ${JSON.stringify(answer.body)}`);
            return;
          }
          acknowledged += 1;
          if (write.kind === 'create') {
            const { _id } = answer.body as Task;
            tasks.set(_id, { id: _id, title: write.title, date: write.date, worker: index, deleted: false });
          } else if (write.kind === 'edit') {
            write.task.title = write.title;
          } else {
            write.task.deleted = true;
          }
        }
      }

      const workers = Array.from({ length: WORKERS }, (_, index) => worker(index));
      await new Promise((resolve) => setTimeout(resolve, 250 + Math.random() * 750));
      running.child.kill('SIGKILL');
      const { signal } = await running.exited;
      killed = true;
      assert.equal(signal, 'SIGKILL');
      await Promise.all(workers);
      assert.deepEqual(unexpected, [], 'every answered write is a 2xx');
      unansweredTotal += unanswered.length;

      assert.equal(integrityOf(databaseFile), 'ok', `integrity after kill ${cycle}`);

      api = await start();
      const problems = await verify(api.url, cycle, unanswered);
      assert.deepEqual(problems, [], `after kill ${cycle}`);
    }

    const live = [...tasks.values()].filter((task) => !task.deleted).length;
    await api.kill();
    assert.equal(integrityOf(databaseFile), 'ok');
    assert.ok(acknowledged > CYCLES * WORKERS, `only ${acknowledged} writes were acknowledged`);
    const summary =
      `kill -9: ${CYCLES} cycles, ${acknowledged} writes acknowledged, 0 lost, integrity ok ` +
      `(${unansweredTotal} writes cut off unanswered, ${live} tasks live)`;
    console.log(summary);
    t.diagnostic(summary);
  },
);
