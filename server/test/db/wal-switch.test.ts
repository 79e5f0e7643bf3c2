// A process switching a fresh SQLite file to WAL while another holds the file's write lock: SQLite refuses the switch
// at once rather than through the busy timeout, so a start-up racing another one's migrations must retry it (seen as
// "database is locked" in one start in about a hundred of concurrent-start.test.ts).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { Worker } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { createDatabase } from '../../src/db/database.js';
import { isPostgresRun } from '../helpers.js';

const HOLD_MS = 300;

test(
  'the WAL switch waits for another connection’s write lock instead of failing at once',
  { skip: isPostgresRun ? 'SQLite files: runs in the SQLite pass' : false },
  async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'time-wallet-wal-'));
    after(() => rm(dataDir, { recursive: true, force: true }));
    const file = path.join(dataDir, 'time-wallet.sqlite');
    new SqliteDatabase(file).exec('create table t (x)').close();

    // The other connection, in a thread of its own so that it can commit while this thread waits.
    const holder = new Worker(
      `const Database = require(${JSON.stringify(createRequire(import.meta.url).resolve('better-sqlite3'))});
       const other = new Database(${JSON.stringify(file)});
       other.exec('begin immediate');
       other.exec('insert into t values (1)');
       require('node:worker_threads').parentPort.postMessage('held');
       setTimeout(() => { other.exec('commit'); other.close(); }, ${HOLD_MS});`,
      { eval: true },
    );
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    await new Promise((resolve) => holder.once('message', resolve));

    try {
      // A bare connection shows the refusal this guards against: SQLITE_BUSY at once, whatever its timeout.
      const bare = new SqliteDatabase(file, { timeout: 2 * HOLD_MS });
      assert.throws(() => bare.pragma('journal_mode = WAL'), { code: 'SQLITE_BUSY' });
      bare.close();

      const started = Date.now();
      const handle = createDatabase({ kind: 'sqlite', file });
      try {
        const waited = Date.now() - started;
        const { rows } = await sql<{ journalMode: string }>`pragma journal_mode`.execute(handle.db);
        assert.equal(rows[0]!.journalMode, 'wal');
        // A lower bound, not a speed figure: the switch can only succeed once the other connection has committed.
        assert.ok(
          waited >= HOLD_MS / 2,
          `switched after ${waited} ms, while the other connection held the lock`,
        );
        const { rows: kept } = await sql<{ x: number }>`select x from t`.execute(handle.db);
        assert.deepEqual(kept, [{ x: 1 }]);
      } finally {
        await handle.db.destroy();
      }
    } finally {
      await exited;
    }
  },
);
