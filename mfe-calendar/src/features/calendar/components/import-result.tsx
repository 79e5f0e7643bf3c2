import { useId } from 'react';
import { Banner, IconButton } from '@time-wallet/shared-ui';
import { IMPORT_COUNTS, unreadSummaryText, type IcsOutcome } from '../lib/ics-files';
import styles from './import-result.module.css';

export interface ImportResultProps {
  outcome: IcsOutcome | null;
  onDismiss: () => void;
}

/**
 * What the last .ics import did, in the page's flow under its header: it pushes what follows down instead of
 * lying over it. The polite live region is always there, so a result put in it is announced.
 */
export function ImportResult({ outcome, onDismiss }: ImportResultProps) {
  const titleId = useId();
  const imported = outcome?.kind === 'imported' ? outcome : null;

  return (
    <>
      <div role="status" aria-live="polite">
        {imported && (
          <div key={imported.id} role="group" aria-labelledby={titleId} className={styles.result}>
            <div className={styles.heading}>
              <p id={titleId} className={styles.title}>
                Imported {imported.fileName}
              </p>
              <IconButton label="Dismiss import result" className={styles.dismiss} onClick={onDismiss}>
                ×
              </IconButton>
            </div>
            <dl className={styles.counts}>
              {IMPORT_COUNTS.map(([count, label]) => (
                <div key={count} className={styles.count}>
                  <dt>{label}</dt>
                  <dd>{imported.summary[count]}</dd>
                </div>
              ))}
            </dl>
            {imported.summary.skippedEvents.length > 0 && (
              // The events the file held that could not be read, each with the server's reason.
              <details className={styles.unread}>
                <summary>{unreadSummaryText(imported.summary.skippedEvents.length)}</summary>
                <ul>
                  {imported.summary.skippedEvents.map((event, index) => (
                    <li key={`${event.uid}-${index}`}>
                      {event.summary || event.uid || 'An event without a title'}: {event.reason}
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </div>
        )}
      </div>
      {outcome?.kind === 'failed' && (
        <Banner key={outcome.id} tone="error" className={styles.failure} onDismiss={onDismiss}>
          {outcome.text}
        </Banner>
      )}
    </>
  );
}
