import { memo, type FormEvent, useRef } from 'react';
import toast from 'react-hot-toast';
import type { Category } from '@time-wallet/api';
import { Button, Card, Hint } from '@time-wallet/shared-ui';
import { useCreateTaskMutation } from '../api/tasks-api';
import { newTaskBody, type TaskDraft } from '../lib/task';
import { TaskFields, useTaskForm } from './task-fields';
import styles from './new-task-form.module.css';

const EMPTY_DRAFT: TaskDraft = {
  title: '',
  categoryId: '',
  startHHMM: '',
  endHHMM: '',
  estimateMinutes: '',
  notes: '',
  rrule: '',
};

/**
 * 'New Task': a task for the day shown (today, the person's local day, unless they chose another), checked before
 * anything is sent; with times it is a block of that day, with only an estimate it waits unscheduled. With a Repeat
 * rule it is a series that starts that day.
 */
export const NewTaskForm = memo(function NewTaskForm({
  day,
  dayName,
  categories,
}: {
  day: string;
  /** The day in words when it is not today, so nobody adds to another day unawares. */
  dayName: string | null;
  categories: readonly Category[];
}) {
  const { draft, setDraft, errors, change, checkDraft, showServerErrors } = useTaskForm(EMPTY_DRAFT, day);
  const titleRef = useRef<HTMLInputElement>(null);
  const [createTask, { isLoading }] = useCreateTaskMutation();

  const addTask = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!checkDraft()) return;
    const result = await createTask(newTaskBody(draft, day));
    if (!result.error) {
      toast.success('Task added successfully!');
      setDraft(EMPTY_DRAFT);
      // Ready for the next task: the button that had focus is about to be re-enabled, the page body is no place.
      titleRef.current?.focus();
    } else if ('status' in result.error && typeof result.error.status === 'number') {
      toast.error(`Failed to add task: ${showServerErrors(result.error) ?? 'Failed to create task'}`);
    } else {
      toast.error('An error occurred while adding the task.');
    }
  };

  return (
    <Card as="section" title="New Task" headingLevel={2}>
      {dayName && <Hint>Adds a task to {dayName}.</Hint>}
      <form className={styles.form} onSubmit={addTask} aria-label="New Task" noValidate>
        <TaskFields
          draft={draft}
          day={day}
          categories={categories}
          errors={errors}
          titleRef={titleRef}
          onChange={change}
        />
        <Button type="submit" className={styles.submit} busy={isLoading} busyLabel="Adding...">
          Add Task
        </Button>
      </form>
    </Card>
  );
});
