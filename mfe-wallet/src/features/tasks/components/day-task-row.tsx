import toast from 'react-hot-toast';
import type { Category } from '@time-wallet/api';
import { useSetTaskDoneMutation } from '../api/tasks-api';
import type { Task } from '../lib/task';
import { TaskRow } from './task-row';
import { AutoStoppedNote, TimerControl } from './timer-control';

/**
 * A row of the day's lists: its checkbox marks the task done at once (a failure puts it back), its timer starts and
 * stops, and double-click or ✎ opens the editor. A task put aside from Yesterday says so and never shows as done
 * (older clients sent done: true with it); it has no timer, which the server refuses it.
 */
export function DayTaskRow({
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
      controls={task.dismissed ? undefined : <TimerControl task={task} day={day} />}
      note={<AutoStoppedNote task={task} />}
    />
  );
}
