import { memo, useEffect } from 'react';
import type { Category } from '@time-wallet/api';
import { Card, EmptyState, Hint, LoadFailure } from '@time-wallet/shared-ui';
import { useGetTasksOfDayQuery } from '../api/tasks-api';
import { useFirstAnswerDeferred } from '../hooks/use-first-answer-deferred';
import type { Task } from '../lib/task';
import { DayTaskRow } from './day-task-row';
import { SkeletonRows, TaskRows } from './task-row';
import styles from './task-list.module.css';

/**
 * 'Unscheduled': the day's tasks with an estimate and no times yet. They cost no planned hours; giving one times
 * (Edit) puts it on the day.
 */
export const UnscheduledList = memo(function UnscheduledList({
  day,
  categories,
  onEdit,
}: {
  day: string;
  categories: readonly Category[];
  onEdit: (task: Task) => void;
}) {
  // The first answer's rows are drawn in slices, as the Task List's are.
  const {
    data: tasks = [],
    isLoading,
    error,
    refetch,
  } = useFirstAnswerDeferred(useGetTasksOfDayQuery({ date: day, unscheduled: true }));

  useEffect(() => {
    if (error) console.error('Failed to load unscheduled tasks', error);
  }, [error]);

  return (
    <Card as="section" title="Unscheduled" headingLevel={2}>
      <Hint>
        Tasks with an estimate and no times yet: they cost no planned hours until you give them times.
      </Hint>
      <div className={styles.scroller}>
        {tasks.length > 0 ? (
          <TaskRows label="Unscheduled tasks">
            {tasks.map((task) => (
              <DayTaskRow key={task._id} task={task} day={day} categories={categories} onEdit={onEdit} />
            ))}
          </TaskRows>
        ) : isLoading ? (
          <SkeletonRows />
        ) : error ? (
          <LoadFailure onRetry={() => void refetch()}>
            Unscheduled tasks are not available right now.
          </LoadFailure>
        ) : (
          <EmptyState>No unscheduled tasks. Add one with an estimate and no times.</EmptyState>
        )}
      </div>
      <p className={styles.status} role="status">
        {isLoading ? 'Loading unscheduled tasks' : ''}
      </p>
    </Card>
  );
});
