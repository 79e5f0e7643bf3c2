import toast from 'react-hot-toast';
import type { Category } from '@time-wallet/api';
import { useSetTaskDoneMutation } from '../api/tasks-api';
import type { Task } from '../lib/task';
import { TaskRow } from './task-row';
import { AutoStoppedNote, TimerControl } from './timer-control';

/**
 * A row of the day's lists: its checkbox marks the task done at once (a failure puts it back), its timer starts and
 * stops, and double-click or ✎ opens the editor.
 */
export function DayTaskRow({
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
      controls={<TimerControl task={task} />}
      note={<AutoStoppedNote task={task} />}
    />
  );
}
