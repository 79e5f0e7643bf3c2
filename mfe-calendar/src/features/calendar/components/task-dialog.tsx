import { endsNextDay, formatMinutes } from '@time-wallet/shared-ui/lib';
import { useId, useState, type FormEvent } from 'react';
import type { Task } from '@time-wallet/api';
import { Button, Field, Hint } from '@time-wallet/shared-ui';
import { endHHMMAfter, taskMinutes } from '../lib/task-blocks';
import { FormDialog } from './form-dialog';
import { EndsNextDayHint } from './ends-next-day-hint';
import styles from './task-dialog.module.css';

export interface TaskPlacementDraft {
  date: string;
  startHHMM: string;
  /** The end clock time typed, or '' to keep the task's length (its estimate while unscheduled). */
  endHHMM: string;
}

export interface TaskDialogProps {
  task: Task;
  initialDraft: TaskPlacementDraft;
  busy: boolean;
  /** Why the last change failed, shown inside the dialog. */
  error?: string | null;
  onPlace: (draft: TaskPlacementDraft) => void;
  onUnschedule: () => void;
  /** Opens the tracked time dialog for the task instead (time spent on it, by hand). */
  onAddTracked?: () => void;
  onClose: () => void;
}

const PLACEMENT_FIELDS = [
  { field: 'date', label: 'Day', type: 'date', missing: 'Pick a day' },
  { field: 'startHHMM', label: 'Start time', type: 'time', missing: 'Pick a start time' },
] as const;

const SAME_START_AND_END = 'End time must be after start time';

/**
 * The way to plan a task without dragging (WCAG 2.2 SC 2.5.7): an unscheduled task gets a day and a start time and
 * lasts its estimate; a task on the grid moves to another day or time, keeping its length, or goes back to the list.
 * The end follows the start (the length kept) until an end time is typed; an end earlier than the start ends on the
 * next day, as the server reads it, and the field says so as it is typed.
 */
export function TaskDialog({
  task,
  initialDraft,
  busy,
  error,
  onPlace,
  onUnschedule,
  onAddTracked,
  onClose,
}: TaskDialogProps) {
  const lengthId = useId();
  const [draft, setDraft] = useState(initialDraft);
  const [errors, setErrors] = useState<Partial<Record<keyof TaskPlacementDraft, string>>>({});
  const minutes = taskMinutes(task);
  const isOnGrid = task.scheduled;
  // Until an end is typed, the field shows where the kept length ends.
  const shownEnd = draft.endHHMM || (minutes === null ? '' : endHHMMAfter(draft.startHHMM, minutes));

  const change = (field: keyof TaskPlacementDraft, value: string) => {
    setDraft((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({
      ...current,
      [field]: undefined,
      ...(field === 'startHHMM' ? { endHHMM: undefined } : {}),
    }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const missing = PLACEMENT_FIELDS.filter(({ field }) => !draft[field]);
    const next: typeof errors = Object.fromEntries(
      missing.map(({ field, missing: message }) => [field, message]),
    );
    if (draft.endHHMM && draft.endHHMM === draft.startHHMM) next.endHHMM = SAME_START_AND_END;
    setErrors(next);
    if (Object.keys(next).length === 0) onPlace(draft);
  };

  return (
    <FormDialog
      title={isOnGrid ? 'Move Task' : 'Schedule Task'}
      width="24rem"
      error={error}
      busy={busy}
      submitLabel={isOnGrid ? 'Move' : 'Schedule'}
      onSubmit={submit}
      onClose={onClose}
      sideAction={isOnGrid ? { label: 'Unschedule', variant: 'secondary', onClick: onUnschedule } : undefined}
      describedBy={minutes === null || draft.endHHMM ? undefined : lengthId}
    >
      <p className={styles.taskTitle}>{task.title}</p>
      {/* Until an end is typed: the length the task keeps. */}
      {minutes !== null && !draft.endHHMM && (
        <Hint id={lengthId}>
          {isOnGrid
            ? `Keeps its length: ${formatMinutes(minutes)}.`
            : `Lasts its estimate: ${formatMinutes(minutes)}.`}
        </Hint>
      )}
      {PLACEMENT_FIELDS.map(({ field, label, type }) => (
        <Field
          key={field}
          label={label}
          type={type}
          required
          name={field}
          value={draft[field]}
          error={errors[field]}
          onChange={(event) => change(field, event.target.value)}
        />
      ))}
      <Field
        label="End time"
        type="time"
        name="endHHMM"
        value={shownEnd}
        error={errors.endHHMM}
        hint={<EndsNextDayHint nextDay={endsNextDay(draft.startHHMM, shownEnd)} day={draft.date} />}
        onChange={(event) => change('endHHMM', event.target.value)}
      />
      {onAddTracked && (
        <Button variant="ghost" className={styles.addTracked} onClick={onAddTracked}>
          Add tracked time…
        </Button>
      )}
    </FormDialog>
  );
}
