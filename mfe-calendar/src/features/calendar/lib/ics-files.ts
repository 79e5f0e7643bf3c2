import { errorBodyOf, isNetworkError, type ApiError } from '@time-wallet/api';
import type { ImportSummary } from '../api/events-api';

/** The server refuses bigger uploads (413); checking first spares a pointless upload. */
export const MAX_ICS_BYTES = 1024 * 1024;
export const EXPORT_FILE_NAME = 'time-wallet.ics';

export const FILE_TOO_LARGE = 'That file is larger than 1 MiB. Choose a smaller .ics file.';

export function importSummaryText({ created, updated, skipped }: ImportSummary): string {
  return `Imported: ${created} created, ${updated} updated, ${skipped} skipped.`;
}

/** The line that opens the list of events a file held but the server could not read (it names at most 20). */
export function unreadSummaryText(count: number): string {
  return count === 1 ? 'Why 1 event could not be read' : `Why ${count} events could not be read`;
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
