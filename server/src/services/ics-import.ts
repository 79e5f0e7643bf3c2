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
import {
  SERIES_NEVER_ENDS,
  hasOccurrenceAt,
  occurrenceId,
  occurrenceStarts,
  ruleEndingBefore,
  ruleFrom,
  type SeriesShape,
} from '../lib/recurrence.js';
import { newId } from '../lib/ids.js';
import { requireRoomForImport } from '../lib/quotas.js';
import { SINGLE_ITEM, eventShape, masterColumns } from './series.js';

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
  /** The series as stored here: which occurrences it still has. */
  shape: SeriesShape;
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

function isUnchanged(existing: EventRow, columns: Partial<EventRow>): boolean {
  return (Object.keys(columns) as (keyof EventRow)[]).every((name) => existing[name] === columns[name]);
}

/** What the file said when the row was last imported (`icsImported`), or null when that is not known. */
function lastImportOf(existing: EventRow): Partial<Record<keyof StoredColumns, unknown>> | null {
  if (existing.icsImported === null) return null;
  try {
    return JSON.parse(existing.icsImported) as Partial<Record<keyof StoredColumns, unknown>>;
  } catch {
    return null;
  }
}

/**
 * The columns of the file's event, the title and the time (every other column: a rule and the span it gives go as
 * one), and which of them the file changed since the last import. An override's series, rule and occurrence are
 * where it sits here (the half of a split series holding its date, moved with its series), not what the file said:
 * they are in neither group, and never read as a change of the file.
 */
function fileChanges(existing: EventRow, columns: StoredColumns) {
  const placement: (keyof StoredColumns)[] =
    columns.seriesId === null ? [] : ['seriesId', 'rrule', 'recurrenceAt'];
  const names = (Object.keys(columns) as (keyof StoredColumns)[]).filter((name) => !placement.includes(name));
  const title: (keyof StoredColumns)[] = ['title'];
  const time = names.filter((name) => name !== 'title');
  const last = lastImportOf(existing);
  // A row without a last import (imported before it was kept, or exported from here) takes the file's columns.
  const changed = (group: (keyof StoredColumns)[]) =>
    last === null || group.some((name) => last[name] !== columns[name]);
  return {
    placement,
    groups: [title, time].map((group) => ({ names: group, changed: changed(group) })),
    /** How far the file moved the first occurrence since the last import (0 when that is not known). */
    timeMovedMs: last !== null && typeof last.startAt === 'number' ? columns.startAt - last.startAt : 0,
    timeChanged: changed(time),
  };
}

/**
 * What a re-import stores in a row it imported before: the file's columns where the file changed them since that
 * import (see fileChanges), the row's own where it did not, so what was edited here (a title, a series split or
 * skipped occurrences, a moved time) survives an import of the same file, and a change made in the other calendar
 * still arrives. Where the file changed them, the file's columns go where they sit here (`placed`).
 */
function mergedColumns(existing: EventRow, columns: StoredColumns, placed: StoredColumns): StoredColumns {
  const { placement, groups } = fileChanges(existing, columns);
  const merged: Record<string, unknown> = {};
  for (const { names, changed } of groups) {
    const from = changed ? placed : existing;
    for (const name of names) merged[name] = from[name];
  }
  for (const name of placement) merged[name] = placed[name];
  return merged as StoredColumns;
}

/** The first occurrence of the series at or after `at`, within a few years (none when the series ends before). */
function firstStartFrom(shape: SeriesShape, at: number): number | undefined {
  const yearsAhead = 5 * 366 * 86_400_000;
  return occurrenceStarts({ ...shape, exdates: [] }, at, Math.min(SERIES_NEVER_ENDS, at + yearsAhead)).find(
    (start) => start >= at,
  );
}

/** A later half of a series split here, as the file's new time gives it: its columns and its start in the file. */
interface RetimedHalf {
  row: EventRow;
  columns: ReturnType<typeof masterColumns>;
  fileStartAt: number;
}

/**
 * A series split here whose time the file changed: each part takes the file's new time for the occurrences it holds,
 * so the split stays at the same occurrence (found again in the new times by how far the file moved the series) and
 * no week shows twice. The first part's columns end before the first later half; each later half runs to the next.
 * Null when the new rule has no occurrence where a half begins (the file's series now ends before it, say): then the
 * series takes the file's time as a series not split does, and the halves stay as they are.
 */
