import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import {
  fieldErrorsOf,
  type Category,
  toastUndoableDelete,
  useSetTrackedMinutesMutation,
} from '@time-wallet/api';
import { Button, Modal, SeriesScopeDialog } from '@time-wallet/shared-ui';
import { useDeleteTaskMutation, useEditTaskMutation, useRestoreTaskMutation } from '../api/tasks-api';
import {
  draftOf,
  draftsEqual,
  minutesTyped,
  repeats,
  ruleChanged,
  taskEditBody,
  TRACKED_MESSAGE,
  type EditScope,
  type Task,
} from '../lib/task';
import { isTimerRunning } from '../lib/timer';
import { MinutesField, TaskFields, useTaskForm } from './task-fields';

const FORM_ID = 'edit-task-form';

/** The tracked minutes as typed, corrected by hand; the running timer, if any, stops first (server). */
function useTrackedField(task: Task) {
  const [value, setValue] = useState(String(task.trackedMinutes));
  const [error, setError] = useState<string | null>(null);
  const minutes = minutesTyped(value, 0);
  return {
    value,
    error,
    setError,
    change: (typed: string) => {
      setValue(typed);
      setError(null);
    },
    /** The correction to send: null when unchanged, NaN when not 0 to 1440 whole minutes. */
    correction: minutes === task.trackedMinutes ? null : (minutes ?? Number.NaN),
  };
}

/** What the toast says after a delete, and after its Undo, per scope of a repeating task. */
const DELETED = {
  this: (title: string) => ({ message: `Task "${title}" deleted`, restoredMessage: 'Task restored' }),
  following: (title: string) => ({
    message: `Task "${title}" and the following ones deleted`,
    restoredMessage: 'Tasks restored',
  }),
  all: (title: string) => ({ message: `All "${title}" tasks deleted`, restoredMessage: 'Tasks restored' }),
} satisfies Record<EditScope, (title: string) => { message: string; restoredMessage: string }>;

/**
 * 'Edit Task': the task's fields, its estimate (clearing both times moves it to Unscheduled), its repeat rule and its
 * tracked time. For an occurrence of a series, Save (when a field changed) and Delete first ask which occurrences are
 * meant; the tracked time is the occurrence's own. Closes on Save or Delete success, Cancel, Escape or a click on
 * the backdrop.
 */
export function EditTaskModal({
  task,
  categories,
  onClose,
}: {
  task: Task;
  categories: readonly Category[];
  onClose: () => void;
}) {
  const [initialDraft] = useState(() => draftOf(task));
  const { draft, errors, change, checkDraft, showServerErrors } = useTaskForm(initialDraft, task.date);
  const tracked = useTrackedField(task);
  const [asking, setAsking] = useState<'edit' | 'delete' | null>(null);
  const [editTask, editing] = useEditTaskMutation();
  const [setTrackedMinutes, correcting] = useSetTrackedMinutesMutation();
  const [deleteTask, deleting] = useDeleteTaskMutation();
  const [restoreTask] = useRestoreTaskMutation();
  const saving = editing.isLoading || correcting.isLoading;
  const removing = deleting.isLoading;
  const busy = saving || removing;
  const isOccurrence = repeats(task);
  // An occurrence's own state (its tracked time) is no edit of the series: only a changed field asks.
  const fieldsChanged = !draftsEqual(draft, initialDraft);

  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const draftValid = checkDraft();
    if (Number.isNaN(tracked.correction)) tracked.setError(TRACKED_MESSAGE);
    if (!draftValid || Number.isNaN(tracked.correction)) return;
    if (!isOccurrence) void saveEdit();
    else if (fieldsChanged) setAsking('edit');
    else void saveTracked(task._id);
  };

  /** Saves the fields (of the occurrences `scope` names, for an occurrence), then the tracked time. */
  const saveEdit = async (scope?: EditScope) => {
    const edited = await editTask({ id: task._id, edit: taskEditBody(task, draft), scope });
    setAsking(null);
    if (edited.error) {
      showServerErrors(edited.error);
      toast.error('Failed to update task.');
      return;
    }
    // A series edit that moves the occurrence gives it another id.
    await saveTracked(edited.data._id);
  };

  const saveTracked = async (id: string) => {
    if (tracked.correction !== null) {
      const corrected = await setTrackedMinutes({ id, trackedMinutes: tracked.correction });
      if (corrected.error) {
        const { fieldErrors, message } = fieldErrorsOf(corrected.error, ['trackedMinutes']);
        tracked.setError(fieldErrors.trackedMinutes ?? message ?? 'Failed to correct the tracked time.');
        toast.error('Failed to update task.');
        return;
      }
    }
    onClose();
  };

  const remove = () => {
    if (isOccurrence) setAsking('delete');
    else void removeWith('this');
  };

  /** Deletes what the scope names in one request; Undo restores by the id deleted, whatever the scope. */
  const removeWith = async (scope: EditScope) => {
    const result = await deleteTask({ id: task._id, ...(isOccurrence ? { scope } : {}) });
    setAsking(null);
    if (result.error) {
      toast.error('Failed to delete task.');
      return;
    }
    onClose();
    toastUndoableDelete({ ...DELETED[scope](task.title), undo: () => restoreTask(task._id) });
  };

  // Closing while a save runs would throw away the edits if it then fails.
  const closeUnlessBusy = () => {
    if (!busy) onClose();
  };

  return (
    <>
      <Modal
        open
        title="Edit Task"
        width="24rem"
        onClose={closeUnlessBusy}
        footer={
          <>
            <Button variant="danger" onClick={remove} disabled={busy} busy={removing && asking === null}>
              Delete
            </Button>
            <Button variant="secondary" onClick={closeUnlessBusy}>
              Cancel
            </Button>
            <Button type="submit" form={FORM_ID} disabled={busy} busy={saving && asking === null}>
              Save
            </Button>
          </>
        }
      >
        <form id={FORM_ID} onSubmit={save} aria-label="Edit Task" noValidate>
          <TaskFields draft={draft} day={task.date} categories={categories} errors={errors} onChange={change}>
            <MinutesField
              label="Tracked (minutes)"
              min={0}
              hint={isTimerRunning(task) ? 'Changing it stops the running timer.' : undefined}
              value={tracked.value}
              error={tracked.error}
              onChange={(event) => tracked.change(event.target.value)}
            />
          </TaskFields>
        </form>
      </Modal>
      {/* Beside the modal, not in it: its key and click handlers must not see the dialog's events bubble up. */}
      {asking && (
        <SeriesScopeDialog
          action={asking}
          item="task"
          allowThis={asking === 'delete' || !ruleChanged(task, draft)}
          busy={busy}
          onChoose={(scope) => void (asking === 'edit' ? saveEdit(scope) : removeWith(scope))}
          onCancel={() => setAsking(null)}
        />
      )}
    </>
  );
}
