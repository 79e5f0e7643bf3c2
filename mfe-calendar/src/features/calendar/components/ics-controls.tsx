import { useId, useState, type ChangeEvent } from 'react';
import { Button } from '@time-wallet/shared-ui';
import { useExportEventsMutation, useImportEventsMutation, type ImportSummary } from '../api/events-api';
import {
  downloadText,
  EXPORT_FILE_NAME,
  FILE_TOO_LARGE,
  importFailureText,
  importSummaryText,
  MAX_ICS_BYTES,
  unreadSummaryText,
} from '../lib/ics-files';
import styles from './ics-controls.module.css';

type Unread = ImportSummary['skippedEvents'];
type Outcome = { tone: 'success' | 'error'; text: string; unread?: Unread } | null;

/** 'Import .ics' uploads a calendar file and says what it changed; 'Export .ics' downloads every event. */
export function IcsControls() {
  const inputId = useId();
  const [importEvents, importState] = useImportEventsMutation();
  const [exportEvents, exportState] = useExportEventsMutation();
  const [outcome, setOutcome] = useState<Outcome>(null);

  const importFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    // Cleared at once so choosing the same file again still fires a change.
    input.value = '';
    if (!file) return;
    if (file.size > MAX_ICS_BYTES) {
      setOutcome({ tone: 'error', text: FILE_TOO_LARGE });
      return;
    }
    setOutcome(null);
    const upload = new FormData();
    upload.append('file', file, file.name);
    const result = await importEvents(upload);
    setOutcome(
      'data' in result && result.data
        ? { tone: 'success', text: importSummaryText(result.data), unread: result.data.skippedEvents }
        : { tone: 'error', text: importFailureText(result.error) },
    );
  };

  const exportFile = async () => {
    setOutcome(null);
    const result = await exportEvents();
    if ('data' in result && typeof result.data === 'string') {
      downloadText(result.data, EXPORT_FILE_NAME, 'text/calendar');
    } else {
      setOutcome({ tone: 'error', text: 'Failed to export events' });
    }
  };

  return (
    <div className={styles.controls}>
      <div className={styles.buttons}>
        <input
          id={inputId}
          className={styles.fileInput}
          type="file"
          accept=".ics,text/calendar"
          disabled={importState.isLoading}
          onChange={importFile}
        />
        <label
          htmlFor={inputId}
          className={styles.importLabel}
          aria-disabled={importState.isLoading || undefined}
        >
          {importState.isLoading ? 'Importing...' : 'Import .ics'}
        </label>
        <Button
          variant="secondary"
          busy={exportState.isLoading}
          busyLabel="Exporting..."
          onClick={exportFile}
        >
          Export .ics
        </Button>
      </div>
      <div className={styles.outcome}>
        <div role="status" className={styles.status}>
          {outcome?.tone === 'success' && outcome.text}
          {outcome?.tone === 'success' && outcome.unread && outcome.unread.length > 0 && (
            // The events the file held that could not be read, each with the server's reason.
            <details className={styles.unread}>
              <summary>{unreadSummaryText(outcome.unread.length)}</summary>
              <ul>
                {outcome.unread.map((event, index) => (
                  <li key={`${event.uid}-${index}`}>
                    {event.summary || event.uid || 'An event without a title'}: {event.reason}
                  </li>
                ))}
              </ul>
            </details>
          )}
        </div>
        {outcome?.tone === 'error' && (
          <p role="alert" className={styles.error}>
            {outcome.text}
          </p>
        )}
      </div>
    </div>
  );
}
