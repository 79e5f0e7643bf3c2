import { lazy, memo, Suspense, useId, useState } from 'react';
import toast from 'react-hot-toast';
import type { Category } from '@time-wallet/api';
import { Button, VisuallyHidden } from '@time-wallet/shared-ui';
import { useSetTaskDoneMutation } from '../api/tasks-api';
import type { Task } from '../lib/task';
import { TaskRow } from './task-row';
import { AutoStoppedNote, TimerControl } from './timer-control';
import styles from './task-row.module.css';

// The entries editor is not needed for the page's first screen: its code loads when a row opens it.
const TimeEntriesPanel = lazy(() => import('./time-entries/time-entries-panel'));

/**
 * A row of the day's lists: its checkbox marks the task done at once (a failure puts it back), its timer starts and
 * stops, and double-click or ✎ opens the editor. A task put aside from Yesterday says so and never shows as done
 * (older clients sent done: true with it); it has no timer, which the server refuses it.
 */
export const DayTaskRow = memo(function DayTaskRow({
  task,
  day,
  categories,
  onEdit,
}: {
  task: Task;
  /** The day shown, whose entries the row reads. */
  day: string;
  categories: readonly Category[];
  onEdit: (task: Task) => void;
}) {
  const [setTaskDone, pending] = useSetTaskDoneMutation();
  const [showEntries, setShowEntries] = useState(false);
  const entriesId = useId();
  // While the change is on its way the box shows what was asked: a list refetch that started before it (another
  // change's) must not flip it back in the meantime. Afterwards the list, refetched, says what the server holds.
  const done =
    !task.dismissed && (pending.isLoading && pending.originalArgs ? pending.originalArgs.done : task.done);
  const toggle = async () => {
    const result = await setTaskDone({ task, done: !done });
    if (result.error) toast.error('Failed to toggle task done status.');
  };
  return (
    <TaskRow
      task={task}
      categories={categories}
      clock="24h"
      checked={done}
      onCheckedChange={() => void toggle()}
      checkboxLabel={`${task.title} done`}
      checkboxDisabled={task.dismissed}
      struck={done}
      showNotes
      onEdit={onEdit}
      controls={
        <>
          {!task.dismissed && <TimerControl task={task} day={day} />}
          <Button
            variant="ghost"
            className={styles.entriesToggle}
            aria-expanded={showEntries}
            aria-controls={showEntries ? entriesId : undefined}
            onClick={() => setShowEntries((shown) => !shown)}
          >
            Entries<VisuallyHidden> of {task.title}</VisuallyHidden>
          </Button>
        </>
      }
      note={<AutoStoppedNote task={task} />}
      details={
        showEntries && (
          <Suspense fallback={<p className={styles.notes}>Loading time entries</p>}>
            <TimeEntriesPanel task={task} day={day} id={entriesId} />
          </Suspense>
        )
      }
    />
  );
});
