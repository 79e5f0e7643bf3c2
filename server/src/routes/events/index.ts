import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../lib/http-errors.js';
import { fieldError, requireCalendarDate, requireInstant, requireTitle } from '../../lib/input-rules.js';
import { newId } from '../../lib/ids.js';
import { requireRoomFor } from '../../lib/quotas.js';
import { localDateAt, localDayBounds, localDaysBetween, startOfLocalDay } from '../../lib/time-zone.js';
import { signedInUser } from '../../plugins/app/authentication.js';
import { undoableDeleteRoutes } from '../../services/undoable-delete.js';
import { IdParams, bearerAuth } from '../../schemas/common.js';
import {
  CalendarEventRef,
  CreateEventBody,
  EventList,
  EventRangeQuery,
  UpdateEventBody,
  toEventJson,
} from '../../schemas/event.js';
import icsRoutes from './ics.js';

/** The calendar asks a week plus a day; a month view of 6 weeks plus a day asks 43. Two months fit with room. */
const MAX_RANGE_DAYS = 62;
const EVENT_NOT_FOUND = 'Event not found';

function requireEndAfterStart(startAt: number, endAt: number): void {
  if (endAt <= startAt) throw fieldError('end', 'End must be after start');
}

const eventsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['events'];

  app.get(
    '/',
    {
      schema: {
        tags,
        summary: `Events overlapping the local days from (inclusive) to (exclusive), at most ${MAX_RANGE_DAYS} days`,
        security: bearerAuth,
        querystring: EventRangeQuery,
        response: { 200: EventList },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const { from, to } = request.query;
      requireCalendarDate(from, 'from');
      requireCalendarDate(to, 'to');
      const days = localDaysBetween(from, to);
      if (days <= 0) throw fieldError('to', 'to must be after from');
      if (days > MAX_RANGE_DAYS) {
        throw fieldError(
          'to',
          `The range must not exceed ${MAX_RANGE_DAYS} days: ask for longer periods in parts`,
        );
      }
      const zone = request.timeZone;
      const events = await app.eventsRepository.listOverlapping(
        user.id,
        startOfLocalDay(zone, from),
        startOfLocalDay(zone, to),
      );
      return events.map(toEventJson);
    },
  );

  app.get(
    '/today',
    {
      schema: {
        tags,
        summary: 'Events overlapping today',
        security: bearerAuth,
        response: { 200: EventList },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const day = localDayBounds(request.timeZone, localDateAt(request.timeZone, app.now()));
      return (await app.eventsRepository.listOverlapping(user.id, day.start, day.end)).map(toEventJson);
    },
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        summary: 'Create an event; a date-time without an offset is read in the request time zone',
        security: bearerAuth,
        body: CreateEventBody,
        response: { 201: CalendarEventRef },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const { body } = request;
      const title = requireTitle(body.title);
      const startAt = requireInstant(body.start, 'start', request.timeZone);
      const endAt = requireInstant(body.end, 'end', request.timeZone);
      requireEndAfterStart(startAt, endAt);
      requireRoomFor('events', app.config.quotas, await app.eventsRepository.countOf(user.id));
      const now = app.now();
      const event = await app.eventsRepository.create({
        id: newId(),
        userId: user.id,
        title,
        startAt,
        endAt,
        allDay: body.allDay ? 1 : 0,
        source: 'manual',
        icsKey: null,
        createdAt: now,
        updatedAt: now,
      });
      return reply.code(201).send(toEventJson(event));
    },
  );

  app.patch(
    '/:id',
    {
      config: { notFoundMessage: EVENT_NOT_FOUND },
      schema: {
        tags,
        summary: 'Edit, move or resize an event',
        security: bearerAuth,
        params: IdParams,
        body: UpdateEventBody,
        response: { 200: CalendarEventRef },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const { body } = request;
      const existing = await app.eventsRepository.find(user.id, request.params.id);
      if (!existing) throw notFound(EVENT_NOT_FOUND);
      const startAt =
        body.start === undefined ? existing.startAt : requireInstant(body.start, 'start', request.timeZone);
      const endAt =
        body.end === undefined ? existing.endAt : requireInstant(body.end, 'end', request.timeZone);
      requireEndAfterStart(startAt, endAt);
      const event = await app.eventsRepository.update(user.id, existing.id, {
        title: body.title === undefined ? existing.title : requireTitle(body.title),
        startAt,
        endAt,
        allDay: body.allDay === undefined ? existing.allDay : body.allDay ? 1 : 0,
        updatedAt: app.now(),
      });
      if (!event) throw notFound(EVENT_NOT_FOUND);
      return toEventJson(event);
    },
  );

  await app.register(
    undoableDeleteRoutes({
      kind: 'events',
      noun: 'event',
      notFoundMessage: EVENT_NOT_FOUND,
      toJson: toEventJson,
      response: CalendarEventRef,
    }),
  );

  await app.register(icsRoutes);
};

export default eventsRoutes;
