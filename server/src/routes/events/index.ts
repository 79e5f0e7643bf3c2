import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../lib/http-errors.js';
import {
  MAX_RANGE_DAYS,
  fieldError,
  requireDayRange,
  requireInstant,
  requireTitle,
} from '../../lib/input-rules.js';
import { newId } from '../../lib/ids.js';
import { requireRoomFor } from '../../lib/quotas.js';
import { localDateAt, localDayBounds, startOfLocalDay } from '../../lib/time-zone.js';
import { signedInUser } from '../../plugins/app/authentication.js';
import { editedCategoryId, ownCategoryId } from '../../services/categories.js';
import { undoableDeleteRoutes } from '../../services/undoable-delete.js';
import { IdParams, bearerAuth } from '../../schemas/common.js';
import {
  CalendarEventRef,
  CreateEventBody,
  EventList,
  DayRangeQuery,
  UpdateEventBody,
  toEventJson,
} from '../../schemas/event.js';
import icsRoutes from './ics.js';

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
        querystring: DayRangeQuery,
        response: { 200: EventList },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const { from, to } = requireDayRange(request.query.from, request.query.to);
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
        categoryId: await ownCategoryId(app, user, body.categoryId),
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
        categoryId: await editedCategoryId(app, user, body.categoryId, existing.categoryId),
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
