import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import {
  fieldErrorsOf,
  type Category,
  toastUndoableDelete,
  useSetTrackedMinutesMutation,
} from '@time-wallet/api';
import { Button, Modal } from '@time-wallet/shared-ui';
import { useDeleteTaskMutation, useEditTaskMutation, useRestoreTaskMutation } from '../api/tasks-api';
import { draftOf, minutesTyped, taskEditBody, TRACKED_MESSAGE, type Task } from '../lib/task';
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

/**
 * 'Edit Task': the task's fields, its estimate (clearing both times moves it to Unscheduled) and its tracked time.
 * Closes on Save or Delete success, Cancel, Escape or a click on the backdrop.
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
  const { draft, errors, change, checkDraft, showServerErrors } = useTaskForm(draftOf(task));
  const tracked = useTrackedField(task);
  const [editTask, editing] = useEditTaskMutation();
  const [setTrackedMinutes, correcting] = useSetTrackedMinutesMutation();
  const [deleteTask, deleting] = useDeleteTaskMutation();
  const [restoreTask] = useRestoreTaskMutation();
  const saving = editing.isLoading || correcting.isLoading;
  const busy = saving || deleting.isLoading;

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const draftValid = checkDraft();
    if (Number.isNaN(tracked.correction)) tracked.setError(TRACKED_MESSAGE);
    if (!draftValid || Number.isNaN(tracked.correction)) return;
    const edited = await editTask({ id: task._id, edit: taskEditBody(task, draft) });
    if (edited.error) {
      showServerErrors(edited.error);
      toast.error('Failed to update task.');
      return;
    }
    if (tracked.correction !== null) {
      const corrected = await setTrackedMinutes({ id: task._id, trackedMinutes: tracked.correction });
      if (corrected.error) {
        const { fieldErrors, message } = fieldErrorsOf(corrected.error, ['trackedMinutes']);
        tracked.setError(fieldErrors.trackedMinutes ?? message ?? 'Failed to correct the tracked time.');
        toast.error('Failed to update task.');
        return;
      }
    }
    onClose();
  };

  const remove = async () => {
    const result = await deleteTask(task._id);
    if (result.error) {
      toast.error('Failed to delete task.');
      return;
    }
    onClose();
    toastUndoableDelete({
      message: `Task "${task.title}" deleted`,
      undo: () => restoreTask(task._id),
      restoredMessage: 'Task restored',
    });
  };

  // Closing while a save runs would throw away the edits if it then fails.
  const closeUnlessBusy = () => {
    if (!busy) onClose();
  };

  return (
    <Modal
      open
      title="Edit Task"
      width="24rem"
      onClose={closeUnlessBusy}
      footer={
        <>
          <Button variant="danger" onClick={remove} disabled={busy} busy={deleting.isLoading}>
            Delete
          </Button>
          <Button variant="secondary" onClick={closeUnlessBusy}>
            Cancel
          </Button>
          <Button type="submit" form={FORM_ID} disabled={busy} busy={saving}>
            Save
          </Button>
        </>
      }
    >
      <form id={FORM_ID} onSubmit={save} aria-label="Edit Task" noValidate>
        <TaskFields draft={draft} categories={categories} errors={errors} onChange={change}>
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
  );
}
