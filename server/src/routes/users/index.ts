import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Updateable } from 'kysely';
import type { UsersTable } from '../../db/schema.js';
import { ACCOUNT_FIELDS, checkAccountFields } from '../../lib/account-rules.js';
import { HttpError, validationFailed } from '../../lib/http-errors.js';
import { jsonArrayItems } from '../../lib/text-batches.js';
import { canonicalTimeZone, localDateAt } from '../../lib/time-zone.js';
import { createUsersRepository } from '../../plugins/app/users-repository.js';
import { recordBudgetChange } from '../../services/ledger.js';
import { signedInUser } from '../../plugins/app/authentication.js';
import { bearerAuth } from '../../schemas/common.js';
import { toCategoryJson } from '../../schemas/category.js';
import { toCalendarJson } from '../../schemas/calendar.js';
import { toEventJson } from '../../schemas/event.js';
import { toTaskJson } from '../../schemas/task.js';
import { toTimeEntryJson } from '../../schemas/time-entry.js';
import {
  DeleteMeBody,
  UpdateMeBody,
  UserEnvelope,
  budgetsByWeekdayOf,
  toUserJson,
} from '../../schemas/user.js';
import { isOwnPassword } from '../../services/accounts.js';

const usersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['users'];

  app.get(
    '/me',
    {
      schema: { tags, summary: 'The signed-in user', security: bearerAuth, response: { 200: UserEnvelope } },
    },
    async (request) => ({ user: toUserJson(signedInUser(request)) }),
  );

  app.patch(
    '/me',
    {
      schema: {
        tags,
        summary:
          'Change name, daily budget hours (0 to 24), budgets by weekday, time zone (IANA) or profile picture',
        security: bearerAuth,
        body: UpdateMeBody,
        response: { 200: UserEnvelope },
      },
      preValidation: checkAccountFields(UpdateMeBody, { name: { ...ACCOUNT_FIELDS.name, optional: true } }),
    },
    async (request) => {
      const user = signedInUser(request);
      const { name, budgetHours, budgetHoursByWeekday, timeZone, profilePicture } = request.body;
      // Stored by its canonical name, as the X-Time-Zone header is read: one spelling per zone.
      const zone = timeZone === undefined ? undefined : canonicalTimeZone(timeZone);
      if (zone === null) {
        throw validationFailed([
          { field: 'timeZone', message: 'timeZone must be an IANA time zone such as Europe/Paris' },
        ]);
      }
      const changes: Updateable<UsersTable> = { updatedAt: app.now() };
      if (name !== undefined) changes.name = name;
      if (budgetHours !== undefined) changes.budgetHours = budgetHours;
      if (budgetHoursByWeekday !== undefined) {
        changes.budgetHoursByWeekday =
          budgetHoursByWeekday === null ? null : JSON.stringify(budgetHoursByWeekday);
      }
      if (zone) changes.timeZone = zone;
      if (profilePicture !== undefined) changes.profilePicture = profilePicture;
      const budgetChanged =
        (changes.budgetHours !== undefined && changes.budgetHours !== user.budgetHours) ||
        (changes.budgetHoursByWeekday !== undefined &&
          changes.budgetHoursByWeekday !== user.budgetHoursByWeekday);
      // The budget's history and the user's row change together.
      const updated = await app.db.transaction().execute(async (trx) => {
        if (budgetChanged) {
          await recordBudgetChange(trx, user, localDateAt(request.timeZone, app.now()), {
            budgetHours: changes.budgetHours ?? user.budgetHours,
            budgetHoursByWeekday:
              changes.budgetHoursByWeekday === undefined
                ? user.budgetHoursByWeekday
                : changes.budgetHoursByWeekday,
          });
        }
        return createUsersRepository(trx).update(user.id, changes);
      });
      return { user: toUserJson(updated!) };
    },
  );

  /** After every day the product stores: all of an account's budget periods start on or before it. */
  const LATEST_DATE = '9999-12-31';

  // The export's parts, each serialised with its own schema: the document is written piece by piece (below).
  const exportSchemas = {
    user: Type.Unsafe({ $ref: 'User#' }),
    category: Type.Unsafe({ $ref: 'Category#' }),
    task: Type.Unsafe({ $ref: 'Task#' }),
    event: Type.Unsafe({ $ref: 'CalendarEvent#' }),
    calendar: Type.Unsafe({ $ref: 'Calendar#' }),
    snapshot: Type.Object({
      weekStart: Type.String(),
      updatedAt: Type.String(),
      analytics: Type.Unsafe({ $ref: 'WeeklyAnalytics#' }),
    }),
    timeEntry: Type.Unsafe({ $ref: 'TimeEntry#' }),
    budgetPeriod: Type.Object(
      {
        fromDate: Type.String({
          description:
            "The local day it holds from; '0000-01-01' for the budget held before the first change",
        }),
        budgetHours: Type.Number(),
        budgetHoursByWeekday: Type.Union([Type.Array(Type.Number()), Type.Null()]),
      },
      {
        description:
          "A budget as it held from a day on (the ledger's budget history); none until one changes",
      },
    ),
  };
  app.get(
    '/me/export',
    {
      schema: {
        tags,
        summary: "All of the signed-in user's data as JSON",
        security: bearerAuth,
        response: {
          // Documented as the document it is; the handler sends it as a stream.
          200: Type.Unsafe<Readable>(
            Type.Object({
              exportedAt: Type.String(),
              user: exportSchemas.user,
              categories: Type.Array(exportSchemas.category),
              tasks: Type.Array(exportSchemas.task),
              events: Type.Array(exportSchemas.event),
              calendars: Type.Array(exportSchemas.calendar),
              analyticsSnapshots: Type.Array(exportSchemas.snapshot),
              timeEntries: Type.Array(exportSchemas.timeEntry),
              budgetPeriods: Type.Array(exportSchemas.budgetPeriod),
            }),
          ),
        },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const [categories, snapshots, calendars, eventCounts, budgetPeriods] = await Promise.all([
        app.categoriesRepository.list(user.id),
        app.analyticsSnapshotsRepository.list(user.id),
        app.calendarsRepository.list(user.id),
        app.eventsRepository.countsByCalendar(user.id),
        app.timeEntriesRepository.budgetPeriods(user.id, LATEST_DATE),
      ]);
      const serializer = (schema: Record<string, unknown>) =>
        reply.compileSerializationSchema(schema) as (data: unknown) => string;
      const userJson = serializer(exportSchemas.user);
      const categoryJson = serializer(exportSchemas.category);
      const taskJson = serializer(exportSchemas.task);
      const eventJson = serializer(exportSchemas.event);
      const calendarJson = serializer(exportSchemas.calendar);
      const snapshotJson = serializer(exportSchemas.snapshot);
      const timeEntryJson = serializer(exportSchemas.timeEntry);
      const budgetPeriodJson = serializer(exportSchemas.budgetPeriod);
      const exportedAt = new Date(app.now()).toISOString();
      // The same bytes as serialising the whole document at once; tasks and events, the bulk of it, are read a page
      // at a time and written in batches, so a large account neither fills memory nor holds the event loop.
      async function* document() {
        yield `{"exportedAt":${JSON.stringify(exportedAt)},"user":${userJson(toUserJson(user))},"categories":[`;
        yield categories.map((category) => categoryJson(toCategoryJson(category))).join(',');
        yield '],"tasks":[';
        yield* jsonArrayItems(app.tasksRepository.pagesByStart(user.id), (task) =>
          taskJson(toTaskJson(task)),
        );
        yield '],"events":[';
        yield* jsonArrayItems(app.eventsRepository.pagesByStart(user.id), (event) =>
          eventJson(toEventJson(event)),
        );
        yield '],"calendars":[';
        yield calendars
          .map((calendar) => calendarJson(toCalendarJson(calendar, eventCounts.get(calendar.id) ?? 0)))
          .join(',');
        yield '],"analyticsSnapshots":[';
        yield snapshots
          .map((snapshot) =>
            snapshotJson({
              weekStart: snapshot.weekStart,
              updatedAt: new Date(snapshot.updatedAt).toISOString(),
              analytics: snapshot.analytics,
            }),
          )
          .join(',');
        yield '],"timeEntries":[';
        yield* jsonArrayItems(app.timeEntriesRepository.pagesByStart(user.id), (entry) =>
          timeEntryJson(toTimeEntryJson(entry)),
        );
        yield '],"budgetPeriods":[';
        yield [...budgetPeriods]
          .reverse()
          .map((period) =>
            budgetPeriodJson({
              fromDate: period.fromDate,
              budgetHours: period.budgetHours,
              budgetHoursByWeekday: budgetsByWeekdayOf(period),
            }),
          )
          .join(',');
        yield ']}';
      }
      return reply
        .type('application/json; charset=utf-8')
        .header('content-disposition', 'attachment; filename="time-wallet-export.json"')
        .send(Readable.from(document(), { objectMode: false }));
    },
  );

  app.delete(
    '/me',
    {
      schema: {
        tags,
        summary: 'Delete the account and everything in it; needs the current password',
        security: bearerAuth,
        body: DeleteMeBody,
        response: { 204: { type: 'null' } },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      if (!(await isOwnPassword(app, user, request.body.password, request.ip))) {
        throw new HttpError(403, 'Password is incorrect', {
          errors: [{ field: 'password', message: 'Password is incorrect' }],
        });
      }
      await app.usersRepository.delete(user.id);
      // The account is gone whatever happens to its mails: a failed clean-up is logged, never answered as a 500.
      await app.mailer
        .deleteMailsTo(user.email)
        .catch((error: unknown) =>
          request.log.error({ err: error }, 'outbox clean-up after account deletion failed'),
        );
      return reply.code(204).send();
    },
  );
};

export default usersRoutes;
