import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { type Category, serverMessageOf } from '@time-wallet/api';
import { Button, Card } from '@time-wallet/shared-ui';
import { useCreateTaskMutation } from '../api/tasks-api';
import { taskTimesError, type TaskDraft } from '../lib/task';
import { TaskFields } from './task-fields';
import styles from './new-task-form.module.css';

const EMPTY_DRAFT: TaskDraft = { title: '', categoryId: '', startHHMM: '', endHHMM: '', notes: '' };

/** 'New Task': a task for today (the person's local day), checked before anything is sent. */
export function NewTaskForm({ today, categories }: { today: string; categories: readonly Category[] }) {
  const [draft, setDraft] = useState(EMPTY_DRAFT);
  const [timesError, setTimesError] = useState<string | null>(null);
  const [createTask, { isLoading }] = useCreateTaskMutation();

  const addTask = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const invalidTimes = taskTimesError(draft);
    setTimesError(invalidTimes);
    if (invalidTimes) return;
    const result = await createTask({
      ...draft,
      date: today,
      isEvent: false,
      isReminder: false,
      carryover: false,
    });
    if (!result.error) {
      toast.success('Task added successfully!');
      setDraft(EMPTY_DRAFT);
    } else if ('status' in result.error && typeof result.error.status === 'number') {
      toast.error(`Failed to add task: ${serverMessageOf(result.error, 'Failed to create task')}`);
    } else {
      toast.error('An error occurred while adding the task.');
    }
  };

  return (
    <Card as="section" title="New Task" headingLevel={2}>
      <form className={styles.form} onSubmit={addTask} aria-label="New Task">
        <TaskFields
          draft={draft}
          categories={categories}
          timesError={timesError}
          withNotes
          onChange={(changes) => {
            setDraft((current) => ({ ...current, ...changes }));
            setTimesError(null);
          }}
        />
        <Button type="submit" className={styles.submit} busy={isLoading} busyLabel="Adding...">
          Add Task
        </Button>
      </form>
    </Card>
  );
}
