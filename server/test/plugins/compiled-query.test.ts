import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { CamelCasePlugin, Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { migrateToLatest } from '../../src/db/database.js';
import type { Database } from '../../src/db/schema.js';
import { compiledOnce } from '../../src/plugins/app/compiled-query.js';

// A read compiled once must run exactly what building it anew would run, with each call's own arguments, and refuse
// a query that its arguments shape.
const sqlite = new SqliteDatabase(':memory:');
const executed: CompiledQuery[] = [];
const db = new Kysely<Database>({
  dialect: new SqliteDialect({ database: sqlite }),
  plugins: [new CamelCasePlugin()],
  log: (event) => {
    if (event.level === 'query') executed.push(event.query);
  },
});
after(() => db.destroy());
await migrateToLatest(db);

for (const [id, createdAt] of [
  ['ann', 10],
  ['bob', 20],
  ['cat', 30],
] as const) {
  await db
    .insertInto('users')
    .values({
      id,
      username: id,
      usernameKey: id,
      email: `${id}@example.com`,
      emailKey: `${id}@example.com`,
      passwordHash: 'x',
      name: id,
      profilePicture: '',
      budgetHours: 8,
      timeZone: 'UTC',
      createdAt,
      updatedAt: createdAt,
    })
    .execute();
}

/** Users created in (after, before), or whose id is `id`: an argument used twice, a constant and a limit. */
const usersBetween = (after: number, before: number, id: string) =>
  db
    .selectFrom('users')
    .select(['id', 'createdAt'])
    .where((eb) =>
      eb.or([eb.and([eb('createdAt', '>', after), eb('createdAt', '<', before)]), eb('id', '=', id)]),
    )
    .where('budgetHours', '=', 8)
    .where('createdAt', '<>', after)
    .orderBy('createdAt')
    .limit(10);

describe('compiledOnce', () => {
  test('each call binds its own arguments into the SQL built the first time, and answers as the built query', async () => {
    let builds = 0;
    const read = compiledOnce(db, (after: number, before: number, id: string) => {
      builds += 1;
      return usersBetween(after, before, id);
    });
    for (const [after, before, id] of [
      [0, 25, 'nobody'],
      [15, 100, 'ann'],
      [30, 31, 'bob'],
    ] as const) {
      executed.length = 0;
      const expected = await usersBetween(after, before, id).execute();
      const rows = await read(after, before, id);
      assert.ok(rows.length > 0);
      assert.deepEqual(rows, expected, `${after} ${before} ${id}`);
      const [built, compiled] = executed;
      assert.equal(compiled!.sql, built!.sql);
      assert.deepEqual(compiled!.parameters, built!.parameters);
    }
    assert.equal(builds, 1, 'the query was built and compiled once');
  });

  test('refuses a build that uses an argument other than as a bound value', async () => {
    const shaped = compiledOnce(db, (id: string, newest: boolean) =>
      db
        .selectFrom('users')
        .select('id')
        .where('id', '=', id)
        .$if(newest, (query) => query.orderBy('createdAt', 'desc')),
    );
    await assert.rejects(shaped('ann', true), /argument 1 is not bound/);
  });
});
