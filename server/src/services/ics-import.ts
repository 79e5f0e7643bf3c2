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
  untilOf,
  type SeriesShape,
} from '../lib/recurrence.js';
import { newId } from '../lib/ids.js';
import { requireRoomForImport } from '../lib/quotas.js';
import { yieldPoint } from '../lib/yield-point.js';
import { SINGLE_ITEM, eventShape, exdatesOf, masterColumns } from './series.js';

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

/** The part of a series here that holds an occurrence of the file's, or why none does. */
type Holder = SeriesOfOverride | { reason: string };

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
    timeChanged: changed(time),
  };
}

/** The series the file gave when the row was last imported, and how far the row was moved here from it. */
function lastSeriesOf(existing: EventRow): { shape: SeriesShape; movedMs: number } | null {
  const last = lastImportOf(existing);
  if (
    !last ||
    typeof last.rrule !== 'string' ||
    typeof last.seriesZone !== 'string' ||
    typeof last.startAt !== 'number' ||
    typeof last.occurrenceMs !== 'number' ||
    typeof last.allDay !== 'number' ||
    !(last.exdates === null || typeof last.exdates === 'string')
  )
    return null;
  const shape = eventShape({
    rrule: last.rrule,
    seriesZone: last.seriesZone,
    startAt: last.startAt,
    occurrenceMs: last.occurrenceMs,
    allDay: last.allDay,
    exdates: last.exdates,
  });
  return { shape, movedMs: existing.startAt - last.startAt };
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

/** How far a move of a series may shift its occurrences' instants beyond the move itself: a DST change between them. */
const DST_SLACK_MS = 3 * 3_600_000;

/** The first occurrence of the series (skipped ones too) at or after `at`, within a few years. */
function firstStartFrom(shape: SeriesShape, at: number): number | undefined {
  const yearsAhead = 5 * 366 * 86_400_000;
  return occurrenceStarts({ ...shape, exdates: [] }, at, Math.min(SERIES_NEVER_ENDS, at + yearsAhead)).find(
    (start) => start >= at,
  );
}

/**
 * The occurrence of the file's new series that an instant moved with it becomes: the one within a DST change of it,
 * else the first after it (a new rule may have none there), or none when the series ends before.
 */
function occurrenceNear(shape: SeriesShape, at: number): number | undefined {
  return occurrenceWithin(shape, at) ?? firstStartFrom(shape, at);
}

/** The occurrence of the series (skipped ones too) nearest `at` within a DST change of it, if any. */
function occurrenceWithin(shape: SeriesShape, at: number): number | undefined {
  const near = occurrenceStarts({ ...shape, exdates: [] }, at - DST_SLACK_MS, at + DST_SLACK_MS).filter(
    (start) => Math.abs(start - at) <= DST_SLACK_MS,
  );
  return near.length === 0 ? undefined : near.reduce((a, b) => (Math.abs(b - at) < Math.abs(a - at) ? b : a));
}

/** Where a series split here goes on after its first part: a later half (a series, or made a single event here). */
interface SplitHalf {
  row: EventRow;
  /** Where it begins in the file's times. */
  fileStartAt: number;
}

/** The occurrences of a series skipped here and not in the file: the row's skipped starts the file did not skip. */
function skippedHere(row: EventRow, fileExdates: readonly number[], movedHereMs: number): number[] {
  const file = new Set(fileExdates.map((start) => start + movedHereMs));
  return exdatesOf(row).filter((start) => !file.has(start));
}

/**
 * A series the file gave a new time (or rule, or skipped occurrences), as it is stored here: the file's time for
 * every part of it, where a split made here keeps its parts at the same occurrences (found again in the new times by
 * how far the file moved the series), an end made here stays (the occurrences after it were deleted here), and the
 * occurrences skipped here stay skipped. A later half the new series no longer reaches (it ends before, or the half
 * would start where the next one does) goes; a half made a single event here stays one, moved as its occurrence is,
 * and ends the one before.
 */
function retimedSeries(
  existing: EventRow,
  columns: StoredColumns,
  halves: readonly SplitHalf[],
  last: { shape: SeriesShape; movedMs: number } | null,
) {
  const shape = eventShape(columns);
  const fileExdates = last?.shape.exdates ?? [];
  // Where the first part ends here, in the file's last times: the occurrence after it is where its deleted rest began.
  // Only an UNTIL the file's rule did not have (or had later) is an end made here.
  const ownEnd = existing.rrule !== null && last ? untilOf(eventShape(existing)) : null;
  const fileEnd = last ? untilOf(last.shape) : null;
  const endedHere = ownEnd !== null && (fileEnd === null || ownEnd < fileEnd);
  const restStart = endedHere && last ? firstStartFrom(last.shape, ownEnd + 1 - last.movedMs) : undefined;
  const bounds: { half: SplitHalf | null; start: number }[] = [];
  const dropped: EventRow[] = [];
  const entries = [
    ...(restStart === undefined ? [] : [{ half: null, fileStartAt: restStart }]),
    ...halves.map((half) => ({ half, fileStartAt: half.fileStartAt })),
  ];
  for (const { half, fileStartAt } of entries) {
    const start = occurrenceNear(shape, fileStartAt + (last ? columns.startAt - last.shape.startAt : 0));
    const isSeries = half !== null && half.row.rrule !== null;
    if (start === undefined || start <= shape.startAt) {
      if (isSeries) dropped.push(half.row);
      continue;
    }
    const previous = bounds.at(-1);
    if (previous && previous.start >= start) {
      bounds.pop();
      if (previous.half && previous.half.row.rrule !== null) dropped.push(previous.half.row);
    }
    bounds.push({ half, start });
  }
  const span = (from: number, to: number | undefined, skipped: readonly number[]) => {
    const rule = from === shape.startAt ? shape.rrule : ruleFrom(shape, from);
    return masterColumns(
      to === undefined ? rule : ruleEndingBefore({ ...shape, rrule: rule, startAt: from }, to),
      { startAt: from, durationMs: shape.durationMs, allDay: shape.allDay, zone: shape.zone },
      [...new Set([...shape.exdates, ...skipped])]
        .filter((start) => start >= from && (to === undefined || start < to))
        .sort((a, b) => a - b),
    );
  };
  // An occurrence skipped here stays skipped: where its series' move takes it.
  const moved = (starts: number[], by: number) =>
    starts.map((start) => occurrenceNear(shape, start + by)).filter((start) => start !== undefined);
  const first = {
    ...columns,
    ...span(
      shape.startAt,
      bounds[0]?.start,
      moved(skippedHere(existing, fileExdates, last?.movedMs ?? 0), shape.startAt - existing.startAt),
    ),
  };
  const later = bounds.flatMap(({ half, start }, index) => {
    if (!half || half.row.rrule === null) return [];
    const skipped = skippedHere(half.row, fileExdates, half.row.startAt - half.fileStartAt);
    const columns = span(start, bounds[index + 1]?.start, moved(skipped, start - half.row.startAt));
    return [{ row: half.row, columns, fileStartAt: start }];
  });
  // A part made a single event here keeps its place in the series: it moves as its occurrence did.
  const singles = bounds.flatMap(({ half, start }) => {
    if (!half || half.row.rrule !== null) return [];
    const by = start - half.fileStartAt;
    return [
      { row: half.row, startAt: half.row.startAt + by, endAt: half.row.endAt + by, fileStartAt: start },
    ];
  });
  return { first, later, singles, dropped, bounds };
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
  // The rows an event of the file was merged into.
  const matched = new Set<string>();
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
      matched.add(existing.id);
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

  // A series split here goes on as later halves (series, or single events made here), each from its start in the
  // file's times (icsSplitAt): an occurrence the file changes belongs to the part that holds its date.
  const seriesUids = parsed.events
    .filter((event) => event.series && event.recurrenceAt === null)
    .map((event) => uidOfKey(event.key));
  const halvesByUid = new Map<string, SplitHalf[]>();
  for (const row of await app.eventsRepository.findSplitHalves(user.id, seriesUids)) {
    const halves = halvesByUid.get(row.icsSplitOf!) ?? [];
    halves.push({ row, fileStartAt: row.icsSplitAt ?? row.startAt });
    halvesByUid.set(row.icsSplitOf!, halves);
  }
  for (const halves of halvesByUid.values()) halves.sort((a, b) => a.fileStartAt - b.fileStartAt);
  // Series the file gave a new time, and how far each moved here: the occurrences edited here follow (see below).
  const retimed: (Omit<SeriesOfOverride, 'movedMs'> & { movedMs: number; occurrenceMs: number })[] = [];
  // Later halves the file's new series no longer reaches: they go, with their occurrences edited here.
  const droppedHalves: string[] = [];
  // Series the file renamed: the occurrences edited here that still had the old title take the new one.
  const renamed = new Map<string, { from: string; to: string }>();
  // Per UID, from which start in the file's times which part holds the file's occurrences: a series, or why none.
  const holdersByUid = new Map<string, { fileStartAt: number; holder: Holder }[]>();
  const noLongerRepeats = { reason: 'It changes an occurrence of a series that no longer repeats here' };
  const deletedHere = { reason: 'It changes an occurrence deleted here' };
  const holderOfHalf = (row: EventRow, fileStartAt: number): Holder =>
    row.rrule === null
      ? noLongerRepeats
      : { id: row.id, rrule: row.rrule, movedMs: row.startAt - fileStartAt, shape: eventShape(row) };

  // Series and single events first: an override needs its series' id.
  // Each series as the file has it: an occurrence it skips itself is not one deleted here.
  const fileShapes = new Map<string, SeriesShape>();
  const letOthersRun = yieldPoint();
  const importedKeys = new Set(parsed.events.map((event) => event.key));
  for (const imported of parsed.events.filter((event) => event.recurrenceAt === null)) {
    await letOthersRun();
    const columns = columnsOrSkip(imported, null);
    if (!columns) continue;
    const uid = uidOfKey(imported.key);
    const ownId = ownIdOf(imported);
    const keyed = existingByKey.get(imported.key);
    const found = keyed?.seriesId === null ? keyed : ownId ? existingById.get(ownId) : undefined;
    // A single event of the file may be what an earlier import stored as one occurrence's change (the file's rule no
    // longer gives that occurrence): that row, an occurrence's, goes, and the event is stored as a new one.
    if (!imported.series && keyed && keyed.seriesId !== null) stale.add(keyed.id);
    const existing = found && !claimed.has(found.id) ? found : undefined;
    const id = existing?.id ?? newId();
    const halves = halvesByUid.get(uid) ?? [];
    if (imported.series && !existing && halves.length > 0) {
      // Split here, and the part before the split deleted here: it stays deleted, the later parts stay as they are.
      skip(imported, 'The part of this series before a split made here was deleted here');
      fileShapes.set(uid, eventShape(columns));
      holdersByUid.set(uid, [
        { fileStartAt: -Infinity, holder: deletedHere },
        ...halves.map(({ row, fileStartAt }) => ({ fileStartAt, holder: holderOfHalf(row, fileStartAt) })),
      ]);
      continue;
    }
    if (imported.series && !existing) {
      // A series an older import stored as copies, one per occurrence: the copies go.
      const copies = await app.eventsRepository.findByIcsUid(user.id, uid);
      for (const copy of copies) if (!importedKeys.has(copy.icsKey!)) stale.add(copy.id);
    }
    // A new time from the file for a series: what was made here of it is kept where it can be (see retimedSeries). A
    // series made a single event here stays that event.
    let plan: ReturnType<typeof retimedSeries> | null = null;
    const madeSingle = existing !== undefined && imported.series !== null && existing.rrule === null;
    if (existing && imported.series && fileChanges(existing, columns).timeChanged) {
      try {
        plan = retimedSeries(existing, columns, halves, lastSeriesOf(existing));
      } catch (error) {
        // A part the rule checks refuse (too many skipped occurrences, say): the series stays as it is.
        if (!(error instanceof HttpError)) throw error;
        skip(imported, error.message);
        continue;
      }
    }
    const keptTime = madeSingle
      ? Object.fromEntries(
          Object.keys(columns)
            .filter((name) => name !== 'title')
            .map((name) => [name, existing[name as keyof EventRow]]),
        )
      : {};
    const placed = madeSingle ? { ...columns, ...keptTime } : (plan?.first ?? columns);
    const stored = store(imported, id, existing, columns, placed);
    if (existing && stored.rrule !== null && stored.title !== existing.title) {
      renamed.set(id, { from: existing.title, to: stored.title });
    }
    if (existing && plan && stored.rrule !== null) {
      retimed.push({
        id,
        rrule: stored.rrule,
        shape: eventShape(stored),
        movedMs: stored.startAt - existing.startAt,
        occurrenceMs: stored.occurrenceMs!,
      });
    }
    const retimedHalves = new Map<string, EventRow>();
    for (const half of plan?.later ?? []) {
      const changes = { ...half.columns, allDay: columns.allDay, icsSplitAt: half.fileStartAt };
      const row: EventRow = { ...half.row, ...changes };
      retimedHalves.set(row.id, row);
      if (isUnchanged(half.row, changes)) continue;
      updated.push({ ...row, updatedAt: now });
      changedRows += 1;
      retimed.push({
        id: row.id,
        rrule: row.rrule!,
        shape: eventShape(row),
        movedMs: row.startAt - half.row.startAt,
        occurrenceMs: row.occurrenceMs!,
      });
    }
    for (const single of plan?.singles ?? []) {
      const changes = { startAt: single.startAt, endAt: single.endAt, icsSplitAt: single.fileStartAt };
      if (isUnchanged(single.row, changes)) continue;
      updated.push({ ...single.row, ...changes, updatedAt: now });
      changedRows += 1;
    }
    for (const row of plan?.dropped ?? []) {
      stale.add(row.id);
      droppedHalves.push(row.id);
      changedRows += 1;
    }
    // Its overrides take the rule and times it is stored with (a split here ended it; a series edit moved it). One
    // made a single event here has no occurrences left for them to change.
    if (!imported.series) continue;
    fileShapes.set(uid, eventShape(columns));
    const first: Holder =
      stored.rrule === null
        ? noLongerRepeats
        : { id, rrule: stored.rrule, movedMs: stored.startAt - columns.startAt, shape: eventShape(stored) };
    const later = plan
      ? plan.bounds.map(({ half, start }) => ({
          fileStartAt: start,
          holder:
            half === null ? deletedHere : holderOfHalf(retimedHalves.get(half.row.id) ?? half.row, start),
        }))
      : halves.map(({ row, fileStartAt }) => ({ fileStartAt, holder: holderOfHalf(row, fileStartAt) }));
    holdersByUid.set(uid, [{ fileStartAt: -Infinity, holder: first }, ...later]);
  }

  const following = new Map(retimed.map((series) => [series.id, series]));
  const holderOf = (uid: string, recurrenceAt: number): Holder | undefined =>
    holdersByUid
      .get(uid)
      ?.filter((part) => part.fileStartAt <= recurrenceAt)
      .at(-1)?.holder;

  for (const imported of parsed.events.filter((event) => event.recurrenceAt !== null)) {
    await letOthersRun();
    const series = holderOf(uidOfKey(imported.key), imported.recurrenceAt!);
    if (!series || 'reason' in series) {
      skip(imported, series?.reason ?? 'It changes an occurrence of a series that could not be imported');
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
    let existing =
      byItsKey?.id === id
        ? byItsKey
        : (existingById.get(id) ?? (await app.eventsRepository.find(user.id, id)));
    // A row at that occurrence that is not this event's, of a series the file moved: it is another occurrence's edit,
    // which moves with its series (below), not this one.
    const notThisEvent = existing !== byItsKey && (existing?.icsKey ?? null) !== imported.key;
    if (existing && notThisEvent && (following.get(series.id)?.movedMs ?? 0) !== 0) existing = undefined;
    // An occurrence of the file's series that is gone here (deleted, or in a part of a split deleted here) stays
    // gone: the file's change to it would bring it back. One the file's series does not have (its rule does not give
    // it, or the file skips it too) is stored as it comes.
    const gone =
      !existing &&
      !byItsKey &&
      hasOccurrenceAt(fileShapes.get(uidOfKey(imported.key))!, imported.recurrenceAt!) &&
      !hasOccurrenceAt(series.shape, placed.recurrenceAt!);
    if (gone) {
      skip(imported, deletedHere.reason);
      continue;
    }
    // An occurrence an older import stored as a copy: the override takes its place, under its occurrence's id.
    if (byItsKey && byItsKey.id !== id) stale.add(byItsKey.id);
    store(imported, id, existing, columns, placed);
  }

  // The occurrences edited here of a series the file retimed follow it, as they follow a series edit made here: each
  // is re-keyed to its occurrence's new start, and one still at its slot moves there. One whose occurrence the file
  // now changes itself gives way to the file's. Those of a later half that went, go with it. Of a series the file
  // renamed, those that still had the old title take the new one.
  const overrideRows = await app.eventsRepository.overrideRowsOf(user.id, [
    ...new Set([...retimed.map((series) => series.id), ...droppedHalves, ...renamed.keys()]),
  ]);
  const dropped = new Set(droppedHalves);
  // The rows that are the file's own events (merged into, or keyed by one), which the file placed above.
  const fileOwned = (row: EventRow) =>
    matched.has(row.id) || stale.has(row.id) || (row.icsKey !== null && importedKeys.has(row.icsKey));
  // The rows that keep their ids: a moved one cannot take one of those ids, nor one an event of the file took.
  const staying = new Set(
    overrideRows.filter((row) => fileOwned(row) && !stale.has(row.id)).map((row) => row.id),
  );
  let rekeyed = 0;
  for (const row of overrideRows) {
    if (dropped.has(row.seriesId!)) {
      stale.add(row.id);
      continue;
    }
    if (fileOwned(row)) continue;
    const series = following.get(row.seriesId!);
    const rename = renamed.get(row.seriesId!);
    const columns: Partial<EventRow> = rename && row.title === rename.from ? { title: rename.to } : {};
    if (series) {
      const shifted = row.recurrenceAt! + series.movedMs;
      const recurrenceAt = occurrenceWithin(series.shape, shifted) ?? shifted;
      const atItsSlot = row.startAt === row.recurrenceAt;
      Object.assign(columns, {
        id: occurrenceId(series.id, recurrenceAt),
        rrule: series.rrule,
        recurrenceAt,
        ...(atItsSlot ? { startAt: recurrenceAt, endAt: recurrenceAt + series.occurrenceMs } : {}),
      });
    }
    const moved: EventRow = { ...row, ...columns, updatedAt: now };
    if (moved.id === row.id) {
      if (!isUnchanged(row, columns)) {
        updated.push(moved);
        changedRows += 1;
      }
      continue;
    }
    stale.add(row.id);
    if (claimed.has(moved.id) || staying.has(moved.id)) continue;
    claimed.add(moved.id);
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
