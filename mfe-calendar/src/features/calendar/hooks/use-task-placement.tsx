import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import toast from 'react-hot-toast';
import {
  fieldErrorsOf,
  usePlaceTaskMutation,
  type ApiError,
  type Task,
  type TaskPlacement,
} from '@time-wallet/api';
import { SeriesScopeDialog } from '@time-wallet/shared-ui';
import { formatDate, toLocalDateKey } from '@time-wallet/shared-ui/lib';
import { usePlaceTaskOccurrencesMutation, type TaskSeriesScope } from '../api/task-series-api';
import { initialPlacementOf, placementAt } from '../lib/task-blocks';
import { TaskDialog, type TaskPlacementDraft } from '../components/task-dialog';

type DialogState = { taskId: string; draft: TaskPlacementDraft; key: number };

function dayAndTimeText(date: string, startHHMM: string): string {
  const [year, month, day] = date.split('-').map(Number);
  const dayText = formatDate(new Date(year, month - 1, day), 'en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
  });
  return `${dayText} at ${startHHMM}`;
}

/** The server's reason for a refusal it explains (not a 5xx), as a sentence. */
const reasonOf = (error: ApiError) => fieldErrorsOf(error, []).message;

/** What a refused drop says: what failed, the server's reason when it gives one, and where the task is now. */
function placementFailureText(placement: TaskPlacement, title: string, error: ApiError): string {
  const reason = reasonOf(error);
  const because = reason ? ` ${reason.replace(/\.?$/, '.')}` : '';
  if ('unschedule' in placement) return `Could not unschedule "${title}".${because} It is back on the grid.`;
  if ('start' in placement && !placement.end) {
    return `Could not schedule "${title}".${because} It is back in the Unscheduled list.`;
  }
  return `Could not move "${title}".${because} It is back where it was.`;
}

interface TaskPlacementOptions {
  /** The visible range's tasks, as last read. */
  tasks: readonly Task[];
  /** When the last finished read of those tasks was sent (undefined while one is under way). */
  tasksReadAt: number | undefined;
  visibleDays: readonly string[];
  /** Where focus goes after a task is placed on the grid, or taken off it, from the dialog. */
  gridRef: RefObject<HTMLElement | null>;
  panelRef: RefObject<HTMLElement | null>;
  /** "Add tracked time" in the task dialog: it closes, and the tracked time dialog opens for the task. */
  onAddTracked?: (task: Task) => void;
}

/** What a placement came to: placed, refused by the server, or called off in the scope question. */
type PlacementOutcome = { error?: ApiError; cancelled?: true };

/** A task being moved between the Unscheduled list and the grid: which way, and when it was sent once saved. */
type Crossing = { toList: boolean; sentAt?: number };

/** The crossings not yet read back: `crossings` itself when none has ended. */
function openCrossings(
  crossings: ReadonlyMap<string, Crossing>,
  tasksById: ReadonlyMap<string, Task>,
  tasksReadAt: number | undefined,
): ReadonlyMap<string, Crossing> {
  const open = [...crossings].filter(([id, { toList, sentAt }]) => {
    const task = tasksById.get(id);
    const readAfterSave = sentAt !== undefined && tasksReadAt !== undefined && tasksReadAt >= sentAt;
    return task !== undefined && task.scheduled === toList && !readAfterSave;
  });
  return open.length === crossings.size ? crossings : new Map(open);
}

/**
 * The tasks as they will be read back once the crossings are saved, for the grid and for the list. A task taken off
 * the grid is unscheduled in both at once. One dropped on the grid has left the list, and is not changed for the grid,
 * where FullCalendar has drawn the dropped block already (the grid replaces that copy once the task is read back).
 */
function crossedTasks(tasks: readonly Task[], crossings: ReadonlyMap<string, Crossing>) {
  if (crossings.size === 0) return { gridTasks: tasks, panelTasks: tasks };
  const gridTasks = tasks.map((task) =>
    crossings.get(task._id)?.toList ? { ...task, scheduled: false } : task,
  );
  const panelTasks = gridTasks.filter((task) => crossings.get(task._id)?.toList !== false);
  return { gridTasks, panelTasks };
}

