import type { FastifyInstance } from 'fastify';
import type { EventRow } from '../db/schema.js';
import type { ExportableSeries, ExportableTask, FeedEvent } from '../lib/ics/export.js';
import { ownEndOf } from '../schemas/series.js';
import { exdatesOf, isMaster } from './series.js';

const seriesOf = (
  row: Pick<EventRow, 'rrule' | 'seriesZone' | 'exdates' | 'occurrenceMs'>,
): ExportableSeries | null =>
  isMaster(row) ? { rrule: row.rrule!, zone: row.seriesZone!, exdates: exdatesOf(row) } : null;

/**
 * A person's events as the iCalendar writer takes them (lib/ics/export.ts), a page at a time: the export's all, or one
 * calendar's (the feed's own). An override is written under its series' UID: the key its master was imported with.
 */
export async function* exportableEventPages(
  app: FastifyInstance,
  userId: string,
  options: { calendarId?: string } = {},
): AsyncGenerator<FeedEvent[]> {
  const seriesKeys = new Map<string, string | null>();
  for await (const page of app.eventsRepository.pagesByStart(userId, options)) {
    for (const event of page) {
      if (event.seriesId === null || seriesKeys.has(event.seriesId)) continue;
      seriesKeys.set(
        event.seriesId,
        (await app.eventsRepository.find(userId, event.seriesId))?.icsKey ?? null,
      );
    }
    yield page.map((event) => ({
      id: event.id,
      title: event.title,
      startAt: event.startAt,
      endAt: ownEndOf(event),
      allDay: event.allDay === 1,
      icsKey: event.icsKey,
      series: seriesOf(event),
      seriesId: event.seriesId,
      seriesKey: event.seriesId === null ? null : seriesKeys.get(event.seriesId)!,
      recurrenceAt: event.recurrenceAt,
      updatedAt: event.updatedAt,
    }));
  }
}

/** A person's scheduled tasks (not dismissed) for the feed, a page at a time. */
export async function* feedTaskPages(app: FastifyInstance, userId: string): AsyncGenerator<ExportableTask[]> {
  for await (const page of app.tasksRepository.pagesByStart(userId)) {
    yield page
      .filter((task) => task.scheduled === 1 && task.dismissed === 0)
      .map((task) => ({
        id: task.id,
        title: task.title,
        notes: task.notes,
        done: task.done === 1,
        scheduled: true,
        startAt: task.startAt,
        endAt: ownEndOf(task),
        series: seriesOf(task),
        seriesId: task.seriesId,
        recurrenceAt: task.recurrenceAt,
        updatedAt: task.updatedAt,
      }));
  }
}
