import { useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import type { Category } from '@time-wallet/api';
import { Card, LoadFailure } from '@time-wallet/shared-ui';
import { useGetTasksOfDayQuery, useSetTaskDoneMutation } from '../api/tasks-api';
import type { Task } from '../lib/task';
import { EditTaskModal } from './edit-task-modal';
import { SkeletonRows, TaskRow, TaskRows } from './task-row';
import styles from './task-list.module.css';

/** A row of Today's list: its checkbox marks the task done at once (a failure puts it back). */
function TodayRow({
  task,
  categories,
  onEdit,
}: {
  task: Task;
  categories: readonly Category[];
  onEdit: (task: Task) => void;
}) {
  const [setTaskDone] = useSetTaskDoneMutation();
  const toggle = async () => {
    const result = await setTaskDone({ task, done: !task.done });
    if (result.error) toast.error('Failed to toggle task done status.');
  };
  return (
    <TaskRow
      task={task}
      categories={categories}
      clock="24h"
      checked={task.done}
      onCheckedChange={() => void toggle()}
      checkboxLabel={`${task.title} done`}
      struck={task.done}
      showNotes
      onEdit={onEdit}
    />
  );
}

/** 'Task List': today's tasks; double-click a row (or its Edit button) to edit it. */
export function TaskList({ today, categories }: { today: string; categories: readonly Category[] }) {
  const { data: tasks = [], isLoading, error, refetch } = useGetTasksOfDayQuery({ date: today });
  const [editing, setEditing] = useState<Task | null>(null);

  useEffect(() => {
    // The spec keeps this failure out of the person's way: logged only.
    if (error) console.error('Failed to load today tasks', error);
  }, [error]);

  return (
    <Card as="section" title="Task List" headingLevel={2}>
      <p className={styles.hint}>Double click a task to edit it.</p>
      <div className={styles.scroller}>
        {tasks.length > 0 ? (
          <TaskRows label="Today's tasks">
            {tasks.map((task) => (
              <TodayRow key={task._id} task={task} categories={categories} onEdit={setEditing} />
            ))}
          </TaskRows>
        ) : error && !isLoading ? (
          // Never skeletons for a list that did not load: they would pass for one still loading.
          <LoadFailure onRetry={() => void refetch()}>
            Today&apos;s tasks are not available right now.
          </LoadFailure>
        ) : (
          <SkeletonRows still={!isLoading} />
        )}
      </div>
      <p className={styles.status} role="status">
        {isLoading ? 'Loading tasks' : tasks.length === 0 && !error ? 'No tasks for today yet.' : ''}
      </p>
      {editing && (
        <EditTaskModal
          key={editing._id}
          task={editing}
          categories={categories}
          onClose={() => setEditing(null)}
        />
      )}
    </Card>
  );
}
