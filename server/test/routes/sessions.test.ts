import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { CamelCasePlugin, Kysely, Migrator, SqliteDialect } from 'kysely';
import { loadConfig } from '../../src/config.js';
import { migrateToLatest, migrations } from '../../src/db/database.js';
import type { Database } from '../../src/db/schema.js';
import { MAX_SESSIONS_PER_USER } from '../../src/plugins/app/authentication.js';
import { buildTestApp, signUp, type SignedInUser, send } from '../helpers.js';

const MINUTE = 60_000;
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) Mobile/15E148';

interface SessionJson {
  _id: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  userAgent: string;
  current: boolean;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const sessionIdOf = (token: string) => String(decodeJwt(token).jti);

async function signInAgain(app: FastifyInstance, user: SignedInUser, userAgent?: string): Promise<string> {
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: userAgent === undefined ? {} : { 'user-agent': userAgent },
    payload: { username: user.user.username, password: user.password },
  });
  assert.equal(login.statusCode, 200, login.body);
  return login.json<{ token: string }>().token;
}

async function statusOf(app: FastifyInstance, token: string): Promise<number> {
  return (await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) })).statusCode;
}

async function sessionsOf(app: FastifyInstance, token: string): Promise<SessionJson[]> {
  const response = await app.inject({ method: 'GET', url: '/api/auth/sessions', headers: bearer(token) });
  assert.equal(response.statusCode, 200, response.body);
  return response.json<{ sessions: SessionJson[] }>().sessions;
}

async function sessionRow(app: FastifyInstance, token: string) {
  return app.db.selectFrom('sessions').selectAll().where('id', '=', sessionIdOf(token)).executeTakeFirst();
}

describe('GET /api/auth/sessions', () => {
  test('lists both devices, most recently used first, exactly one of them current', async () => {
    const { app, clock } = await buildTestApp();
    const user = await signUp(app);
    const createdAt = clock.now;
    clock.now += 5 * MINUTE;
    const phone = await signInAgain(app, user, `${PHONE} ${'x'.repeat(300)}`);

    const fromLaptop = await sessionsOf(app, user.token);
    assert.deepEqual(
      fromLaptop.map((session) => session._id),
      [sessionIdOf(phone), sessionIdOf(user.token)],
    );
    assert.deepEqual(
      fromLaptop.map((session) => session.current),
      [false, true],
    );
    const [phoneSession, laptopSession] = fromLaptop as [SessionJson, SessionJson];
    assert.deepEqual(laptopSession, {
      _id: sessionIdOf(user.token),
      createdAt: new Date(createdAt).toISOString(),
      // The listing request itself is a use of the session.
      lastSeenAt: new Date(createdAt + 5 * MINUTE).toISOString(),
      expiresAt: new Date(createdAt + 7 * 24 * 3600_000).toISOString(),
      // light-my-request's own User-Agent.
      userAgent: 'lightMyRequest',
      current: true,
    });
    assert.equal(phoneSession.userAgent.length, 200);
    assert.ok(phoneSession.userAgent.startsWith(PHONE));

    const fromPhone = await sessionsOf(app, phone);
    assert.deepEqual(
      fromPhone.map((session) => [session._id, session.current]),
      [
        [sessionIdOf(phone), true],
        [sessionIdOf(user.token), false],
      ],
    );
  });

  test("shows none of another user's sessions, nor expired or idle ones", async () => {
    const { app, clock } = await buildTestApp();
    const user = await signUp(app);
    const other = await signUp(app);
    const idle = await signInAgain(app, user);
    // The user keeps using the first session; the second one is left alone past the idle limit.
    for (let step = 0; step < 4; step += 1) {
      clock.now += 10 * MINUTE;
      assert.equal(await statusOf(app, user.token), 200);
    }
    const listed = await sessionsOf(app, user.token);
    assert.deepEqual(
      listed.map((session) => session._id),
      [sessionIdOf(user.token)],
    );
    assert.ok(!JSON.stringify(listed).includes(sessionIdOf(other.token)));
    assert.equal(await statusOf(app, idle), 401);
  });
});

