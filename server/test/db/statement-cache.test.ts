import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import {
  createDatabase,
  migrateToLatest,
  STATEMENTS_KEPT,
  withStatementCache,
} from '../../src/db/database.js';
import { compiledOnce } from '../../src/plugins/app/compiled-query.js';

// SQLite statements are kept per SQL text; IN lists and multi-row inserts make new texts without end, so the cache
// has a bound, and reaching it must cost the cold texts, not the hot ones every request runs.
const sqlite = new SqliteDatabase(':memory:');
after(() => sqlite.close());
const preparedTimes = new Map<string, number>();
const prepare = sqlite.prepare.bind(sqlite);
sqlite.prepare = ((text: string) => {
  preparedTimes.set(text, (preparedTimes.get(text) ?? 0) + 1);
  return prepare(text);
}) as typeof sqlite.prepare;
const cached = withStatementCache(sqlite);

describe('SQLite statement cache', () => {
  test('a statement in use stays prepared while more distinct texts than the bound pass through', () => {
    const hot = 'select 1 as hot';
    const cold = (index: number) => `select ${index} as cold`;
    for (let index = 0; index < 3 * STATEMENTS_KEPT; index += 1) {
      assert.deepEqual(cached.prepare(hot).all([]), [{ hot: 1 }]);
      assert.deepEqual(cached.prepare(cold(index)).all([]), [{ cold: index }]);
    }
    assert.equal(preparedTimes.get(hot), 1, 'the hot statement was prepared again');
    // The oldest cold texts were dropped: asking again prepares them anew, and the newest are still there.
    cached.prepare(cold(0));
    assert.equal(preparedTimes.get(cold(0)), 2);
    cached.prepare(cold(3 * STATEMENTS_KEPT - 1));
    assert.equal(preparedTimes.get(cold(3 * STATEMENTS_KEPT - 1)), 1);
  });

  test('a reading statement keys its rows by keyOf, in rows and in iterate, and follows a change of columns', () => {
    const db = new SqliteDatabase(':memory:');
    try {
      const keyed = withStatementCache(db, (column) => column.toUpperCase());
      db.exec("create table t (a_b integer, c text); insert into t values (1, 'x'), (2, 'y')");
      const read = 'select * from t order by a_b';
      assert.deepEqual(keyed.prepare(read).all([]), [
        { A_B: 1, C: 'x' },
        { A_B: 2, C: 'y' },
      ]);
      assert.deepEqual(
        [...keyed.prepare(read).iterate([])],
        [
          { A_B: 1, C: 'x' },
          { A_B: 2, C: 'y' },
        ],
      );
      assert.deepEqual(keyed.prepare('select a_b from t where c = ?').all(['y']), [{ A_B: 2 }]);
      assert.deepEqual(keyed.prepare('select a_b from t where c = ?').all(['none']), []);
      // SQLite prepares the kept statement again after a schema change: the `*` now has three columns.
      db.exec('alter table t add column "d""quoted" text default \'z\'');
      assert.deepEqual(keyed.prepare(read).all([]), [
        { A_B: 1, C: 'x', 'D"QUOTED': 'z' },
        { A_B: 2, C: 'y', 'D"QUOTED': 'z' },
      ]);
      assert.equal(keyed.prepare('insert into t (a_b) values (3)').run([]).changes, 1);
    } finally {
      db.close();
    }
  });
});

// SQLite's planner reads a bound LIMIT's value, so it prepares `limit ?` again on every run: a number is written in.
describe('limits on SQLite', () => {
  test('a number given to limit() is written into the SQL; a compiledOnce argument stays a parameter', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'time-wallet-limit-'));
    const handle = createDatabase({ kind: 'sqlite', file: path.join(dataDir, 'limits.sqlite') });
    after(async () => {
      await handle.db.destroy();
      await rm(dataDir, { recursive: true, force: true });
    });
    await migrateToLatest(handle.db);
    const byName = handle.db.selectFrom('users').select('id').where('username', '=', 'ann');
    const written = byName.limit(7).compile();
    assert.match(written.sql, / limit 7$/);
    assert.deepEqual(written.parameters, ['ann']);
    // A union's limit is the outer select's.
    const union = byName.unionAll(byName).limit(3).compile();
    assert.match(union.sql, / limit 3$/);
    assert.deepEqual(union.parameters, ['ann', 'ann']);
    // Anything but a whole number is left to SQLite to judge, bound.
    assert.match(byName.limit(2.5).compile().sql, / limit \?$/);

    const now = Date.now();
    const rows = ['ann', 'bob', 'cy'].map((name) => ({
      id: name,
      username: name,
      usernameKey: name,
      email: `${name}@example.com`,
      emailKey: `${name}@example.com`,
      passwordHash: 'x',
      profilePicture: '',
      budgetHours: 15,
      timeZone: 'UTC',
      name,
      createdAt: now,
      updatedAt: now,
    }));
    await handle.db.insertInto('users').values(rows).execute();
    const firstOf = compiledOnce(handle.db, (count: number) =>
      handle.db.selectFrom('users').select('id').orderBy('id').limit(count),
    );
    assert.deepEqual(await firstOf(1), [{ id: 'ann' }]);
    assert.deepEqual(await firstOf(2), [{ id: 'ann' }, { id: 'bob' }]);
    assert.deepEqual(await handle.db.selectFrom('users').select('id').orderBy('id').limit(2).execute(), [
      { id: 'ann' },
      { id: 'bob' },
    ]);
  });
});
