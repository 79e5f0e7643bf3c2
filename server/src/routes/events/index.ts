import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { HttpError, notFound } from '../../lib/http-errors.js';
import { occurrenceId } from '../../lib/recurrence.js';
import { ownCalendarId } from '../../plugins/app/calendars-repository.js';
import {
  MAX_RANGE_DAYS,
  fieldError,
  requireDayRange,
  requireInstant,
  requireTitle,
} from '../../lib/input-rules.js';
import { newId } from '../../lib/ids.js';
import { localDateAt, localDayBounds, startOfLocalDay } from '../../lib/time-zone.js';
import { signedInUser } from '../../plugins/app/authentication.js';
import { editedCategoryId, ownCategoryId } from '../../services/categories.js';
import { SINGLE_ITEM, expandEvents, isMaster, masterColumns } from '../../services/series.js';
import {
  editOccurrence,
  eventSeries,
  occurrenceRow,
  resolveItem,
  seriesDeletes,
} from '../../services/series-edits.js';
import { undoableDeleteRoutes } from '../../services/undoable-delete.js';
import { EditScopeQuery } from '../../schemas/series.js';
import type { EventRow } from '../../db/schema.js';
import { IdParams, NoBody, bearerAuth } from '../../schemas/common.js';
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

/** 409 for an event of a subscribed calendar: it changes only at its source; a copy here can be edited. */
async function requireWritable(app: FastifyInstance, row: EventRow): Promise<void> {
  if (row.calendarId === ownCalendarId(row.userId)) return;
  const calendar = await app.calendarsRepository.find(row.userId, row.calendarId);
  const name = calendar?.name ?? 'a subscribed calendar';
  throw new HttpError(
    409,
    `This event belongs to "${name}", a subscribed calendar: it changes only where that calendar is kept. Use "Copy to my calendar" to get a copy you can edit`,
  );
}

const byStartThenId = (a: EventRow, b: EventRow) =>
  a.startAt - b.startAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

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
      const range = { from: startOfLocalDay(zone, from), to: startOfLocalDay(zone, to) };
      const rows = await app.eventsRepository.listOverlapping(user.id, range.from, range.to);
      const events = await expandEvents(app, user.id, rows, range);
      return events.sort(byStartThenId).map(toEventJson);
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
      const rows = await app.eventsRepository.listOverlapping(user.id, day.start, day.end);
      const events = await expandEvents(app, user.id, rows, { from: day.start, to: day.end });
      return events.sort(byStartThenId).map(toEventJson);
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
      const allDay = body.allDay === true;
      const series =
        body.rrule === undefined
          ? { ...SINGLE_ITEM, startAt, endAt }
          : await masterColumns(body.rrule, {
              startAt,
              durationMs: endAt - startAt,
              allDay,
              zone: request.timeZone,
            });
      const now = app.now();
      const event = await app.eventsRepository.create({
        id: newId(),
        userId: user.id,
        title,
        allDay: allDay ? 1 : 0,
        categoryId: await ownCategoryId(app, user, body.categoryId),
        source: 'manual',
        icsKey: null,
        calendarId: ownCalendarId(user.id),
        ...series,
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
        summary:
          'Edit, move or resize an event, or an occurrence of a series (scope: this, following or all)',
        description:
          "The id may be a single event's, a series' (edits the whole series unless scope says otherwise) or an occurrence's (as a read returns it; scope 'this' by default). Giving a single event an rrule makes it a series.",
        security: bearerAuth,
        params: IdParams,
        querystring: EditScopeQuery,
        body: UpdateEventBody,
        response: { 200: CalendarEventRef },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const { body } = request;
      const kind = eventSeries(app);
      const resolved = await resolveItem(kind, user.id, request.params.id);
      if (!resolved) throw notFound(EVENT_NOT_FOUND);
      await requireWritable(app, resolved.master ?? resolved.row);
      const existing = occurrenceRow(kind, resolved);
      const startAt =
        body.start === undefined ? existing.startAt : requireInstant(body.start, 'start', request.timeZone);
      const endAt =
        body.end === undefined ? existing.endAt : requireInstant(body.end, 'end', request.timeZone);
      requireEndAfterStart(startAt, endAt);
      const now = app.now();
      const edited: EventRow = {
        ...existing,
        title: body.title === undefined ? existing.title : requireTitle(body.title),
        startAt,
        endAt,
        allDay: body.allDay === undefined ? existing.allDay : body.allDay ? 1 : 0,
        categoryId: await editedCategoryId(app, user, body.categoryId, existing.categoryId),
        updatedAt: now,
      };
      if (resolved.master) {
        const scope = request.query.scope ?? (isMaster(resolved.row) ? 'all' : 'this');
        const saved = await editOccurrence(
          kind,
          user.id,
          { ...resolved, master: resolved.master },
          edited,
          scope,
          body.rrule,
          now,
        );
        return toEventJson(saved);
      }
      const series =
        body.rrule === undefined || body.rrule === ''
          ? {}
          : await masterColumns(body.rrule, {
              startAt,
              durationMs: endAt - startAt,
              allDay: edited.allDay === 1,
              zone: request.timeZone,
            });
      const { id: _id, userId: _userId, ...changes } = { ...edited, ...series };
      const event = await app.eventsRepository.update(user.id, existing.id, changes);
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
      series: (app) => seriesDeletes(eventSeries(app), () => app.now()),
      beforeDelete: async (userId, id) => {
        const resolved = await resolveItem(eventSeries(app), userId, id);
        if (resolved) await requireWritable(app, resolved.master ?? resolved.row);
      },
    }),
  );

  app.post(
    '/:id/copy',
    {
      config: { notFoundMessage: EVENT_NOT_FOUND },
      schema: {
        tags,
        summary: 'Copy an event (a subscribed one, say) into the own calendar, where it can be edited',
        description:
          "An occurrence's id copies that occurrence as a single event; a series' id copies the series with its changed occurrences. The copy is a new event of the own calendar: a later refresh or import never touches it.",
        security: bearerAuth,
        params: IdParams,
        body: NoBody,
        response: { 201: CalendarEventRef },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const kind = eventSeries(app);
      const resolved = await resolveItem(kind, user.id, request.params.id);
      if (!resolved) throw notFound(EVENT_NOT_FOUND);
      const now = app.now();
      const copyOf = (row: EventRow, id: string, columns: Partial<EventRow> = {}): EventRow => ({
        ...row,
        id,
        calendarId: ownCalendarId(user.id),
        categoryId: null,
        source: 'manual',
        icsKey: null,
        ...columns,
        createdAt: now,
        updatedAt: now,
      });
      const wholeSeries = resolved.master === null && isMaster(resolved.row);
      const copy = wholeSeries
        ? copyOf(resolved.row, newId())
        : copyOf(occurrenceRow(kind, resolved), newId(), SINGLE_ITEM);
      const overrides = wholeSeries
        ? (await app.eventsRepository.overrideRowsOf(user.id, resolved.row.id)).map((override) =>
            copyOf(override, occurrenceId(copy.id, override.recurrenceAt!), { seriesId: copy.id }),
          )
        : [];
      await app.eventsRepository.writeCalendar(user.id, { created: [copy, ...overrides] });
      return reply.code(201).send(toEventJson(copy));
    },
  );

  await app.register(icsRoutes);
};

export default eventsRoutes;
