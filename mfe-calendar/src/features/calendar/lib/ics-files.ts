import { errorBodyOf, isNetworkError, type ApiError } from '@time-wallet/api';
import type { ImportSummary } from '../api/events-api';

/** The server refuses bigger uploads (413); checking first spares a pointless upload. */
export const MAX_ICS_BYTES = 1024 * 1024;
export const EXPORT_FILE_NAME = 'time-wallet.ics';

export const FILE_TOO_LARGE = 'That file is larger than 1 MiB. Choose a smaller .ics file.';

/** The counts an import result can list: a count the server adds is one more line of IMPORT_COUNTS. */
type ImportCount = {
  [Field in keyof ImportSummary]: ImportSummary[Field] extends number ? Field : never;
}[keyof ImportSummary];

/** The lines of an import result, in order, each a count the server sends and its label. */
export const IMPORT_COUNTS: readonly (readonly [ImportCount, string])[] = [
  ['created', 'Created'],
  ['updated', 'Updated'],
  // The server's skipped count holds the duplicates and the events it could not read.
  ['duplicates', 'Duplicates skipped'],
  ['skipped', 'Skipped in all'],
];

/** What an import or export came to: the result of a file the server read, or why it went wrong. */
export type IcsResult =
  { kind: 'imported'; fileName: string; summary: ImportSummary } | { kind: 'failed'; text: string };

/** A result as the page shows it: a new id for each one, so one that reads as the last is still announced. */
export type IcsOutcome = IcsResult & { id: number };

/** The line that opens the list of events a file held but the server could not read (it names at most 20). */
export function unreadSummaryText(count: number): string {
  return count === 1 ? 'Why 1 event could not be read' : `Why ${count} events could not be read`;
}

/** The line that opens the list of events imported as one occurrence, their repeat rule unusable (at most 20). */
export function importedOnceSummaryText(count: number): string {
  return count === 1
    ? '1 event imported once: its repeat rule cannot be used'
    : `${count} events imported once: their repeat rules cannot be used`;
}

/** What went wrong with an upload, in words a person can act on. */
export function importFailureText(error: ApiError): string {
  if (isNetworkError(error))
    return 'The calendar file could not be sent. Check your connection and try again.';
  if (error && 'status' in error && error.status === 413) return FILE_TOO_LARGE;
  const serverMessage = errorBodyOf(error)?.message;
  if (error && 'status' in error && error.status === 400 && serverMessage) {
    return `That file could not be imported: ${serverMessage}`;
  }
  return 'Failed to import events';
}

/** Hands a text to the browser as a file download. */
export function downloadText(text: string, fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked once the browser has surely read the file; revoking at once can cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
