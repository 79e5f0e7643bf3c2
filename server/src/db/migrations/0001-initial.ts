import type { Kysely } from 'kysely';

// Migrations see an untyped database: a later schema must not change what an old migration compiles against.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('username', 'text', (col) => col.notNull())
    .addColumn('username_key', 'text', (col) => col.notNull().unique())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('email_key', 'text', (col) => col.notNull().unique())
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('profile_picture', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('budget_hours', 'double precision', (col) => col.notNull().defaultTo(15))
    .addColumn('time_zone', 'text', (col) => col.notNull().defaultTo('UTC'))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('password_resets')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('password_resets_user_id').on('password_resets').column('user_id').execute();

  await db.schema
    .createTable('login_failures')
    .addColumn('account_key', 'text', (col) => col.notNull())
    .addColumn('failed_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('login_failures_account_time')
    .on('login_failures')
    .columns(['account_key', 'failed_at'])
    .execute();

  await db.schema
    .createTable('rate_limit_hits')
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('window_start', 'bigint', (col) => col.notNull())
    .addColumn('hits', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('rate_limit_hits_pk', ['key', 'window_start'])
    .execute();

  await db.schema
    .createTable('categories')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('color', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('categories_user_id')
    .on('categories')
    .columns(['user_id', 'created_at'])
    .execute();

  // category_id has no foreign key: a deleted category leaves its tasks pointing at an id that no longer matches.
  await db.schema
    .createTable('tasks')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('category_id', 'text')
    .addColumn('start_hhmm', 'text', (col) => col.notNull())
    .addColumn('end_hhmm', 'text', (col) => col.notNull())
    .addColumn('notes', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('date', 'text', (col) => col.notNull())
    .addColumn('start_at', 'bigint', (col) => col.notNull())
    .addColumn('end_at', 'bigint', (col) => col.notNull())
    .addColumn('done', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('is_event', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('is_reminder', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('carryover', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('tasks_user_date')
    .on('tasks')
    .columns(['user_id', 'date', 'start_at'])
    .execute();
  // Overlap queries (end_at > from AND start_at < to) scan only the tasks ending after the range starts.
  await db.schema.createIndex('tasks_user_end').on('tasks').columns(['user_id', 'end_at']).execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('start_at', 'bigint', (col) => col.notNull())
    .addColumn('end_at', 'bigint', (col) => col.notNull())
    .addColumn('all_day', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('ics_key', 'text')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('events_user_end').on('events').columns(['user_id', 'end_at']).execute();
  await db.schema.createIndex('events_user_start').on('events').columns(['user_id', 'start_at']).execute();
  await db.schema
    .createIndex('events_user_ics_key')
    .on('events')
    .columns(['user_id', 'ics_key'])
    .unique()
    .execute();

  await db.schema
    .createTable('analytics_snapshots')
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('week_start', 'text', (col) => col.notNull())
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('analytics_snapshots_pk', ['user_id', 'week_start'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'analytics_snapshots',
    'events',
    'tasks',
    'categories',
    'rate_limit_hits',
    'login_failures',
    'password_resets',
    'sessions',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