describe('DELETE /api/auth/sessions/:id', () => {
  test("ends the other device's session: its token is refused at once, this one keeps working", async () => {
    const { app } = await buildTestApp();
    const user = await signUp(app);
    const phone = await signInAgain(app, user, PHONE);
    assert.equal(await statusOf(app, phone), 200);

    const ended = await send(app, user.headers, 'DELETE', `/api/auth/sessions/${sessionIdOf(phone)}`);
    assert.equal(ended.statusCode, 204, ended.body);
    assert.equal(ended.body, '');
    assert.equal(await statusOf(app, phone), 401);
    assert.equal(await statusOf(app, user.token), 200);
    assert.deepEqual(
      (await sessionsOf(app, user.token)).map((session) => session._id),
      [sessionIdOf(user.token)],
    );

    const again = await send(app, user.headers, 'DELETE', `/api/auth/sessions/${sessionIdOf(phone)}`);
    assert.equal(again.statusCode, 404);
    assert.deepEqual(again.json(), { message: 'Not found' });
  });

  test("another user's session answers exactly like a missing one and stays alive", async () => {
    const { app } = await buildTestApp();
    const user = await signUp(app);
    const other = await signUp(app);
    const foreign = await send(app, user.headers, 'DELETE', `/api/auth/sessions/${sessionIdOf(other.token)}`);
    const missing = await send(
      app,
      user.headers,
      'DELETE',
      '/api/auth/sessions/00000000-0000-4000-8000-000000000000',
    );
    assert.equal(foreign.statusCode, 404);
    assert.deepEqual(foreign.json(), missing.json());
    assert.deepEqual(foreign.json(), { message: 'Not found' });
    assert.equal(await statusOf(app, other.token), 200);
  });

  test('ending the current session signs this token out', async () => {
    const { app } = await buildTestApp();
    const user = await signUp(app);
    const phone = await signInAgain(app, user);
    const ended = await send(app, user.headers, 'DELETE', `/api/auth/sessions/${sessionIdOf(user.token)}`);
    assert.equal(ended.statusCode, 204);
    assert.equal(await statusOf(app, user.token), 401);
    assert.equal(await statusOf(app, phone), 200);
  });
});

describe('POST /api/auth/logout-all', () => {
  test("signs out every device of the user, this one included, and no one else's", async () => {
    const { app } = await buildTestApp();
    const user = await signUp(app);
    const phone = await signInAgain(app, user, PHONE);
    const other = await signUp(app);
    const everywhere = await send(app, user.headers, 'POST', '/api/auth/logout-all');
    assert.equal(everywhere.statusCode, 204, everywhere.body);
    assert.equal(await statusOf(app, user.token), 401);
    assert.equal(await statusOf(app, phone), 401);
    const left = await app.db.selectFrom('sessions').select('userId').execute();
    assert.deepEqual(
      left.map((row) => row.userId),
      [other.user.id],
    );
    assert.equal(await statusOf(app, other.token), 200);
  });
});

describe('idle sessions end on the server', () => {
  // SESSION_IDLE_MINUTES (30) + one minute for the once-a-minute activity write + one minute of grace.
  const IDLE_LIMIT = 32 * MINUTE;

  test('a token unused past the idle time-out is refused with the usual 401, and its row is deleted', async () => {
    const { app, clock } = await buildTestApp();
    const signedInAt = clock.now;
    const early = await signUp(app);
    const idle = await signUp(app);
    // The browser signs out after 30 minutes; the server still accepts a token a little longer, so the browser's own
    // sign-out (which calls /auth/logout with it) always comes first.
    clock.now = signedInAt + 30 * MINUTE + 1000;
    assert.equal(await statusOf(app, early.token), 200);

    clock.now = signedInAt + IDLE_LIMIT;
    const refused = await app.inject({ method: 'GET', url: '/api/tasks/today', headers: idle.headers });
    assert.equal(refused.statusCode, 401);
    assert.deepEqual(refused.json(), { message: 'Unauthorized' });
    assert.equal(await sessionRow(app, idle.token), undefined);
    assert.ok(await sessionRow(app, early.token));
    assert.equal(await statusOf(app, early.token), 200, 'last used two minutes ago');
  });

  test('activity within the time-out keeps the session alive for hours; stopping ends it', async () => {
    const { app, clock } = await buildTestApp();
    const user = await signUp(app);
    // Three hours of requests, each 29 minutes after the last: never idle.
    for (let step = 0; step < 6; step += 1) {
      clock.now += 29 * MINUTE;
      assert.equal(await statusOf(app, user.token), 200, `step ${step}`);
    }
    const lastRequest = clock.now;
    clock.now = lastRequest + IDLE_LIMIT - 1;
    assert.equal(await statusOf(app, user.token), 200, 'just inside the limit');
    clock.now += IDLE_LIMIT;
    assert.equal(await statusOf(app, user.token), 401);
  });

  test('last_seen_at is written at most once a minute, however many requests come', async () => {
    const { app, clock } = await buildTestApp();
    const user = await signUp(app);
    const signedInAt = clock.now;
    const seen: Array<[number, number]> = [];
    for (const offset of [0, 1000, 30_000, 59_999, 60_000, 60_001, 90_000, 119_999, 120_000, 150_000]) {
      clock.now = signedInAt + offset;
      assert.equal(await statusOf(app, user.token), 200);
      seen.push([offset, (await sessionRow(app, user.token))!.lastSeenAt - signedInAt]);
    }
    assert.deepEqual(seen, [
      [0, 0],
      [1000, 0],
      [30_000, 0],
      [59_999, 0],
      [60_000, 60_000],
      [60_001, 60_000],
      [90_000, 60_000],
      [119_999, 60_000],
      [120_000, 120_000],
      [150_000, 120_000],
    ]);
  });

  test('SESSION_IDLE_MINUTES sets the time-out', async () => {
    const { app, clock } = await buildTestApp({ env: { SESSION_IDLE_MINUTES: '5' } });
    const user = await signUp(app);
    clock.now += 7 * MINUTE - 1;
    assert.equal(await statusOf(app, user.token), 200);
    clock.now += 7 * MINUTE;
    assert.equal(await statusOf(app, user.token), 401);
  });
});

