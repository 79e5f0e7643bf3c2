import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { STATEMENTS_KEPT, withStatementCache } from '../../src/db/database.js';

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
