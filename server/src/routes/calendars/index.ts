import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { CalendarRow } from '../../db/schema.js';
import { HttpError, notFound } from '../../lib/http-errors.js';
import { fieldError } from '../../lib/input-rules.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { signedInUser } from '../../plugins/app/authentication.js';
import { ownCalendarId } from '../../plugins/app/calendars-repository.js';
import {
  CalendarList,
  CalendarRef,
  FeedUrl,
  RefreshResult,
  SubscribeBody,
  UpdateCalendarBody,
  toCalendarJson,
} from '../../schemas/calendar.js';
import { IdParams, NoBody, bearerAuth, errorResponses } from '../../schemas/common.js';
import { abortedOnDisconnect } from '../../services/ics-import.js';
import {
  SUBSCRIPTION_LIMITS,
  refreshSubscription,
  requireRoomForSubscription,
  scheduleSubscriptionRefresh,
  subscribe,
} from '../../services/calendars.js';

const CALENDAR_NOT_FOUND = 'Calendar not found';

/** The feed's secret: derived from its nonce with the server's secret, so the database holds only its hash. */
export function feedTokenOf(secret: string, nonce: string): string {
  return createHmac('sha256', secret).update(`feed:${nonce}`).digest('base64url');
}
export const feedTokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** Where this API answers, as the request reached it (behind a trusted proxy, as the proxy says). */
const feedUrl = (request: FastifyRequest, token: string) =>
  `${request.protocol}://${request.host}/api/feed/${token}.ics`;

const calendarsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['calendars'];
  scheduleSubscriptionRefresh(app);

  async function calendarOf(userId: string, id: string): Promise<CalendarRow> {
    const calendar = await app.calendarsRepository.find(userId, id);
    if (!calendar) throw notFound(CALENDAR_NOT_FOUND);
    return calendar;
  }
  async function json(calendar: CalendarRow) {
    const counts = await app.eventsRepository.countsByCalendar(calendar.userId);
    return toCalendarJson(calendar, counts.get(calendar.id) ?? 0);
  }

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: 'The own calendar and every subscription',
        security: bearerAuth,
        response: { 200: CalendarList },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const [calendars, counts] = await Promise.all([
        app.calendarsRepository.list(user.id),
        app.eventsRepository.countsByCalendar(user.id),
      ]);
      return { calendars: calendars.map((row) => toCalendarJson(row, counts.get(row.id) ?? 0)) };
    },
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        summary:
          'Subscribe to a calendar at a URL (http, https or webcal): fetched once now, then kept in step',
        description: `The calendar is fetched and read before anything is saved: an address that cannot be reached, is refused (loopback, private, link-local and metadata addresses, after DNS and on every redirect), serves no calendar, or is larger than 10 MB answers 400 with the reason on the field url. At most ${SUBSCRIPTION_LIMITS.perUser} subscriptions (409). Its events are read-only and refreshed every SUBSCRIPTION_REFRESH_MINUTES.`,
        security: bearerAuth,
        body: SubscribeBody,
        response: { 201: CalendarRef, ...errorResponses(400, 409, 429, 503) },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const calendar = await subscribe(app, user, request.body, abortedOnDisconnect(request, reply));
      return reply.code(201).send(await json(calendar));
    },
  );

  app.patch(
    '/:id',
    {
      config: { notFoundMessage: CALENDAR_NOT_FOUND },
      schema: {
        tags,
        summary:
          "Rename or recolour a calendar, or switch whether a subscription's events count in the budget",
        security: bearerAuth,
        params: IdParams,
        body: UpdateCalendarBody,
        response: { 200: CalendarRef },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const calendar = await calendarOf(user.id, request.params.id);
      const { name, color, countsInBudget } = request.body;
      if (countsInBudget === false && calendar.kind === 'own') {
        throw new HttpError(400, 'Your own calendar always counts in the budget');
      }
      const trimmed = name?.trim();
      if (trimmed === '') throw fieldError('name', 'Name is required');
      const changes = {
        ...(trimmed !== undefined ? { name: trimmed } : {}),
        ...(color !== undefined ? { color: color.toLowerCase() } : {}),
        ...(countsInBudget !== undefined ? { countsInBudget: countsInBudget ? 1 : 0 } : {}),
        updatedAt: app.now(),
      };
      await app.calendarsRepository.update(user.id, calendar.id, changes);
      return json({ ...calendar, ...changes });
    },
  );

  app.delete(
    '/:id',
    {
      config: { notFoundMessage: CALENDAR_NOT_FOUND },
      schema: {
        tags,
        summary: 'Remove a subscription and its events; POST /calendars/{id}/restore undoes it for an hour',
        security: bearerAuth,
        params: IdParams,
        body: NoBody,
        response: { 204: { type: 'null' } },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const calendar = await calendarOf(user.id, request.params.id);
      if (calendar.kind === 'own') throw new HttpError(409, 'Your own calendar cannot be removed');
      await app.db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('events')
          .where('userId', '=', user.id)
          .where('calendarId', '=', calendar.id)
          .execute();
        await app.trashRepository.discard('calendars', user.id, calendar.id, app.now(), { trx });
      });
      return reply.code(204).send();
    },
  );

  app.post(
    '/:id/restore',
    {
      config: { notFoundMessage: CALENDAR_NOT_FOUND },
      schema: {
        tags,
        summary: 'Undo the removal of a subscription: it comes back and is fetched again from its source',
        security: bearerAuth,
        params: IdParams,
        body: NoBody,
        response: { 200: CalendarRef },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const { id } = request.params;
      const trashed = await app.trashRepository.find('calendars', user.id, id, app.now());
      if (!trashed) throw notFound('Nothing to undo: this calendar was not removed in the last hour');
      try {
        if (
          !(await app.trashRepository.restore('calendars', user.id, id, trashed, requireRoomForSubscription))
        ) {
          throw notFound('Nothing to undo: this calendar was not removed in the last hour');
        }
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        throw new HttpError(409, 'This calendar cannot come back: it is back already');
      }
      // Its events went with it: they come back from the source, which is what they mirror.
      const calendar = await calendarOf(user.id, id);
      await refreshSubscription(app, calendar, { conditional: false }).catch((error: unknown) => {
        if (!(error instanceof HttpError && error.statusCode === 422)) throw error;
      });
      return json(await calendarOf(user.id, id));
    },
  );

  app.post(
    '/:id/refresh',
    {
      config: { notFoundMessage: CALENDAR_NOT_FOUND },
      schema: {
        tags,
        summary: 'Fetch a subscription now (conditionally: an unchanged source changes nothing)',
        description:
          "Replaces the calendar's events with what its source now holds, in one transaction. A failed fetch, a file that is no calendar or one past a limit keeps the last good events, is recorded as the calendar's lastError and answers 422 with it.",
        security: bearerAuth,
        params: IdParams,
        body: NoBody,
        response: { 200: RefreshResult, ...errorResponses(409, 422, 429, 503) },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const calendar = await calendarOf(user.id, request.params.id);
      if (calendar.kind !== 'subscription') {
        throw new HttpError(409, 'Your own calendar has no source to refresh from');
      }
      return refreshSubscription(app, calendar, { signal: abortedOnDisconnect(request, reply) });
    },
  );

  app.get(
    '/feed',
    {
      schema: {
        tags,
        summary: 'The address of the private feed of the own calendar and scheduled tasks, or null',
        security: bearerAuth,
        response: { 200: FeedUrl },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const own = await app.calendarsRepository.find(user.id, ownCalendarId(user.id));
      const nonce = own?.feedNonce ?? null;
      return { url: nonce === null ? null : feedUrl(request, feedTokenOf(app.config.jwtSecret, nonce)) };
    },
  );

  app.post(
    '/feed',
    {
      schema: {
        tags,
        summary: 'Publish the private feed, or give it a new address (the old one stops working)',
        description:
          'Anyone with the address can read the feed, without signing in: share it only with a calendar app. Google Calendar refreshes a subscribed address about every 12-24 hours, Apple Calendar within minutes.',
        security: bearerAuth,
        body: NoBody,
        response: { 200: FeedUrl },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const now = app.now();
      await app.calendarsRepository.ensureOwn(user.id, now);
      const nonce = randomBytes(16).toString('base64url');
      const token = feedTokenOf(app.config.jwtSecret, nonce);
      await app.calendarsRepository.update(user.id, ownCalendarId(user.id), {
        feedNonce: nonce,
        feedTokenHash: feedTokenHash(token),
        updatedAt: now,
      });
      return { url: feedUrl(request, token) };
    },
  );

  app.delete(
    '/feed',
    {
      schema: {
        tags,
        summary: 'Revoke the private feed: its address stops working',
        security: bearerAuth,
        body: NoBody,
        response: { 204: { type: 'null' } },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      await app.calendarsRepository.update(user.id, ownCalendarId(user.id), {
        feedNonce: null,
        feedTokenHash: null,
        updatedAt: app.now(),
      });
      return reply.code(204).send();
    },
  );
};

export default calendarsRoutes;
