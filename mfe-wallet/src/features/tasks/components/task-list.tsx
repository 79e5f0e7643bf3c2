import { memo, useEffect } from 'react';
import type { Category } from '@time-wallet/api';
import { Card, LoadFailure } from '@time-wallet/shared-ui';
import { useGetTasksOfDayQuery } from '../api/tasks-api';
import { useFirstAnswerDeferred } from '../hooks/use-first-answer-deferred';
import type { Task } from '../lib/task';
import { DayTaskRow } from './day-task-row';
import { SkeletonRows, TaskRows } from './task-row';
import styles from './task-list.module.css';

/** 'Task List': the day's scheduled tasks (today's unless another day is shown); double-click a row to edit it. */
export const TaskList = memo(function TaskList({
  day,
  dayName,
  categories,
  onEdit,
}: {
  day: string;
  /** The day in words when it is not today. */
  dayName: string | null;
  categories: readonly Category[];
  onEdit: (task: Task) => void;
}) {
  // The first answer's rows are drawn in slices; until then the list shows its loading state.
  const {
    data: tasks = [],
    isLoading,
    error,
    refetch,
  } = useFirstAnswerDeferred(useGetTasksOfDayQuery({ date: day }));

  useEffect(() => {
    // The spec keeps this failure out of the person's way: logged only.
    if (error) console.error('Failed to load today tasks', error);
  }, [error]);

  return (
    <Card as="section" title="Task List" headingLevel={2}>
      <p className={styles.hint}>Double click a task to edit it.</p>
      <div className={styles.scroller}>
        {tasks.length > 0 ? (
          <TaskRows label={dayName ? `Tasks of ${dayName}` : "Today's tasks"}>
            {tasks.map((task) => (
              <DayTaskRow key={task._id} task={task} day={day} categories={categories} onEdit={onEdit} />
            ))}
          </TaskRows>
        ) : error && !isLoading ? (
          // Never skeletons for a list that did not load: they would pass for one still loading.
          <LoadFailure onRetry={() => void refetch()}>
            {dayName ? "This day's tasks are" : "Today's tasks are"} not available right now.
          </LoadFailure>
        ) : (
          <SkeletonRows still={!isLoading} />
        )}
      </div>
      <p className={styles.status} role="status">
        {isLoading
          ? 'Loading tasks'
          : tasks.length === 0 && !error
            ? `No tasks for ${dayName ? 'this day' : 'today'} yet.`
            : ''}
      </p>
    </Card>
  );
});
