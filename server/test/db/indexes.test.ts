import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { CamelCasePlugin, Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { migrateToLatest } from '../../src/db/database.js';
import type { Database } from '../../src/db/schema.js';
import { createRepositories } from '../../src/plugins/app/repositories.js';

// The repositories' own queries, captured as they run and explained by SQLite: every per-user, per-day and per-week
// read must be a SEARCH on an index (a range scan), never a SCAN of a table or of a whole index.
const sqlite = new SqliteDatabase(':memory:');
const captured: CompiledQuery[] = [];
const db = new Kysely<Database>({
  dialect: new SqliteDialect({ database: sqlite }),
  plugins: [new CamelCasePlugin()],
  log: (event) => {
    if (event.level === 'query') captured.push(event.query);
  },
});
await migrateToLatest(db);
const repositories = createRepositories(db);

async function plansOf(run: () => Promise<unknown>): Promise<string[]> {
  captured.length = 0;
  await run();
  const reads = captured.filter((query) => /^\s*select/i.test(query.sql));
  assert.ok(reads.length > 0, 'the repository ran a query');
  return reads.flatMap((query) =>
    (
      sqlite.prepare(`explain query plan ${query.sql}`).all(...(query.parameters as unknown[])) as Array<{
        detail: string;
      }>
    ).map((row) => row.detail),
  );
}

const user = 'user-1';

// Two events and two tasks, so an export's second page (the rows after the first page's last) is read too.
await db
  .insertInto('users')
  .values({
    id: user,
    username: 'someone',
    usernameKey: 'someone',
    email: 'someone@example.com',
    emailKey: 'someone@example.com',
    passwordHash: 'x',
    name: 'Some One',
    profilePicture: '',
    budgetHours: 8,
    timeZone: 'UTC',
    createdAt: 0,
    updatedAt: 0,
  })
  .execute();
for (const index of [1, 2]) {
  const row = {
    id: `row-${index}`,
    userId: user,
    startAt: index,
    endAt: index + 1,
    createdAt: 0,
    updatedAt: 0,
  };
  await db
    .insertInto('events')
    .values({ ...row, title: 'Event', allDay: 0, source: 'manual', icsKey: null, calendarId: user })
    .execute();
  await db
    .insertInto('tasks')
    .values({
      ...row,
      title: 'Task',
      categoryId: null,
      startHhmm: '09:00',
      endHhmm: '10:00',
      notes: '',
      date: '2026-03-11',
      done: 0,
      isEvent: 0,
      isReminder: 0,
      carryover: 0,
    })
    .execute();
}

/** Pulls pages of one row until the keyset query (rows after the previous page's last) has run. */
async function pageAfter(pages: AsyncGenerator<unknown[]>) {
  await pages.next();
  await pages.next();
}
const from = Date.parse('2026-03-08T05:00:00Z');
const to = Date.parse('2026-03-15T04:00:00Z');
const reads: Array<[string, () => Promise<unknown>, RegExp]> = [
  [
    'task list of a day',
    () => repositories.tasksRepository.listForDate(user, '2026-03-11'),
    /tasks_user_date/,
  ],
  [
    "a day's list in the reader's zone: its own tasks and those of other days overlapping it",
    () =>
      repositories.tasksRepository.listForDate(user, '2026-03-11', {
        bounds: { start: from, end: from + 86_400_000 },
      }),
    /tasks_user_date.*\| .*tasks_user_end/,
  ],
  [
    "today's read: the tasks dated today and, in the same query, other days' blocks overlapping it",
    () => repositories.tasksRepository.listOfDay(user, '2026-03-11', from, from + 86_400_000),
    /tasks_user_date.*\| .*tasks_user_end/,
  ],
  [
    "the tasks of a range of days (the ledger's tracked, unscheduled and done figures)",
    () => repositories.tasksRepository.listLedgerTasks(user, '2026-03-08', '2026-03-14'),
    /tasks_user_date/,
  ],
  [
    'the calendar: scheduled tasks overlapping a range, unscheduled ones dated in it',
    () =>
      repositories.tasksRepository.listForRange(user, {
        from,
        to,
        fromDate: '2026-03-08',
        toDate: '2026-03-14',
      }),
    /tasks_user_end.*\| .*tasks_user_date/,
  ],
  [
    'pending tasks of yesterday',
    () => repositories.tasksRepository.listForDate(user, '2026-03-10', { done: false }),
    /tasks_user_date/,
  ],
  [
    "tasks' spans overlapping today or a week (wallet, analytics)",
    () => repositories.tasksRepository.listSpansOverlapping(user, from, to),
    /tasks_user_end/,
  ],
  [
    "events' spans overlapping today or a week (wallet, analytics)",
    () => repositories.eventsRepository.listSpansOverlapping(user, from, to),
    /events_user_end/,
  ],
  [
    'events overlapping a range, today or a week',
    () => repositories.eventsRepository.listOverlapping(user, from, to),
    /events_user_end/,
  ],
  ['categories of a user', () => repositories.categoriesRepository.list(user), /categories_user_id/],
  [
    "a user's events counted (quota)",
    () => repositories.eventsRepository.countOf(user),
    /COVERING INDEX events_user_\w+ \(user_id=\?\)/,
  ],
  [
    "a user's tasks counted (quota)",
    () => repositories.tasksRepository.countOf(user),
    /COVERING INDEX tasks_user_/,
  ],
  [
    "a user's categories counted (quota)",
    () => repositories.categoriesRepository.countOf(user),
    /COVERING INDEX categories_user_id/,
  ],
  [
    'a page of events by start (export), after a given event',
    () => pageAfter(repositories.eventsRepository.pagesByStart(user, { pageSize: 1 })),
    /events_user_\w+ \(user_id=\?\)/,
  ],
  [
    'a page of tasks by start (export), after a given task',
    () => pageAfter(repositories.tasksRepository.pagesByStart(user, 1)),
    /tasks_user_\w+ \(user_id=\?\)/,
  ],
  ['one task', () => repositories.tasksRepository.find(user, 'task-1'), /autoindex_tasks/],
  [
    'imported events by UID',
    () => repositories.eventsRepository.keysIn(user, ['a#', 'b#']),
    /events_calendar_ics_key/,
  ],
  [
    'the session behind a token',
    () => repositories.accountSecurityRepository.findSessionUser('session-1', user, from),
    /autoindex_sessions/,
  ],
  [
    'reset links an account was sent in the last hour',
    () =>
      repositories.accountSecurityRepository.issuePasswordReset(
        { tokenHash: 'token-1', userId: user, createdAt: from, expiresAt: to },
        { perAccount: 3, windowMs: 3600_000 },
      ),
    /password_resets_user_id/,
  ],
  [
    'the live sessions of a user',
    () => repositories.accountSecurityRepository.listLiveSessions(user, from, from - 32 * 60_000),
    /sessions_user_id/,
  ],
  [
    'an account by username or email',
    () => repositories.usersRepository.findByLogin('Someone'),
    /autoindex_users/,
  ],
  // Last: it moves a task into the trash.
  [
    "a delete's trash entry, and the account's trash newest first with its sizes (kept within the bounds)",
    () => repositories.trashRepository.discard('tasks', user, 'row-2', from),
    /autoindex_tasks.*\| .*deleted_records_user_time \(user_id=\?\)/,
  ],
];

describe('indexes (SQLite EXPLAIN QUERY PLAN)', () => {
  for (const [name, run, index] of reads) {
    test(`${name} is a range scan`, async () => {
      const plan = await plansOf(run);
      const tableSteps = plan.filter((detail) => /^(SCAN|SEARCH) /.test(detail));
      assert.ok(tableSteps.length > 0, plan.join(' | '));
      for (const step of tableSteps)
        assert.match(step, /^SEARCH \w+ USING (COVERING )?INDEX/, plan.join(' | '));
      assert.match(plan.join(' | '), index);
    });
  }

  test("the sweep of every account's expired trash is a range scan of its expiry index", async () => {
    captured.length = 0;
    await repositories.trashRepository.deleteExpired(to);
    const [sweep] = captured;
    assert.ok(sweep && /^\s*delete/i.test(sweep.sql), 'the sweep is one DELETE');
    const plan = (
      sqlite.prepare(`explain query plan ${sweep.sql}`).all(...(sweep.parameters as unknown[])) as Array<{
        detail: string;
      }>
    ).map((row) => row.detail);
    assert.deepEqual(plan, ['SEARCH deleted_records USING INDEX deleted_records_deleted_at (deleted_at<?)']);
  });
});
