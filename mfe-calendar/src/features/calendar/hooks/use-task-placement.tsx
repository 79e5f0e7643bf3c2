import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import toast from 'react-hot-toast';
import {
  fieldErrorsOf,
  usePlaceTaskMutation,
  type ApiError,
  type Task,
  type TaskPlacement,
} from '@time-wallet/api';
import { SeriesScopeDialog } from '@time-wallet/shared-ui';
import { toLocalDateKey } from '@time-wallet/shared-ui/lib';
import { usePlaceTaskOccurrencesMutation, type TaskSeriesScope } from '../api/task-series-api';
import { initialPlacementOf, placementAt } from '../lib/task-blocks';
import { TaskDialog, type TaskPlacementDraft } from '../components/task-dialog';

type DialogState = { taskId: string; draft: TaskPlacementDraft; key: number };

function dayAndTimeText(date: string, startHHMM: string): string {
  const [year, month, day] = date.split('-').map(Number);
  const dayText = new Date(year, month - 1, day).toLocaleDateString('en-US', {
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
  tasksById: ReadonlyMap<string, Task>;
  visibleDays: readonly string[];
  /** Where focus goes after a task is placed on the grid, or taken off it, from the dialog. */
  gridRef: RefObject<HTMLElement | null>;
  panelRef: RefObject<HTMLElement | null>;
}

/** What a placement came to: placed, refused by the server, or called off in the scope question. */
type PlacementOutcome = { error?: ApiError; cancelled?: true };

/**
 * Placing tasks on the timeline: by a drop on the grid (a refused one goes back, with a toast), or with the keyboard
 * dialog, which says where the task went and takes focus there, since its opener leaves or moves with the task.
 * An occurrence of a repeating task first asks which occurrences move, as a repeating event's block does; Cancel
 * puts the block back.
 */
export function useTaskPlacement({ tasksById, visibleDays, gridRef, panelRef }: TaskPlacementOptions) {
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

  const place = useCallback(
    async (placement: TaskPlacement): Promise<PlacementOutcome> => {
      if (!tasksById.get(placement.id)?.seriesId) return placeTask(placement);
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
        return await placeOccurrences({ placement, scope });
      } finally {
        setScopeAnswer(null);
      }
    },
    [placeTask, placeOccurrences, tasksById],
  );

  const placeFromGrid = useCallback(
    async (placement: TaskPlacement) => {
      const result = await place(placement);
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
    const result = await place(placement);
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
        onPlace={({ date, startHHMM }) => {
          const where = dayAndTimeText(date, startHHMM);
          void change(
            placementAt(task, date, startHHMM),
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
    taskDialog: (
      <>
        {taskDialog}
        {scopeDialog}
      </>
    ),
  };
}
