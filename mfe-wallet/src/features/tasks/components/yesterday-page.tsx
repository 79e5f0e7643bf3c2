import { pageText } from '@time-wallet/api/page-text';
import { useEffect, useState } from 'react';
import { toastUndoableDelete, useGetCategoriesQuery } from '@time-wallet/api';
import { Button, Card, LoadFailure, Page } from '@time-wallet/shared-ui';
import { addDays } from '@time-wallet/shared-ui/lib';
import { Mascot } from '../../../components/mascot/mascot';
import { useLocalDate } from '../../../lib/use-local-date';
import {
  useGetTasksOfDayQuery,
  usePutBackTasksMutation,
  useSetTasksDismissedMutation,
} from '../api/tasks-api';
import type { Task } from '../lib/task';
import { SkeletonRows, TaskRow, TaskRows } from './task-row';
import styles from './yesterday-page.module.css';

/** The page's heading and subtitle, one fact in the registry (the shell prerenders them too). */
const TEXT = pageText('yesterday');

/** What the toast says after Delete puts tasks aside, and after its Undo brings them back. */
function putAsideToast(tasks: readonly Task[]) {
  return tasks.length === 1
    ? { message: `Task "${tasks[0].title}" put aside`, restoredMessage: 'Task restored' }
    : { message: `${tasks.length} tasks put aside`, restoredMessage: 'Tasks restored' };
}

/** 'Pick Up Where You Left Off': yesterday's undone tasks, to put back into today or dismiss. */
export function YesterdayPage() {
  const today = useLocalDate();
  const yesterday = addDays(today, -1);
  const { data: categories = [] } = useGetCategoriesQuery();
  const {
    data: pendingTasks = [],
    isLoading,
    error,
    refetch,
  } = useGetTasksOfDayQuery({
    date: yesterday,
    pendingOnly: true,
  });
  const [selectedIds, setSelectedIds] = useState<ReadonlySet<string>>(new Set());
  const [putBackTasks, puttingBack] = usePutBackTasksMutation();
  const [setTasksDismissed, dismissing] = useSetTasksDismissedMutation();

  useEffect(() => {
    // The spec keeps these failures out of the person's way: logged only.
    if (error) console.error('Failed to load tasks', error);
  }, [error]);

  const selectedTasks = pendingTasks.filter((task) => selectedIds.has(task._id));
  const busy = puttingBack.isLoading || dismissing.isLoading;

  const toggleSelected = (id: string) =>
    setSelectedIds((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const putBack = async () => {
    const result = await putBackTasks({ tasks: selectedTasks, today });
    // A failure keeps the selection, so the person can try again without picking everything anew.
    if (result.error) console.error('Failed to put back tasks', result.error);
    else setSelectedIds(new Set());
  };

  /** Delete puts the tasks aside at once; the toast's Undo brings them back, as after every delete. */
  const dismiss = async () => {
    const tasks = selectedTasks;
    const result = await setTasksDismissed({ tasks, dismissed: true });
    if (result.error) {
      console.error('Failed to delete pending tasks', result.error);
      return;
    }
    setSelectedIds(new Set());
    toastUndoableDelete({
      ...putAsideToast(tasks),
      undo: () => setTasksDismissed({ tasks, dismissed: false }),
    });
  };

  return (
    <Page titleId="yesterday-page-title" title={TEXT.heading} subtitle={TEXT.subtitle}>
      <Card as="section" title="Pending Tasks" headingLevel={2}>
        {isLoading ? (
          <div className={styles.scroller}>
            <SkeletonRows />
            <p className={styles.status} role="status">
              Loading tasks
            </p>
          </div>
        ) : error && pendingTasks.length === 0 ? (
          // Never 'Well done' for a list that did not load.
          <LoadFailure onRetry={() => void refetch()}>
            Yesterday&apos;s tasks are not available right now.
          </LoadFailure>
        ) : pendingTasks.length === 0 ? (
          <div className={styles.empty}>
            <Mascot mood="sleepy" size={96} />
            <p className={styles.emptyText}>No pending tasks. Well done.</p>
          </div>
        ) : (
          <>
            <div className={styles.scroller}>
              <TaskRows label="Yesterday's pending tasks">
                {pendingTasks.map((task) => (
                  <TaskRow
                    key={task._id}
                    task={task}
                    categories={categories}
                    clock="12h"
                    checked={selectedIds.has(task._id)}
                    onCheckedChange={() => toggleSelected(task._id)}
                    checkboxLabel={`Select ${task.title}`}
                  />
                ))}
              </TaskRows>
            </div>
            <div className={styles.actions}>
              <Button
                onClick={putBack}
                disabled={selectedTasks.length === 0 || busy}
                busy={puttingBack.isLoading}
              >
                Put Back
              </Button>
              <Button
                variant="danger"
                onClick={dismiss}
                disabled={selectedTasks.length === 0 || busy}
                busy={dismissing.isLoading}
              >
                Delete
              </Button>
              <span className={styles.selection} aria-live="polite">
                {selectedTasks.length === 0
                  ? 'Select tasks to put back or delete.'
                  : `${selectedTasks.length} selected`}
              </span>
            </div>
          </>
        )}
      </Card>
    </Page>
  );
}
