import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { buildTestApp, signUp, send } from '../helpers.js';

describe('/api/users/me', () => {
  test('reads and updates name, budget hours and time zone', async () => {
    const { app } = await buildTestApp();
    const { headers, user } = await signUp(app);
    const me = await app.inject({ method: 'GET', url: '/api/users/me', headers });
    assert.deepEqual(me.json(), { user });

    const patched = await send(app, headers, 'PATCH', '/api/users/me', {
      name: '  Renamed Person ',
      budgetHours: 7.5,
      timeZone: 'Australia/Sydney',
    });
    assert.equal(patched.statusCode, 200);
    assert.deepEqual(patched.json().user, {
      ...user,
      name: 'Renamed Person',
      budgetHours: 7.5,
      timeZone: 'Australia/Sydney',
    });
    const validate = await app.inject({ method: 'GET', url: '/api/auth/validate', headers });
    assert.equal(validate.json().user.budgetHours, 7.5);
  });

  test('rejects out-of-range budgets, unknown zones, short names and other fields', async () => {
    const { app } = await buildTestApp();
    const { headers } = await signUp(app);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ budgetHours: -1 }, 'budgetHours'],
      [{ budgetHours: 24.5 }, 'budgetHours'],
      [{ budgetHours: '8' }, 'budgetHours'],
      [{ timeZone: 'Moon/Base' }, 'timeZone'],
      [{ name: 'Al' }, 'name'],
      [{ email: 'new@example.com' }, 'email'],
      [{ username: 'takeover' }, 'username'],
    ];
    for (const [payload, field] of cases) {
      const response = await app.inject({ method: 'PATCH', url: '/api/users/me', headers, payload });
      assert.equal(response.statusCode, 400, JSON.stringify(payload));
      assert.equal(response.json().message, 'Validation failed');
      assert.equal(response.json().errors[0].field, field);
    }
  });

  test('exports all of the user’s data and nobody else’s', async () => {
    const { app } = await buildTestApp();
    const owner = await signUp(app);
    const other = await signUp(app);
    await send(app, owner.headers, 'POST', '/api/categories', { name: 'Work' });
    await send(app, other.headers, 'POST', '/api/categories', { name: 'Secret' });
    await send(app, owner.headers, 'POST', '/api/tasks', {
      title: 'Plan',
      startHHMM: '09:00',
      endHHMM: '10:00',
      date: '2026-03-11',
    });
    await send(app, owner.headers, 'POST', '/api/events', {
      title: 'Meet',
      start: '2026-03-11T10:00:00Z',
      end: '2026-03-11T11:00:00Z',
    });
    const response = await app.inject({ method: 'GET', url: '/api/users/me/export', headers: owner.headers });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-disposition']), /attachment/);
    const data = response.json();
    assert.equal(data.user.id, owner.user.id);
    assert.deepEqual(
      data.categories.map((category: { name: string }) => category.name),
      ['Work'],
    );
    assert.deepEqual(
      data.tasks.map((task: { title: string }) => task.title),
      ['Plan'],
    );
    assert.deepEqual(
      data.events.map((event: { title: string }) => event.title),
      ['Meet'],
    );
    assert.deepEqual(
      data.calendars.map((calendar: { kind: string; eventCount: number }) => [
        calendar.kind,
        calendar.eventCount,
      ]),
      [['own', 1]],
    );
    assert.equal(JSON.stringify(data).includes('passwordHash'), false);
    assert.equal(JSON.stringify(data).includes('scrypt'), false);
  });

  test('exports the time entries, every page of them, and the budget history', async () => {
    const { app, clock } = await buildTestApp();
    const owner = await signUp(app);
    const other = await signUp(app);
    const task = await send(app, owner.headers, 'POST', '/api/tasks', {
      title: 'Write',
      date: '2026-03-10',
      estimateMinutes: 60,
    });
    assert.equal(task.statusCode, 201, task.body);
    const taskId = task.json()._id;
    const theirs = await send(app, other.headers, 'POST', '/api/tasks', {
      title: 'Theirs',
      date: '2026-03-10',
      estimateMinutes: 60,
    });
    const entry = (start: string, end: string) => ({ taskId, start, end });
    // Added out of order: the export lists them by start.
    for (const [start, end] of [
      ['2026-03-10T12:00:00Z', '2026-03-10T12:30:00Z'],
      ['2026-03-10T08:00:00Z', '2026-03-10T08:45:10Z'],
    ]) {
      assert.equal(
        (await send(app, owner.headers, 'POST', '/api/time-entries', entry(start, end))).statusCode,
        201,
      );
    }
    const otherEntry = {
      taskId: theirs.json()._id,
      start: '2026-03-10T09:00:00Z',
      end: '2026-03-10T10:00:00Z',
    };
    const theirEntry = await send(app, other.headers, 'POST', '/api/time-entries', otherEntry);
    assert.equal(theirEntry.statusCode, 201, theirEntry.body);
    // A budget changed on two days leaves three periods: the one before, then each change.
    assert.equal(
      (await send(app, owner.headers, 'PATCH', '/api/users/me', { budgetHours: 8 })).statusCode,
      200,
    );
    clock.now += 2 * 24 * 60 * 60_000;
    // Two days idle end the session: sign in again.
    const login = await send(app, {}, 'POST', '/api/auth/login', {
      username: owner.user.username,
      password: owner.password,
    });
    owner.headers.authorization = `Bearer ${login.json().token}`;
    const weekdays = [0, 6, 6, 6, 6, 6, 0];
    const patched = await send(app, owner.headers, 'PATCH', '/api/users/me', {
      budgetHoursByWeekday: weekdays,
    });
    assert.equal(patched.statusCode, 200);

    const data = (
      await app.inject({ method: 'GET', url: '/api/users/me/export', headers: owner.headers })
    ).json();
    assert.deepEqual(
      data.timeEntries.map((one: { taskId: string; start: string; end: string; source: string }) => [
        one.taskId,
        one.start,
        one.end,
        one.source,
      ]),
      [
        [taskId, '2026-03-10T08:00:00.000Z', '2026-03-10T08:45:10.000Z', 'manual'],
        [taskId, '2026-03-10T12:00:00.000Z', '2026-03-10T12:30:00.000Z', 'manual'],
      ],
    );
    assert.deepEqual(data.budgetPeriods, [
      { fromDate: '0000-01-01', budgetHours: 15, budgetHoursByWeekday: null },
      { fromDate: '2026-03-11', budgetHours: 8, budgetHoursByWeekday: null },
      { fromDate: '2026-03-13', budgetHours: 8, budgetHoursByWeekday: weekdays },
    ]);

    // Past one page (the repository's pages, made small here) every entry comes once, in order.
    const pages = [];
    for await (const page of app.timeEntriesRepository.pagesByStart(owner.user.id, 1)) pages.push(page);
    assert.deepEqual(
      pages.map((page) => page.map((row) => new Date(row.startAt).toISOString())),
      [['2026-03-10T08:00:00.000Z'], ['2026-03-10T12:00:00.000Z']],
    );
  });

  test('deleting the account needs the password and removes everything', async () => {
    const { app } = await buildTestApp();
    const owner = await signUp(app);
    const other = await signUp(app);
    await send(app, owner.headers, 'POST', '/api/categories', { name: 'Work' });
    await send(app, other.headers, 'POST', '/api/categories', { name: 'Kept' });

    const wrong = await send(app, owner.headers, 'DELETE', '/api/users/me', { password: 'Nope123!' });
    assert.equal(wrong.statusCode, 403);
    const missing = await send(app, owner.headers, 'DELETE', '/api/users/me', {});
    assert.equal(missing.statusCode, 400);

    const deleted = await send(app, owner.headers, 'DELETE', '/api/users/me', { password: owner.password });
    assert.equal(deleted.statusCode, 204);
    const session = await app.inject({ method: 'GET', url: '/api/auth/me', headers: owner.headers });
    assert.equal(session.statusCode, 401);
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: owner.user.username, password: owner.password },
    });
    assert.equal(login.statusCode, 401);
    const leftovers = await app.db.selectFrom('categories').select('userId').execute();
    assert.deepEqual(
      leftovers.map((row) => row.userId),
      [other.user.id],
    );
    const reRegister = await app.inject({
      method: 'POST',
      url: '/api/auth/register/user',
      payload: {
        username: owner.user.username,
        email: owner.user.email,
        password: owner.password,
        name: 'Back Again',
      },
    });
    assert.equal(reRegister.statusCode, 201);
  });

  test('deleting the account also removes its outbox mails and its password-attempt counts', async () => {
    const { app, dataDir } = await buildTestApp();
    const login = (username: string, password: string, remoteAddress: string) =>
      app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress });
    // Guesses at the name before the account existed, then at the account from two addresses.
    await login('leavingSoon', 'Wr0ng-1!', '203.0.113.1');
    const owner = await signUp(app, { username: 'leavingSoon' });
    const other = await signUp(app);
    await login(owner.user.username, 'Wr0ng-2!', '203.0.113.2');
    await login(owner.user.email, 'Wr0ng-3!', '203.0.113.3');
    await login(other.user.username, 'Wr0ng-4!', '203.0.113.2');
    for (const email of [owner.user.email, other.user.email.toUpperCase(), owner.user.email.toUpperCase()])
      await app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } });
    await app.mailer.flush();
    const outbox = path.join(dataDir, 'outbox');
    const recipients = async () => {
      const files = await readdir(outbox);
      const texts = await Promise.all(files.map((file) => readFile(path.join(outbox, file), 'utf8')));
      return texts.map((text) => /^To: (.*)$/m.exec(text)?.[1]).sort();
    };
    assert.deepEqual(await recipients(), [owner.user.email, owner.user.email, other.user.email].sort());
    const attemptRows = () =>
      app.db.selectFrom('signInThrottle').select(['accountKey', 'source']).orderBy('accountKey').execute();
    assert.equal((await attemptRows()).length, 4);

    const deleted = await send(app, owner.headers, 'DELETE', '/api/users/me', { password: owner.password });
    assert.equal(deleted.statusCode, 204);
    assert.deepEqual(await recipients(), [other.user.email]);
    assert.deepEqual(await attemptRows(), [{ accountKey: `user:${other.user.id}`, source: '203.0.113.2' }]);
  });
});
