import type { Kysely, Updateable } from 'kysely';
import type { Database, NewUserRow, UserRow, UsersTable } from '../../db/schema.js';
import { createCalendarsRepository } from './calendars-repository.js';

export const accountKeyOf = (value: string) => value.trim().toLowerCase();

/**
 * The account password attempts are counted against: the user, whichever of username or email was typed, so the two
 * do not give twice the guesses. A name that matches no account is counted under itself, so it is throttled alike.
 */
export const attemptKeyOfUser = (userId: string) => `user:${userId}`;
export const attemptKeyOfName = (identifier: string) => `name:${accountKeyOf(identifier)}`;

export function createUsersRepository(db: Kysely<Database>) {
  return {
    async findById(id: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** A login identifier is an email when it contains '@' (usernames cannot), otherwise a username. */
    async findByLogin(identifier: string): Promise<UserRow | undefined> {
      const key = accountKeyOf(identifier);
      const column = key.includes('@') ? 'emailKey' : 'usernameKey';
      return db.selectFrom('users').selectAll().where(column, '=', key).executeTakeFirst();
    },

    async findByEmail(email: string): Promise<UserRow | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where('emailKey', '=', accountKeyOf(email))
        .executeTakeFirst();
    },

    async takenFields(username: string, email: string): Promise<{ username: boolean; email: boolean }> {
      const rows = await db
        .selectFrom('users')
        .select(['usernameKey', 'emailKey'])
        .where((eb) =>
          eb.or([eb('usernameKey', '=', accountKeyOf(username)), eb('emailKey', '=', accountKeyOf(email))]),
        )
        .execute();
      return {
        username: rows.some((row) => row.usernameKey === accountKeyOf(username)),
        email: rows.some((row) => row.emailKey === accountKeyOf(email)),
      };
    },

    async isUsernameTaken(username: string): Promise<boolean> {
      const row = await db
        .selectFrom('users')
        .select('id')
        .where('usernameKey', '=', accountKeyOf(username))
        .executeTakeFirst();
      return row !== undefined;
    },

    async create(user: Omit<NewUserRow, 'usernameKey' | 'emailKey'>): Promise<UserRow> {
      const row = { ...user, usernameKey: accountKeyOf(user.username), emailKey: accountKeyOf(user.email) };
      // An account comes with its own calendar, which every event made or imported here belongs to.
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('users').values(row).execute();
        await createCalendarsRepository(trx).ensureOwn(user.id, user.createdAt);
      });
      return (await this.findById(user.id))!;
    },

    async update(
      id: string,
      changes: Updateable<Omit<UsersTable, 'id' | 'usernameKey' | 'emailKey'>>,
    ): Promise<UserRow | undefined> {
      await db.updateTable('users').set(changes).where('id', '=', id).execute();
      return this.findById(id);
    },

    async delete(id: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const names = await trx
          .selectFrom('users')
          .select(['usernameKey', 'emailKey'])
          .where('id', '=', id)
          .executeTakeFirst();
        // Attempt counters under every key that names the account: its id, and its names typed before it existed.
        const attemptKeys = [attemptKeyOfUser(id)];
        if (names) attemptKeys.push(attemptKeyOfName(names.usernameKey), attemptKeyOfName(names.emailKey));
        await trx.deleteFrom('signInThrottle').where('accountKey', 'in', attemptKeys).execute();
        // Explicit deletes keep removal complete even where foreign keys are not enforced.
        for (const table of [
          'reminderDeliveries',
          'pushSubscriptions',
          'notificationSettings',
          'timeEntries',
          'budgetPeriods',
          'deletedRecords',
          'analyticsSnapshots',
          'events',
          'calendars',
          'tasks',
          'categories',
          'passwordResets',
          'sessions',
        ] as const) {
          await trx.deleteFrom(table).where('userId', '=', id).execute();
        }
        await trx.deleteFrom('users').where('id', '=', id).execute();
      });
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
