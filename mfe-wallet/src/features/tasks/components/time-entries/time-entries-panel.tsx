import { useEffect, useRef, useState } from 'react';
import { serverMessageOf, type TimeEntry, toastUndoableDelete } from '@time-wallet/api';
import {
  useAddTimeEntryMutation,
  useDeleteTimeEntryMutation,
  useRestoreTimeEntryMutation,
  useUpdateTimeEntryMutation,
} from '@time-wallet/api/time-entries';
import { Button } from '@time-wallet/shared-ui';
import { formatStopwatch } from '../../../../lib/duration';
import { useDayEntries } from '../../hooks/use-day-entries';
import { useNow } from '../../hooks/use-now';
import {
  clockOf,
  entriesOfTask,
  entryChangeOf,
  entryDraftOf,
  entrySecondsAt,
  newEntryBody,
  type EntryDraft,
} from '../../lib/entries';
import type { Task } from '../../lib/task';
import { EntryForm } from './entry-form';
import styles from './time-entries.module.css';

const EMPTY: EntryDraft = { start: '', end: '' };

/** An entry's times as a person reads them: '09:00 – 09:40', to the second where it has seconds. */
const spanOf = (entry: TimeEntry) =>
  `${clockOf(entry.start)} – ${entry.end === null ? 'now' : clockOf(entry.end)}`;

function EntryLine({
  entry,
  now,
  editRef,
  onEdit,
  onDelete,
  deleting,
}: {
  entry: TimeEntry;
  now: number;
  editRef: (button: HTMLButtonElement | null) => void;
  onEdit: () => void;
  onDelete: () => void;
  deleting: boolean;
}) {
  const span = spanOf(entry);
  const running = entry.end === null;
  return (
    <li className={styles.entry}>
      <span className={styles.span}>
        <time dateTime={entry.start}>{clockOf(entry.start)}</time>
        {' – '}
        {running ? 'now' : <time dateTime={entry.end ?? undefined}>{clockOf(entry.end ?? '')}</time>}
      </span>
      <span className={styles.length}>
        {formatStopwatch(entrySecondsAt(entry, now))}
        {running ? ' · running' : entry.source === 'manual' ? ' · by hand' : ''}
      </span>
      <span className={styles.actions}>
        {/* A running entry's end comes from stopping its timer. */}
        {!running && (
          <Button ref={editRef} variant="ghost" aria-label={`Edit entry ${span}`} onClick={onEdit}>
            Edit
          </Button>
        )}
        <Button variant="ghost" aria-label={`Delete entry ${span}`} onClick={onDelete} busy={deleting}>
          Delete
        </Button>
      </span>
    </li>
  );
}

/**
 * A task's time entries on the day shown (GET /time-entries): each with its start and end to the minute, or to the
 * second where the timer recorded seconds, and its length; edit one, delete one (the toast offers Undo), or add
 * one by hand with a start and an end clock time on that day. Loaded only when a row opens it.
 */
export default function TimeEntriesPanel({ task, day, id }: { task: Task; day: string; id: string }) {
  const dayEntries = useDayEntries(day);
  const entries = dayEntries === undefined ? undefined : entriesOfTask(dayEntries, task._id);
  const now = useNow(entries?.some((entry) => entry.end === null) ?? false);
  const [addEntry] = useAddTimeEntryMutation();
  const [updateEntry] = useUpdateTimeEntryMutation();
  const [deleteEntry, deleting] = useDeleteTimeEntryMutation();
  const [restoreEntry] = useRestoreTimeEntryMutation();
  const [editingId, setEditingId] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  // The entry whose Edit button takes focus back when its form closes (the button mounts again then).
  const focusEditOf = useRef<string | null>(null);
  const editStart = useRef<HTMLInputElement>(null);
  const addStart = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (editingId !== null) editStart.current?.focus();
  }, [editingId]);
  const closeEdit = (entryId: string) => {
    focusEditOf.current = entryId;
    setEditingId(null);
  };

  const remove = async (entry: TimeEntry) => {
    setProblem(null);
    const result = await deleteEntry(entry.id);
    if (result.error) {
      setProblem(serverMessageOf(result.error, 'The time entry could not be deleted. Try again.'));
      return;
    }
    addStart.current?.focus();
    toastUndoableDelete({
      message: `Time entry ${spanOf(entry)} deleted`,
      undo: () => restoreEntry(entry.id),
      restoredMessage: 'Time entry restored',
    });
  };

  const titleId = `${id}-title`;
  return (
    <section id={id} className={styles.panel} aria-labelledby={titleId}>
      <h3 id={titleId} className={styles.title}>
        Time entries of {task.title}
      </h3>
      {entries === undefined ? (
        <p className={styles.note} role="status">
          Loading time entries
        </p>
      ) : entries.length === 0 ? (
        <p className={styles.note}>No time tracked on this day yet.</p>
      ) : (
        <ul className={styles.entries} aria-labelledby={titleId}>
          {entries.map((entry) =>
            entry.id === editingId ? (
              <li key={entry.id} className={styles.entry}>
                <EntryForm
                  label={`Edit entry ${spanOf(entry)}`}
                  initial={entryDraftOf(entry)}
                  submitLabel="Save"
                  startRef={editStart}
                  onCancel={() => closeEdit(entry.id)}
                  onSubmit={async (draft) => {
                    const change = entryChangeOf(entry, draft);
                    const result = change ? await updateEntry(change) : null;
                    if (result?.error) return result.error;
                    closeEdit(entry.id);
                    return null;
                  }}
                />
              </li>
            ) : (
              <EntryLine
                key={entry.id}
                entry={entry}
                now={now}
                editRef={(button) => {
                  if (!button || focusEditOf.current !== entry.id) return;
                  focusEditOf.current = null;
                  button.focus();
                }}
                onEdit={() => {
                  setProblem(null);
                  setEditingId(entry.id);
                }}
                onDelete={() => void remove(entry)}
                deleting={deleting.isLoading && deleting.originalArgs === entry.id}
              />
            ),
          )}
        </ul>
      )}
      {problem && (
        <p className={styles.error} role="alert">
          {problem}
        </p>
      )}
      <EntryForm
        label={`Add time to ${task.title}`}
        initial={EMPTY}
        submitLabel="Add time"
        startRef={addStart}
        onSubmit={async (draft) => {
          setAdded(null);
          const result = await addEntry(newEntryBody(task._id, day, draft));
          if (result.error) return result.error;
          setAdded(`Added ${draft.start} – ${draft.end}.`);
          return null;
        }}
      />
      <p className="visually-hidden" role="status">
        {added ?? ''}
      </p>
    </section>
  );
}
