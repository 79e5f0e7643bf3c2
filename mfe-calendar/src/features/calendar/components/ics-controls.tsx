import { useId, useRef, type ChangeEvent, type RefObject } from 'react';
import { Button } from '@time-wallet/shared-ui';
import { useExportEventsMutation, useImportEventsMutation } from '../api/events-api';
import {
  downloadText,
  EXPORT_FILE_NAME,
  FILE_TOO_LARGE,
  importFailureText,
  MAX_ICS_BYTES,
  type IcsOutcome,
  type IcsResult,
} from '../lib/ics-files';
import styles from './ics-controls.module.css';

export interface IcsControlsProps {
  /** What an import or a failed export came to; the page shows it in its own place (ImportResult). */
  onOutcome: (outcome: IcsOutcome) => void;
  /** The file input, for focus to come back to once its result is dismissed. */
  importInputRef?: RefObject<HTMLInputElement | null>;
}

/** 'Import .ics' uploads a calendar file; 'Export .ics' downloads every event. */
export function IcsControls({ onOutcome, importInputRef }: IcsControlsProps) {
  const inputId = useId();
  const [importEvents, importState] = useImportEventsMutation();
  const [exportEvents, exportState] = useExportEventsMutation();
  const outcomes = useRef(0);
  const report = (result: IcsResult) => {
    outcomes.current += 1;
    onOutcome({ ...result, id: outcomes.current });
  };

  const importFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    // Cleared at once so choosing the same file again still fires a change.
    input.value = '';
    if (!file) return;
    if (file.size > MAX_ICS_BYTES) {
      report({ kind: 'failed', text: FILE_TOO_LARGE });
      return;
    }
    const upload = new FormData();
    upload.append('file', file, file.name);
    const result = await importEvents(upload);
    report(
      'data' in result && result.data
        ? { kind: 'imported', fileName: file.name, summary: result.data }
        : { kind: 'failed', text: importFailureText(result.error) },
    );
  };

  const exportFile = async () => {
    const result = await exportEvents();
    if ('data' in result && typeof result.data === 'string') {
      downloadText(result.data, EXPORT_FILE_NAME, 'text/calendar');
    } else {
      report({ kind: 'failed', text: 'Failed to export events' });
    }
  };

  return (
    <div className={styles.controls}>
      <input
        ref={importInputRef}
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
      <Button variant="secondary" busy={exportState.isLoading} busyLabel="Exporting..." onClick={exportFile}>
        Export .ics
      </Button>
    </div>
  );
}
