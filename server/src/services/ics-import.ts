import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EventRow, UserRow } from '../db/schema.js';
import { HttpError } from '../lib/http-errors.js';
import { ownEventIdOf } from '../lib/ics/conventions.js';
import {
  InvalidCalendarError,
  PARSE_LIMITS,
  uidOfKey,
  unfoldedText,
  type ImportedEvent,
  type SkippedEvent,
} from '../lib/ics/parse.js';
import { occurrenceId } from '../lib/recurrence.js';
import { newId } from '../lib/ids.js';
import { requireRoomForImport } from '../lib/quotas.js';
import { SINGLE_ITEM, masterColumns } from './series.js';

export interface ImportSummary {
  created: number;
  updated: number;
  skipped: number;
  skippedEvents: SkippedEvent[];
}

/**
 * The text of the upload's one part, a file in the field "file". Another field or file is refused, as an unknown JSON
 * field is on every other route; the multipart plugin's limits (size, one file, parts) answer with their own errors.
 */
export async function readIcsUpload(request: FastifyRequest): Promise<string> {
  if (!request.isMultipart())
    throw new HttpError(415, 'Send the .ics file as multipart/form-data in the field "file"');
  let content: string | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file' && part.fieldname === 'file') {
        content = unfoldedText(await part.toBuffer());
      } else if (part.type === 'file') {
        throw new HttpError(400, 'Attach the .ics file in the field "file"');
      } else {
        throw new HttpError(400, 'The upload takes one field only: the .ics file in the field "file"');
      }
    }
  } catch (error) {
    if (error instanceof HttpError || typeof (error as { statusCode?: unknown }).statusCode === 'number')
      throw error;
    // The multipart parser's own errors (no boundary, a body cut short) describe the upload, not a server fault.
    throw new HttpError(400, 'The upload is not a valid multipart/form-data body');
  }
  if (content === undefined) throw new HttpError(400, 'Attach the .ics file in the field "file"');
  return content;
}

/**
 * Aborts when the client goes away before its answer is sent: a queued import then leaves the queue, a running one
 * has its worker terminated. 499 is nginx's code for a request its client closed; nobody reads it but the log.
 */
export function abortedOnDisconnect(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const disconnected = () => controller.abort(new HttpError(499, 'The client closed the connection'));
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) disconnected();
  });
  if (request.raw.socket?.destroyed) disconnected();
  return controller.signal;
}

/**
 * The series an override belongs to: its master's id and rule (an occurrence reads with its series' rule), and how far
 * its times were moved here from the file's (a series edit here re-keys its occurrences by as much, so the file's
 * RECURRENCE-ID plus this is the occurrence's start here).
 */
interface SeriesOfOverride {
  id: string;
  rrule: string;
  movedMs: number;
}

/** The columns an imported event is stored with (a series' master its series columns, an override its series'). */
function columnsOf(imported: ImportedEvent, series: SeriesOfOverride | null, timeZone: string) {
  const base = { title: imported.title, allDay: imported.allDay ? 1 : 0 };
  if (imported.series) {
    return {
      ...base,
      ...masterColumns(
        imported.series.rrule,
        {
          startAt: imported.startAt,
          durationMs: imported.endAt - imported.startAt,
          allDay: imported.allDay,
          zone: imported.series.zone || timeZone,
        },
        [...new Set(imported.series.exdates)].sort((a, b) => a - b),
      ),
    };
  }
  const override = imported.recurrenceAt !== null && series !== null;
  return {
    ...base,
    ...SINGLE_ITEM,
    startAt: imported.startAt,
    endAt: imported.endAt,
    rrule: override ? series.rrule : null,
    seriesId: override ? series.id : null,
    recurrenceAt: override ? imported.recurrenceAt : null,
  };
}

type StoredColumns = ReturnType<typeof columnsOf>;