describe('signing in keeps one account’s sessions bounded', () => {
  test('idle and expired sessions are removed, and only the most recently used ones are kept', async () => {
    const { app, clock } = await buildTestApp();
    const user = await signUp(app);
    const idle = await signInAgain(app, user);
    clock.now += 40 * MINUTE;
    const tokens: string[] = [];
    for (let count = 0; count < MAX_SESSIONS_PER_USER + 2; count += 1) {
      clock.now += 1;
      tokens.push(await signInAgain(app, user));
    }
    const rows = await app.db
      .selectFrom('sessions')
      .select('id')
      .where('userId', '=', user.user.id)
      .execute();
    assert.equal(rows.length, MAX_SESSIONS_PER_USER);
    const kept = new Set(rows.map((row) => row.id));
    assert.ok(!kept.has(sessionIdOf(idle)));
    assert.ok(!kept.has(sessionIdOf(user.token)));
    assert.deepEqual(
      tokens.map((token) => kept.has(sessionIdOf(token))),
      [false, false, ...Array<boolean>(MAX_SESSIONS_PER_USER).fill(true)],
    );
    assert.equal(await statusOf(app, tokens[0]!), 401);
    assert.equal(await statusOf(app, tokens.at(-1)!), 200);
  });
});

describe('the idle time-out is one number for the API and the browser', () => {
  test("the API's config and the shell's runtime config read the same default and the same variable", async () => {
    // A specifier TypeScript does not resolve: the devkit is plain JavaScript without types.
    const devkitLib = '@time-wallet/devkit/lib';
    const lib = (await import(devkitLib)) as {
      runtimeConfigFor(env: NodeJS.ProcessEnv): { inactivityTimeoutMs: number };
    };
    const env = { JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/nonexistent' };
    assert.equal(loadConfig(env).sessionIdleMinutes, 30);
    assert.equal(lib.runtimeConfigFor(env).inactivityTimeoutMs, 30 * MINUTE);
    const longer = { ...env, SESSION_IDLE_MINUTES: '45' };
    assert.equal(loadConfig(longer).sessionIdleMinutes, 45);
    assert.equal(lib.runtimeConfigFor(longer).inactivityTimeoutMs, 45 * MINUTE);
    for (const wrong of ['0', '-5', '1.5', 'soon']) {
      assert.throws(() => loadConfig({ ...env, SESSION_IDLE_MINUTES: wrong }), /SESSION_IDLE_MINUTES/);
      assert.throws(
        () => lib.runtimeConfigFor({ ...env, SESSION_IDLE_MINUTES: wrong }),
        /SESSION_IDLE_MINUTES/,
      );
    }
  });
});

describe('migration 0004-session-activity', () => {
  test('existing sessions count as last used when they began, with no device recorded', async () => {
    const sqlite = new SqliteDatabase(':memory:');
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: sqlite }),
      plugins: [new CamelCasePlugin()],
    });
    try {
      const before = new Migrator({ db, provider: { getMigrations: async () => migrations } });
      const { error } = await before.migrateTo('0002-events-overlap-index');
      assert.equal(error, undefined);
      sqlite
        .prepare(
          `insert into users (id, username, username_key, email, email_key, password_hash, name, created_at,
           updated_at) values ('u1', 'a', 'a', 'a@x.io', 'a@x.io', 'h', 'Abcde', 1, 1)`,
        )
        .run();
      sqlite
        .prepare(
          `insert into sessions (id, user_id, created_at, expires_at)
           values ('s1', 'u1', 1000, 9000), ('s2', 'u1', 2000, 9000)`,
        )
        .run();
      await migrateToLatest(db);
      assert.deepEqual(
        sqlite.prepare('select id, last_seen_at, user_agent from sessions order by id').all(),
        [
          { id: 's1', last_seen_at: 1000, user_agent: '' },
          { id: 's2', last_seen_at: 2000, user_agent: '' },
        ],
      );
    } finally {
      await db.destroy();
    }
  });
});
