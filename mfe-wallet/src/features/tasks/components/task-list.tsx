import { useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import type { Category } from '@time-wallet/api';
import { Card, IconButton, Skeleton } from '@time-wallet/shared-ui';
import { useGetTasksOfDayQuery, useSetTaskDoneMutation } from '../api/tasks-api';
import { clockTimesOf, type Task } from '../lib/task';
import { CategoryName } from './category-name';
import { EditTaskModal } from './edit-task-modal';
import styles from './task-list.module.css';

export function SkeletonRows() {
  return (
    <ul className={styles.list} aria-hidden="true">
      {[0, 1].map((row) => (
        <li key={row} className={styles.row}>
          <Skeleton width="1.125rem" height="1.125rem" />
          <span className={styles.main}>
            <Skeleton width="60%" height="1.25rem" />
            <Skeleton width="35%" height="0.875rem" />
          </span>
          <Skeleton width="6.5rem" height="1rem" />
        </li>
      ))}
    </ul>
  );
}

function TaskRow({
  task,
  categories,
  onEdit,
}: {
  task: Task;
  categories: readonly Category[];
  onEdit: (task: Task) => void;
}) {
  const [setTaskDone] = useSetTaskDoneMutation();
  const clock = clockTimesOf(task);
  const toggle = async () => {
    const result = await setTaskDone({ task, done: !task.done });
    if (result.error) toast.error('Failed to toggle task done status.');
  };

  return (
    <li className={styles.row} onDoubleClick={() => onEdit(task)}>
      <input
        type="checkbox"
        className={styles.checkbox}
        checked={task.done}
        onChange={toggle}
        aria-label={`${task.title} done`}
      />
      <span className={styles.main}>
        <span className={task.done ? `${styles.title} ${styles.done}` : styles.title}>{task.title}</span>
        <CategoryName task={task} categories={categories} />
      </span>
      <span className={styles.times}>
        <time dateTime={task.start}>{clock.start}</time>
        {' – '}
        <time dateTime={task.end}>{clock.end}</time>
      </span>
      <IconButton label={`Edit ${task.title}`} className={styles.edit} onClick={() => onEdit(task)}>
        ✎
      </IconButton>
    </li>
  );
}

/** 'Task List': today's tasks; double-click a row (or its Edit button) to edit it. */
export function TaskList({ today, categories }: { today: string; categories: readonly Category[] }) {
  const { data: tasks = [], isLoading, error } = useGetTasksOfDayQuery({ date: today });
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
          <ul className={styles.list} aria-label="Today's tasks">
            {tasks.map((task) => (
              <TaskRow key={task._id} task={task} categories={categories} onEdit={setEditing} />
            ))}
          </ul>
        ) : (
          <SkeletonRows />
        )}
      </div>
      <p className={styles.status} role="status">
        {isLoading
          ? 'Loading tasks'
          : tasks.length === 0
            ? error
              ? "Today's tasks are not available right now."
              : 'No tasks for today yet.'
            : ''}
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
