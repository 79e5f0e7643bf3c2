import { useId } from 'react';
import { Banner, IconButton } from '@time-wallet/shared-ui';
import { IMPORT_COUNTS, importedOnceSummaryText, unreadSummaryText, type IcsOutcome } from '../lib/ics-files';
import type { ImportSummary } from '../api/events-api';
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
            {/* The events the file held that could not be read, each with the server's reason. */}
            <EventReasons events={imported.summary.skippedEvents} title={unreadSummaryText} />
            {/* The series the server keeps as their first occurrence, each with why its rule cannot be used. */}
            <EventReasons events={imported.summary.importedOnce ?? []} title={importedOnceSummaryText} />
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

/** A list of a file's events, each with the server's reason, folded under a line that says what they are. */
function EventReasons({
  events,
  title,
}: {
  events: ImportSummary['skippedEvents'];
  title: (count: number) => string;
}) {
  if (events.length === 0) return null;
  return (
    <details className={styles.unread}>
      <summary>{title(events.length)}</summary>
      <ul>
        {events.map((event, index) => (
          <li key={`${event.uid}-${index}`}>
            {event.summary || event.uid || 'An event without a title'}: {event.reason}
          </li>
        ))}
      </ul>
    </details>
  );
}