/**
 * Placing tasks on the timeline: by a drop on the grid (a refused one goes back, with a toast), or with the keyboard
 * dialog, which says where the task went and takes focus there, since its opener leaves or moves with the task.
 * An occurrence of a repeating task first asks which occurrences move, as a repeating event's block does; Cancel
 * puts the block back.
 */
export function useTaskPlacement({
  tasks,
  tasksReadAt,
  visibleDays,
  gridRef,
  panelRef,
  onAddTracked,
}: TaskPlacementOptions) {
  const tasksById = useMemo(() => new Map(tasks.map((task) => [task._id, task])), [tasks]);
  const [placeTask, placeState] = usePlaceTaskMutation();
  const [placeOccurrences, occurrencesState] = usePlaceTaskOccurrencesMutation();
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [scopeAnswer, setScopeAnswer] = useState<((scope: TaskSeriesScope | null) => void) | null>(null);
  const busy = placeState.isLoading || occurrencesState.isLoading;

  // The question's answer still awaited: a new question, or the page leaving, answers it with Cancel, so no drop
  // waits for ever with its block pinned where it was let go.
  const pendingAnswer = useRef<((scope: TaskSeriesScope | null) => void) | null>(null);
  useEffect(() => () => pendingAnswer.current?.(null), []);

  // A task dropped on the grid (or scheduled from the list) leaves the list as its block appears, not when the tasks
  // are read again after the save: a list that still offers it would show it twice, and offer it to place again.
  // A task dropped on the list leaves the grid as it appears in the list, in the same way.
  const [crossings, setCrossings] = useState<ReadonlyMap<string, Crossing>>(new Map());
  const updateCrossing = useCallback((id: string, crossing: Crossing | null) => {
    setCrossings((current) => {
      const next = new Map(current);
      if (crossing) next.set(id, crossing);
      else next.delete(id);
      return next;
    });
  }, []);
  // Each ends once the tasks read show it where it went, or once a read sent after the saved change shows it anywhere
  // (a change made elsewhere meanwhile): a crossing never hides a task for longer than one read. Checked as the page
  // renders (React's way to adjust state to new props), so no frame shows a crossing that has ended.
  const [checked, setChecked] = useState({ crossings, tasksById, tasksReadAt });
  if (
    checked.crossings !== crossings ||
    checked.tasksById !== tasksById ||
    checked.tasksReadAt !== tasksReadAt
  ) {
    const open = openCrossings(crossings, tasksById, tasksReadAt);
    setChecked({ crossings: open, tasksById, tasksReadAt });
    if (open !== crossings) setCrossings(open);
  }
  const { gridTasks, panelTasks } = useMemo(() => crossedTasks(tasks, crossings), [tasks, crossings]);

  // A drop crosses at once, as its block is already drawn; the dialog's task once saved, so that a refusal leaves
  // the dialog's opener where it was.
  const save = useCallback(
    async (
      placement: TaskPlacement,
      send: () => Promise<PlacementOutcome>,
      fromGrid: boolean,
    ): Promise<PlacementOutcome> => {
      const task = tasksById.get(placement.id);
      const toList = 'unschedule' in placement;
      const crosses = task !== undefined && task.scheduled === toList;
      if (crosses && fromGrid) updateCrossing(placement.id, { toList });
      const sentAt = Date.now();
      const result = await send();
      if (crosses) updateCrossing(placement.id, result.error ? null : { toList, sentAt });
      return result;
    },
    [tasksById, updateCrossing],
  );

  const place = useCallback(
    async (placement: TaskPlacement, fromGrid: boolean): Promise<PlacementOutcome> => {
      if (!tasksById.get(placement.id)?.seriesId)
        return save(placement, () => placeTask(placement), fromGrid);
      pendingAnswer.current?.(null);
      const scope = await new Promise<TaskSeriesScope | null>((resolve) => {
        pendingAnswer.current = resolve;
        setScopeAnswer(() => resolve);
      });
      pendingAnswer.current = null;
      if (!scope) {
        setScopeAnswer(null);
        return { cancelled: true };
      }
      // The question stays up, busy, until the move is saved: its focus goes back to an opener that can take it.
      try {
        return await save(placement, () => placeOccurrences({ placement, scope }), fromGrid);
      } finally {
        setScopeAnswer(null);
      }
    },
    [placeTask, placeOccurrences, tasksById, save],
  );

  const placeFromGrid = useCallback(
    async (placement: TaskPlacement) => {
      const result = await place(placement, true);
      if (result.cancelled) return false;
      if (!result.error) return true;
      const title = tasksById.get(placement.id)?.title ?? 'the task';
      toast.error(placementFailureText(placement, title, result.error), { id: `place-${placement.id}` });
      return false;
    },
    [place, tasksById],
  );

  const openTask = (taskId: string) => {
    const task = tasksById.get(taskId);
    if (!task) return;
    const today = toLocalDateKey();
    const defaultDay = visibleDays.includes(today) ? today : (visibleDays[0] ?? today);
    setDialogError(null);
    setDialog({ taskId, draft: initialPlacementOf(task, defaultDay), key: Date.now() });
  };

  // Moved once the dialog has given focus back to its opener, which the change removes or moves.
  const focusAfterDialog = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (dialog || !focusAfterDialog.current) return;
    focusAfterDialog.current.focus();
    focusAfterDialog.current = null;
  }, [dialog]);

  const task = dialog ? tasksById.get(dialog.taskId) : undefined;

  const change = async (
    placement: TaskPlacement,
    failure: string,
    success: string,
    focus: HTMLElement | null,
  ) => {
    if (!dialog) return;
    const { key } = dialog;
    const result = await place(placement, false);
    if (result.cancelled) return;
    if (result.error) {
      const reason = reasonOf(result.error);
      setDialogError(reason ? `${failure}: ${reason}` : failure);
      return;
    }
    focusAfterDialog.current = focus;
    // A late answer closes only the dialog it belongs to.
    setDialog((current) => (current?.key === key ? null : current));
    toast.success(success);
  };

  const taskDialog =
    dialog && task ? (
      <TaskDialog
        key={dialog.key}
        task={task}
        initialDraft={dialog.draft}
        busy={busy}
        error={dialogError}
        onPlace={({ date, startHHMM, endHHMM }) => {
          const where = dayAndTimeText(date, startHHMM);
          void change(
            // An end typed sets the length (before the start: the next day); else the task keeps its length.
            endHHMM ? { id: task._id, date, startHHMM, endHHMM } : placementAt(task, date, startHHMM),
            task.scheduled ? 'Failed to move task' : 'Failed to schedule task',
            task.scheduled ? `"${task.title}" moved to ${where}` : `"${task.title}" scheduled on ${where}`,
            gridRef.current,
          );
        }}
        onUnschedule={() =>
          void change(
            { id: task._id, unschedule: true },
            'Failed to unschedule task',
            `"${task.title}" is unscheduled`,
            panelRef.current,
          )
        }
        onAddTracked={
          onAddTracked &&
          (() => {
            if (busy) return;
            setDialog(null);
            onAddTracked(task);
          })
        }
        onClose={() => {
          if (!busy) setDialog(null);
        }}
      />
    ) : null;

  const scopeDialog = scopeAnswer ? (
    <SeriesScopeDialog
      action="move"
      item="task"
      busy={occurrencesState.isLoading}
      onChoose={scopeAnswer}
      onCancel={() => scopeAnswer(null)}
    />
  ) : null;

  return {
    placeFromGrid,
    openTask,
    gridTasks,
    panelTasks,
    taskDialog: (
      <>
        {taskDialog}
        {scopeDialog}
      </>
    ),
  };
}
