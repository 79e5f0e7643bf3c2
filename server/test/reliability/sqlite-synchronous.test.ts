import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.js';
import { createDatabase } from '../../src/db/database.js';

async function synchronousOf(env: Record<string, string>): Promise<number> {
  const config = loadConfig(env);
  const handle = createDatabase(config.database);
  try {
    const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(handle.db);
    return rows[0]!.synchronous;
  } finally {
    await handle.db.destroy();
  }
}

test('SQLITE_SYNCHRONOUS picks NORMAL (default) or FULL and refuses anything else', async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'time-wallet-sync-'));
  after(() => rm(dataDir, { recursive: true, force: true }));
  const env = { DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40) };
  // SQLite's numbering: 1 NORMAL, 2 FULL.
  assert.equal(await synchronousOf(env), 1);
  assert.equal(await synchronousOf({ ...env, SQLITE_SYNCHRONOUS: 'normal' }), 1);
  assert.equal(await synchronousOf({ ...env, SQLITE_SYNCHRONOUS: 'FULL' }), 2);
  assert.throws(() => loadConfig({ ...env, SQLITE_SYNCHRONOUS: 'OFF' }), /NORMAL' or 'FULL/);
  assert.throws(
    () => loadConfig({ ...env, SQLITE_SYNCHRONOUS: 'FULL; drop table users' }),
    /NORMAL' or 'FULL/,
  );
});
