import { useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import type { Category } from '@time-wallet/api';
import { Card, IconButton, LoadFailure, Skeleton } from '@time-wallet/shared-ui';
import { useGetTasksOfDayQuery, useSetTaskDoneMutation } from '../api/tasks-api';
import { clockTimesOf, endsNextDay, type Task } from '../lib/task';
import { CategoryName } from './category-name';
import { EditTaskModal } from './edit-task-modal';
import styles from './task-list.module.css';

/** SPEC's two skeleton rows: shimmering while a list loads, still when they only hold the place of an empty one. */
export function SkeletonRows({ still = false }: { still?: boolean }) {
  return (
    <ul className={styles.list} aria-hidden="true">
      {[0, 1].map((row) => (
        <li key={row} className={styles.row}>
          <Skeleton width="1.125rem" height="1.125rem" still={still} />
          <span className={styles.main}>
            <Skeleton width="60%" height="1.25rem" still={still} />
            <Skeleton width="35%" height="0.875rem" still={still} />
          </span>
          <Skeleton width="6.5rem" height="1rem" still={still} />
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
        {task.notes && (
          <span className={styles.notes} title={task.notes}>
            {task.notes}
          </span>
        )}
      </span>
      <span className={styles.times}>
        <time dateTime={task.start}>{clock.start}</time>
        {' – '}
        <time dateTime={task.end}>{clock.end}</time>
        {endsNextDay({ startHHMM: clock.start, endHHMM: clock.end }) && (
          <abbr className={styles.nextDay} title="ends the next day">
            {' +1'}
          </abbr>
        )}
      </span>
      <IconButton label={`Edit ${task.title}`} className={styles.edit} onClick={() => onEdit(task)}>
        ✎
      </IconButton>
    </li>
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
          <ul className={styles.list} aria-label="Today's tasks">
            {tasks.map((task) => (
              <TaskRow key={task._id} task={task} categories={categories} onEdit={setEditing} />
            ))}
          </ul>
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