function splitAgain(
  columns: StoredColumns,
  halves: readonly { row: EventRow; fileStartAt: number }[],
  timeMovedMs: number,
): { first: StoredColumns; halves: RetimedHalf[] } | null {
  const shape = eventShape(columns);
  const starts: number[] = [];
  for (const half of halves) {
    const start = firstStartFrom(shape, half.fileStartAt + timeMovedMs);
    if (start === undefined || start <= (starts.at(-1) ?? shape.startAt)) return null;
    starts.push(start);
  }
  const first = {
    startAt: shape.startAt,
    durationMs: shape.durationMs,
    allDay: shape.allDay,
    zone: shape.zone,
  };
  const span = (from: number, to: number | undefined) => {
    const rule = from === shape.startAt ? shape.rrule : ruleFrom(shape, from);
    return masterColumns(
      to === undefined ? rule : ruleEndingBefore({ ...shape, rrule: rule, startAt: from }, to),
      { ...first, startAt: from },
      shape.exdates.filter((start) => start >= from && (to === undefined || start < to)),
    );
  };
  try {
    return {
      first: { ...columns, ...span(shape.startAt, starts[0]) },
      halves: halves.map((half, index) => ({
        row: half.row,
        columns: span(starts[index]!, starts[index + 1]),
        fileStartAt: starts[index]!,
      })),
    };
  } catch (error) {
    // A span the rule checks refuse (too many skipped occurrences in it, say) leaves the split as it is.
    if (error instanceof HttpError) return null;
    throw error;
  }
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

  // A series split here goes on as later halves, each from its start in the file's times (icsSplitAt): an occurrence
  // the file changes belongs to the half that holds its date.
  const seriesUids = parsed.events
    .filter((event) => event.series && event.recurrenceAt === null)
    .map((event) => uidOfKey(event.key));
  const halvesByUid = new Map<string, { row: EventRow; fileStartAt: number }[]>();
  for (const row of await app.eventsRepository.findSplitHalves(user.id, seriesUids)) {
    const halves = halvesByUid.get(row.icsSplitOf!) ?? [];
    halves.push({ row, fileStartAt: row.icsSplitAt ?? row.startAt });
    halvesByUid.set(row.icsSplitOf!, halves);
  }
  for (const halves of halvesByUid.values()) halves.sort((a, b) => a.fileStartAt - b.fileStartAt);
  // Series whose time the file changed, by how far each moved here: the occurrences edited here follow (see below).
  const retimed: { id: string; movedMs: number; rrule: string; occurrenceMs: number }[] = [];

  // Series and single events first: an override needs its series' id.
  const seriesByUid = new Map<string, SeriesOfOverride>();
  // Each series as the file has it: an occurrence it skips itself is not one deleted here.
  const fileShapes = new Map<string, SeriesShape>();
  const endedHere = new Set<string>();
  const importedKeys = new Set(parsed.events.map((event) => event.key));
  for (const imported of parsed.events.filter((event) => event.recurrenceAt === null)) {
    const columns = columnsOrSkip(imported, null);
    if (!columns) continue;
    const uid = uidOfKey(imported.key);
    const ownId = ownIdOf(imported);
    const keyed = existingByKey.get(imported.key);
    const found = keyed?.seriesId === null ? keyed : ownId ? existingById.get(ownId) : undefined;
    const existing = found && !claimed.has(found.id) ? found : undefined;
    const id = existing?.id ?? newId();
    if (imported.series && !existing) {
      // A series an older import stored as copies, one per occurrence: the copies go.
      const copies = await app.eventsRepository.findByIcsUid(user.id, uid);
      for (const copy of copies) if (!importedKeys.has(copy.icsKey!)) stale.add(copy.id);
    }
    // A new time from the file for a series split here: every part takes it for the occurrences it holds.
    const changes = existing && imported.series ? fileChanges(existing, columns) : null;
    const halves = halvesByUid.get(uid) ?? [];
    const split =
      changes?.timeChanged && halves.length > 0 ? splitAgain(columns, halves, changes.timeMovedMs) : null;
    const stored = store(imported, id, existing, columns, split?.first ?? columns);
    if (existing && changes?.timeChanged && stored.rrule !== null) {
      retimed.push({
        id,
        movedMs: stored.startAt - existing.startAt,
        rrule: stored.rrule,
        occurrenceMs: stored.occurrenceMs!,
      });
    }
    for (const half of split?.halves ?? []) {
      const retimedColumns = { ...half.columns, allDay: columns.allDay, icsSplitAt: half.fileStartAt };
      const row: EventRow = { ...half.row, ...retimedColumns };
      if (!isUnchanged(half.row, retimedColumns)) {
        updated.push({ ...row, updatedAt: now });
        changedRows += 1;
        retimed.push({
          id: row.id,
          movedMs: row.startAt - half.row.startAt,
          rrule: row.rrule!,
          occurrenceMs: row.occurrenceMs!,
        });
      }
    }
    if (split)
      halvesByUid.set(
        uid,
        split.halves.map(({ row, columns: span, fileStartAt }) => ({
          row: { ...row, ...span },
          fileStartAt,
        })),
      );
    // Its overrides take the rule and times it is stored with (a split here ended it; a series edit moved it). One
    // made a single event here has no occurrences left for them to change.
    if (imported.series && stored.rrule === null) endedHere.add(uid);
    else if (imported.series) {
      const movedMs = stored.startAt - columns.startAt;
      seriesByUid.set(uid, { id, rrule: stored.rrule!, movedMs, shape: eventShape(stored) });
      fileShapes.set(uid, eventShape(columns));
    }
  }

  const seriesHolding = (uid: string, recurrenceAt: number): SeriesOfOverride | undefined => {
    const first = seriesByUid.get(uid);
    if (!first) return undefined;
    const later = (halvesByUid.get(uid) ?? []).filter((half) => half.fileStartAt <= recurrenceAt).at(-1);
    if (!later) return first;
    return {
      id: later.row.id,
      rrule: later.row.rrule!,
      movedMs: later.row.startAt - later.fileStartAt,
      shape: eventShape(later.row),
    };
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
    const existing =
      byItsKey?.id === id
        ? byItsKey
        : (existingById.get(id) ?? (await app.eventsRepository.find(user.id, id)));
    // An occurrence of the file's series that is gone here (deleted, or in a part of a split deleted here) stays
    // gone: the file's change to it would bring it back. One the file's series does not have (its rule does not give
    // it, or the file skips it too) is stored as it comes.
    const gone =
      !existing &&
      !byItsKey &&
      hasOccurrenceAt(fileShapes.get(uidOfKey(imported.key))!, imported.recurrenceAt!) &&
      !hasOccurrenceAt(series.shape, placed.recurrenceAt!);
    if (gone) {
      skip(imported, 'It changes an occurrence deleted here');
      continue;
    }
    // An occurrence an older import stored as a copy: the override takes its place, under its occurrence's id.
    if (byItsKey && byItsKey.id !== id) stale.add(byItsKey.id);
    store(imported, id, existing, columns, placed);
  }

  // The occurrences edited here of a series the file retimed follow it, as they follow a series edit made here: each
  // is re-keyed to its occurrence's new start, and one still at its slot moves there. One whose occurrence the file
  // now changes itself gives way to the file's.
  const retimedOverrides = await app.eventsRepository.overrideRowsOf(
    user.id,
    retimed.map((series) => series.id),
  );
  const following = new Map(retimed.map((series) => [series.id, series]));
  const fileOwned = (row: EventRow) =>
    stale.has(row.id) || claimed.has(row.id) || (row.icsKey !== null && importedKeys.has(row.icsKey));
  // Rows that keep their ids: a moved one cannot take the id of one of them.
  const staying = new Set(
    retimedOverrides.filter((row) => fileOwned(row) && !stale.has(row.id)).map((row) => row.id),
  );
  let rekeyed = 0;
  for (const row of retimedOverrides) {
    if (fileOwned(row)) continue;
    const series = following.get(row.seriesId!)!;
    const recurrenceAt = row.recurrenceAt! + series.movedMs;
    const id = occurrenceId(series.id, recurrenceAt);
    const atItsSlot = row.startAt === row.recurrenceAt;
    const columns: Partial<EventRow> = {
      id,
      rrule: series.rrule,
      recurrenceAt,
      ...(atItsSlot ? { startAt: recurrenceAt, endAt: recurrenceAt + series.occurrenceMs } : {}),
    };
    const moved: EventRow = { ...row, ...columns, updatedAt: now };
    if (id === row.id) {
      if (!isUnchanged(row, columns)) {
        updated.push(moved);
        changedRows += 1;
      }
      continue;
    }
    stale.add(row.id);
    if (claimed.has(id) || staying.has(id)) continue;
    claimed.add(id);
    // Re-keyed: a new id for the same event, which the summary counts as updated.
    created.push(moved);
    rekeyed += 1;
  }

  requireRoomForImport(
    app.config.quotas,
    (await app.eventsRepository.countOf(user.id)) - stale.size,
    created.length,
  );
  await app.eventsRepository.applyImport(user.id, created, updated, [...stale]);
  return { created: created.length - rekeyed, updated: changedRows + rekeyed, skipped, skippedEvents };
}
