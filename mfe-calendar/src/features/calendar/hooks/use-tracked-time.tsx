import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import {
  fieldErrorsOf,
  toastUndoableDelete,
  type ApiError,
  type Task,
  type TimeEntry,
} from '@time-wallet/api';
import {
  useAddTimeEntryMutation,
  useDeleteTimeEntryMutation,
  useRestoreTimeEntryMutation,
  useUpdateTimeEntryMutation,
} from '@time-wallet/api/time-entries';
import { draftForTask, draftOfEntry, instantsOfDraft, type EntryDraft } from '../lib/tracked-time';
import type { EntryField } from '../components/entry-dialog';
import type { EntryMove } from '../components/tracked-lane';

// The dialog is asked for only when someone opens it: most visits to the calendar never do.
const EntryDialog = lazy(() =>
  import('../components/entry-dialog').then((module) => ({ default: module.EntryDialog })),
);

type DialogState =
  | { mode: 'add'; key: number; taskId: string; taskTitle: string; draft: EntryDraft }
  | { mode: 'edit'; key: number; entry: TimeEntry; taskTitle: string; draft: EntryDraft };

interface Failure {
  message: string | null;
  fieldErrors: Partial<Record<EntryField, string>>;
}

const ENTRY_FIELDS: readonly EntryField[] = ['start', 'end'];
const NO_FAILURE: Failure = { message: null, fieldErrors: {} };

/** What a refused save says in the dialog: the server's reason on its field, or above the fields (an overlap). */
function failureOf(error: ApiError, fallback: string): Failure {
  const { fieldErrors, message } = fieldErrorsOf(error, ENTRY_FIELDS);
  const onFields = Object.keys(fieldErrors).length > 0;
  return { fieldErrors, message: onFields ? null : (message ?? fallback) };
}

interface TrackedTimeOptions {
  entries: readonly TimeEntry[];
  taskTitles: ReadonlyMap<string, string>;
}

/**
 * Tracked time on the calendar: the dialog that adds an entry for a task or edits one (its times, Delete with Undo),
 * and the save of a bar dragged on the grid. The server's refusals are shown, never swallowed: in the dialog on the
 * field they name (an end in the future) or above the fields (an overlap, naming the other task), and after a drag
 * in a toast as the bar goes back.
 */
export function useTrackedTime({ entries, taskTitles }: TrackedTimeOptions) {
  const [addEntry, addState] = useAddTimeEntryMutation();
  const [updateEntry, updateState] = useUpdateTimeEntryMutation();
  const [deleteEntry, deleteState] = useDeleteTimeEntryMutation();
  const [restoreEntry] = useRestoreTimeEntryMutation();
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const [failure, setFailure] = useState<Failure>(NO_FAILURE);
  const busy = addState.isLoading || updateState.isLoading || deleteState.isLoading;
  const titleOf = useCallback((taskId: string) => taskTitles.get(taskId) ?? 'a task', [taskTitles]);

  const openEntry = useCallback(
    (entryId: string) => {
      const entry = entries.find((candidate) => candidate.id === entryId);
      if (!entry) return;
      setFailure(NO_FAILURE);
      setDialog({
        mode: 'edit',
        key: Date.now(),
        entry,
        taskTitle: titleOf(entry.taskId),
        draft: draftOfEntry(entry),
      });
    },
    [entries, titleOf],
  );

  const addForTask = useCallback((task: Task) => {
    setFailure(NO_FAILURE);
    setDialog({
      mode: 'add',
      key: Date.now(),
      taskId: task._id,
      taskTitle: task.title,
      draft: draftForTask(task, new Date()),
    });
  }, []);

  const moveEntry = useCallback(
    async ({ id, start, end }: EntryMove) => {
      const result = await updateEntry({ id, start, ...(end === null ? {} : { end }) });
      if (!result.error) return true;
      const entry = entries.find((candidate) => candidate.id === id);
      const { fieldErrors, message } = fieldErrorsOf(result.error, ENTRY_FIELDS);
      const reason = message ?? fieldErrors.end ?? fieldErrors.start;
      const title = entry ? titleOf(entry.taskId) : 'a task';
      toast.error(
        `Could not change the time tracked on "${title}".${reason ? ` ${reason.replace(/\.?$/, '.')}` : ''} It is back where it was.`,
        { id: `entry-${id}` },
      );
      return false;
    },
    [entries, titleOf, updateEntry],
  );

  // A late answer closes only the dialog it belongs to.
  const dialogKey = useRef<number | null>(null);
  useEffect(() => {
    dialogKey.current = dialog?.key ?? null;
  }, [dialog]);
  const closeIfStill = (key: number) => setDialog((current) => (current?.key === key ? null : current));

  const save = async (draft: EntryDraft) => {
    if (!dialog) return;
    const { key } = dialog;
    const next = instantsOfDraft(draft);
    let error: ApiError | undefined;
    if (dialog.mode === 'add') {
      if (next.end === null) return;
      ({ error } = await addEntry({ taskId: dialog.taskId, start: next.start, end: next.end }));
    } else {
      // Only what was changed: the entry keeps its seconds where the form shows minutes.
      const before = instantsOfDraft(dialog.draft);
      const change = {
        ...(next.start !== before.start ? { start: next.start } : {}),
        ...(next.end !== null && next.end !== before.end ? { end: next.end } : {}),
      };
      if (Object.keys(change).length > 0) ({ error } = await updateEntry({ id: dialog.entry.id, ...change }));
    }
    if (error) {
      if (dialogKey.current === key) setFailure(failureOf(error, 'Failed to save tracked time'));
      return;
    }
    closeIfStill(key);
    toast.success(dialog.mode === 'add' ? 'Tracked time added' : 'Tracked time saved');
  };

  const remove = async () => {
    if (dialog?.mode !== 'edit') return;
    const { key, entry, taskTitle } = dialog;
    const result = await deleteEntry(entry.id);
    if (result.error) {
      if (dialogKey.current === key) setFailure(failureOf(result.error, 'Failed to delete tracked time'));
      return;
    }
    closeIfStill(key);
    toastUndoableDelete({
      message: `Tracked time on "${taskTitle}" deleted`,
      undo: () => restoreEntry(entry.id),
      restoredMessage: 'Tracked time restored',
    });
  };

  const entryDialog = dialog ? (
    <Suspense fallback={null}>
      <EntryDialog
        key={dialog.key}
        mode={dialog.mode}
        taskTitle={dialog.taskTitle}
        initialDraft={dialog.draft}
        running={dialog.mode === 'edit' && dialog.entry.end === null}
        busy={busy}
        error={failure.message}
        fieldErrors={failure.fieldErrors}
        onSave={(draft) => void save(draft)}
        onDelete={dialog.mode === 'edit' ? () => void remove() : undefined}
        onClose={() => {
          if (!busy) setDialog(null);
        }}
      />
    </Suspense>
  ) : null;

  return { openEntry, addForTask, moveEntry, entryDialog };
}