/**
 * Where the file's columns go here: an override at its occurrence's start here (the file's RECURRENCE-ID moved as its
 * series was moved here), and, when the file left it at its slot, its times moved with it too, as a series edit here
 * moves the occurrences still at their slots. Any other row as the file gives it.
 */
function placedHere(columns: StoredColumns, series: SeriesOfOverride | null): StoredColumns {
  if (columns.recurrenceAt === null || series === null || series.movedMs === 0) return columns;
  const atItsSlot = columns.startAt === columns.recurrenceAt;
  return {
    ...columns,
    recurrenceAt: columns.recurrenceAt + series.movedMs,
    ...(atItsSlot
      ? { startAt: columns.startAt + series.movedMs, endAt: columns.endAt + series.movedMs }
      : {}),
  };
}

function isUnchanged(existing: EventRow, columns: StoredColumns): boolean {
  return (Object.keys(columns) as (keyof StoredColumns)[]).every((name) => existing[name] === columns[name]);
}

/**
 * What a re-import stores in a row it imported before: the file's columns where the file changed them since that
 * import (`icsImported`), the row's own where it did not, so what was edited here (a title, a series split or skipped
 * occurrences, a moved time) survives an import of the same file, and a change made in the other calendar still
 * arrives. The title goes alone; every other column is the event's time, which goes as one: a rule and the span it
 * gives must come from the same side. A row without a last import (imported before it was kept, or exported from
 * here) takes the file's columns, as every import did before.
 */
function mergedColumns(existing: EventRow, columns: StoredColumns, placed: StoredColumns): StoredColumns {
  if (existing.icsImported === null) return placed;
  let last: Partial<Record<keyof StoredColumns, unknown>>;
  try {
    last = JSON.parse(existing.icsImported) as typeof last;
  } catch {
    return placed;
  }
  // An override's series, rule and occurrence are where it sits here (the half of a split series holding its date,
  // moved with its series), not what the file said: they are always taken, and never read as a change of the file.
  const placement: (keyof StoredColumns)[] =
    columns.seriesId === null ? [] : ['seriesId', 'rrule', 'recurrenceAt'];
  const names = (Object.keys(columns) as (keyof StoredColumns)[]).filter((name) => !placement.includes(name));
  // What the file said is compared with what it said last time; where it changed, the file's columns go where they
  // sit here.
  const side = (group: (keyof StoredColumns)[]) =>
    group.some((name) => last[name] !== columns[name]) ? placed : existing;
  const merged: Record<string, unknown> = {};
  for (const group of [['title'], names.filter((name) => name !== 'title')] as (keyof StoredColumns)[][]) {
    const from = side(group);
    for (const name of group) merged[name] = from[name];
  }
  for (const name of placement) merged[name] = placed[name];
  return merged as StoredColumns;
}

/**
 * Reads the calendar in the app's parse pool and merges it into the user's events: an event or series already
 * imported (same UID and RECURRENCE-ID) or exported from here ('<id>@time-wallet') is updated where the file changed
 * (see mergedColumns) and skipped when it did not, any other is created. A series' overrides are stored as its
 * occurrences' own rows, found again by their occurrence's id (also one edited here, which an import never keyed). A series imported before series
 * were stored once (as copies, one per occurrence) loses those copies. An event that cannot be stored is skipped
 * with its reason, as the parser's are. All or nothing: 409 when the new events would pass the account's quota.
 */
