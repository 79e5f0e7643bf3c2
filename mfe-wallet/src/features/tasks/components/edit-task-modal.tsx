import type { FormEvent } from 'react';
import toast from 'react-hot-toast';
import { type Category, toastUndoableDelete } from '@time-wallet/api';
import { Button, Modal } from '@time-wallet/shared-ui';
import { useDeleteTaskMutation, useEditTaskMutation, useRestoreTaskMutation } from '../api/tasks-api';
import { clockTimesOf, instantsOf, type Task } from '../lib/task';
import { TaskFields, useTaskForm } from './task-fields';

const FORM_ID = 'edit-task-form';

/** 'Edit Task': closes on Save or Delete success, Cancel, Escape or a click on the backdrop. */
export function EditTaskModal({
  task,
  categories,
  onClose,
}: {
  task: Task;
  categories: readonly Category[];
  onClose: () => void;
}) {
  const clock = clockTimesOf(task);
  const { draft, errors, change, checkDraft, showServerErrors } = useTaskForm({
    title: task.title,
    categoryId: task.categoryId,
    startHHMM: clock.start,
    endHHMM: clock.end,
    notes: task.notes,
  });
  const [editTask, editing] = useEditTaskMutation();
  const [deleteTask, deleting] = useDeleteTaskMutation();
  const [restoreTask] = useRestoreTaskMutation();
  const busy = editing.isLoading || deleting.isLoading;

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!checkDraft()) return;
    const result = await editTask({
      id: task._id,
      edit: { ...draft, date: task.date, ...instantsOf(task.date, draft) },
    });
    if (result.error) {
      showServerErrors(result.error);
      toast.error('Failed to update task.');
    } else onClose();
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
          <Button type="submit" form={FORM_ID} disabled={busy} busy={editing.isLoading}>
            Save
          </Button>
        </>
      }
    >
      <form id={FORM_ID} onSubmit={save} aria-label="Edit Task" noValidate>
        <TaskFields draft={draft} categories={categories} errors={errors} onChange={change} />
      </form>
    </Modal>
  );
}