export async function importCalendar(
  app: FastifyInstance,
  user: UserRow,
  upload: { text: string; timeZone: string; signal: AbortSignal },
): Promise<ImportSummary> {
  const now = app.now();
  let parsed;
  try {
    parsed = await app.icsParsePool.parse(
      user.id,
      { text: upload.text, timeZone: upload.timeZone, now },
      upload.signal,
    );
  } catch (error) {
    if (error instanceof InvalidCalendarError) throw new HttpError(400, error.message);
    throw error;
  }

  // This server's own events come back by id: a series by its id, an occurrence by its series' id and start.
  const ownIdOf = (imported: ImportedEvent): string | null => {
    const ownSeries = ownEventIdOf(`${uidOfKey(imported.key)}#`);
    if (!ownSeries) return null;
    return imported.recurrenceAt === null ? ownSeries : occurrenceId(ownSeries, imported.recurrenceAt);
  };
  const ownIds = parsed.events.map(ownIdOf).filter((id): id is string => id !== null);
  const [byKey, ownEvents] = await Promise.all([
    app.eventsRepository.findByIcsKeys(
      user.id,
      parsed.events.map((event) => event.key),
    ),
    Promise.all(ownIds.map((id) => app.eventsRepository.find(user.id, id))),
  ]);
  // Rows made here from an imported series (an occurrence edited, a series split) may share its key: the key is the
  // series' or single event's own row's (no series id), else the first by start, as the export writes them.
  const existingByKey = new Map<string, EventRow>();
  const byRank = (row: EventRow) => [row.seriesId === null ? 0 : 1, row.startAt] as const;
  for (const row of byKey.sort((a, b) => {
    const [rankA, startA] = byRank(a);
    const [rankB, startB] = byRank(b);
    return rankA - rankB || startA - startB || (a.id < b.id ? -1 : 1);
  })) {
    if (!existingByKey.has(row.icsKey!)) existingByKey.set(row.icsKey!, row);
  }
  const existingById = new Map(
    ownEvents.filter((event) => event !== undefined).map((event) => [event.id, event]),
  );

  const created: EventRow[] = [];
  const updated: EventRow[] = [];
  const stale = new Set<string>();
  const claimed = new Set<string>();
  let skipped = parsed.skipped;
  let changedRows = 0;
  const skippedEvents = [...parsed.skippedEvents];
  const skip = (imported: ImportedEvent, reason: string) => {
    skipped += 1;
    if (skippedEvents.length < PARSE_LIMITS.reportedSkips) {
      skippedEvents.push({ uid: uidOfKey(imported.key).slice(0, 200), summary: imported.title, reason });
    }
  };
  const store = (
    imported: ImportedEvent,
    id: string,
    existing: EventRow | undefined,
    columns: StoredColumns,
    placed: StoredColumns = columns,
  ): StoredColumns => {
    claimed.add(id);
    // What the file said, in its own times: the next import compares with it.
    const icsImported = JSON.stringify(columns);
    if (existing) {
      const merged = mergedColumns(existing, columns, placed);
      const unchanged = isUnchanged(existing, merged);
      // A row whose columns stay as they are still records this import, and counts as skipped.
      if (unchanged) skipped += 1;
      else changedRows += 1;
      if (!unchanged || existing.icsImported !== icsImported) {
        updated.push({
          ...existing,
          ...merged,
          icsImported,
          updatedAt: unchanged ? existing.updatedAt : now,
        });
      }
      return merged;
    } else {
      created.push({
        id,
        userId: user.id,
        categoryId: null,
        source: 'ics',
        icsKey: imported.key,
        ...placed,
        icsImported,
        icsSplitOf: null,
        icsSplitAt: null,
        createdAt: now,
        updatedAt: now,
      });
      return placed;
    }
  };
  const columnsOrSkip = (imported: ImportedEvent, series: SeriesOfOverride | null) => {
    try {
      return columnsOf(imported, series, upload.timeZone);
    } catch (error) {
      // A series the rule checks refuse here (too many skipped occurrences, say) costs its own events only.
      skip(imported, error instanceof HttpError ? error.message : 'It cannot be stored');
      return null;
    }
  };

  // Series and single events first: an override needs its series' id.
  const seriesByUid = new Map<string, SeriesOfOverride>();
  const endedHere = new Set<string>();
  const importedKeys = new Set(parsed.events.map((event) => event.key));
  for (const imported of parsed.events.filter((event) => event.recurrenceAt === null)) {
    const columns = columnsOrSkip(imported, null);
    if (!columns) continue;
    const ownId = ownIdOf(imported);
    const keyed = existingByKey.get(imported.key);
    const found = keyed?.seriesId === null ? keyed : ownId ? existingById.get(ownId) : undefined;
    const existing = found && !claimed.has(found.id) ? found : undefined;
    const id = existing?.id ?? newId();
    if (imported.series && !existing) {
      // A series an older import stored as copies, one per occurrence: the copies go.
      const copies = await app.eventsRepository.findByIcsUid(user.id, uidOfKey(imported.key));
      for (const copy of copies) if (!importedKeys.has(copy.icsKey!)) stale.add(copy.id);
    }
    const stored = store(imported, id, existing, columns);
    // Its overrides take the rule and times it is stored with (a split here ended it; a series edit moved it). One
    // made a single event here has no occurrences left for them to change.
    if (imported.series && stored.rrule === null) endedHere.add(uidOfKey(imported.key));
    else if (imported.series) {
      const movedMs = stored.startAt - columns.startAt;
      seriesByUid.set(uidOfKey(imported.key), { id, rrule: stored.rrule!, movedMs });
    }
  }

  // A series split here goes on as later halves, each from its start in the file's times: an occurrence the file
  // changes belongs to the half that holds its date.
  const halvesByUid = new Map<string, (SeriesOfOverride & { fileStartAt: number })[]>();
  for (const half of await app.eventsRepository.findSplitHalves(user.id, [...seriesByUid.keys()])) {
    const halves = halvesByUid.get(half.icsSplitOf!) ?? [];
    const fileStartAt = half.icsSplitAt ?? half.startAt;
    halves.push({ id: half.id, rrule: half.rrule!, movedMs: half.startAt - fileStartAt, fileStartAt });
    halvesByUid.set(half.icsSplitOf!, halves);
  }
  const seriesHolding = (uid: string, recurrenceAt: number): SeriesOfOverride | undefined => {
    const first = seriesByUid.get(uid);
    if (!first) return undefined;
    const later = (halvesByUid.get(uid) ?? []).filter((half) => half.fileStartAt <= recurrenceAt);
    return later.length === 0 ? first : later.reduce((a, b) => (b.fileStartAt > a.fileStartAt ? b : a));
  };

  for (const imported of parsed.events.filter((event) => event.recurrenceAt !== null)) {
    const series = seriesHolding(uidOfKey(imported.key), imported.recurrenceAt!);
    if (!series) {
      skip(
        imported,
        endedHere.has(uidOfKey(imported.key))
          ? 'It changes an occurrence of a series that no longer repeats here'
          : 'It changes an occurrence of a series that could not be imported',
      );
      continue;
    }
    const columns = columnsOrSkip(imported, series);
    if (!columns) continue;
    const placed = placedHere(columns, series);
    // An override's row has its occurrence's id (its start here).
    const id = occurrenceId(series.id, placed.recurrenceAt!);
    if (claimed.has(id)) {
      skip(imported, 'Another event in the file already changes the same occurrence');
      continue;
    }
    const byItsKey = existingByKey.get(imported.key);
    // An occurrence an older import stored as a copy: the override takes its place, under its occurrence's id.
    if (byItsKey && byItsKey.id !== id) stale.add(byItsKey.id);
    const existing =
      byItsKey?.id === id
        ? byItsKey
        : (existingById.get(id) ?? (await app.eventsRepository.find(user.id, id)));
    store(imported, id, existing, columns, placed);
  }

  requireRoomForImport(
    app.config.quotas,
    (await app.eventsRepository.countOf(user.id)) - stale.size,
    created.length,
  );
  await app.eventsRepository.applyImport(user.id, created, updated, [...stale]);
  return { created: created.length, updated: changedRows, skipped, skippedEvents };
}
