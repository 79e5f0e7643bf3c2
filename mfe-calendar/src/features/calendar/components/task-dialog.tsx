import { formatMinutes } from '@time-wallet/shared-ui/lib';
import { useId, useState, type FormEvent } from 'react';
import type { Task } from '@time-wallet/api';
import { Field, Hint } from '@time-wallet/shared-ui';
import { taskMinutes } from '../lib/task-blocks';
import { FormDialog } from './form-dialog';
import styles from './task-dialog.module.css';

export interface TaskPlacementDraft {
  date: string;
  startHHMM: string;
}

export interface TaskDialogProps {
  task: Task;
  initialDraft: TaskPlacementDraft;
  busy: boolean;
  /** Why the last change failed, shown inside the dialog. */
  error?: string | null;
  onPlace: (draft: TaskPlacementDraft) => void;
  onUnschedule: () => void;
  onClose: () => void;
}

const PLACEMENT_FIELDS = [
  { field: 'date', label: 'Day', type: 'date', missing: 'Pick a day' },
  { field: 'startHHMM', label: 'Start time', type: 'time', missing: 'Pick a start time' },
] as const;

/**
 * The way to plan a task without dragging (WCAG 2.2 SC 2.5.7): an unscheduled task gets a day and a start time and
 * lasts its estimate; a task on the grid moves to another day or time, keeping its length, or goes back to the list.
 */
export function TaskDialog({
  task,
  initialDraft,
  busy,
  error,
  onPlace,
  onUnschedule,
  onClose,
}: TaskDialogProps) {
  const lengthId = useId();
  const [draft, setDraft] = useState(initialDraft);
  const [errors, setErrors] = useState<Partial<Record<keyof TaskPlacementDraft, string>>>({});
  const minutes = taskMinutes(task);
  const isOnGrid = task.scheduled;

  const change = (field: keyof TaskPlacementDraft, value: string) => {
    setDraft((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const missing = PLACEMENT_FIELDS.filter(({ field }) => !draft[field]);
    setErrors(Object.fromEntries(missing.map(({ field, missing: message }) => [field, message])));
    if (missing.length === 0) onPlace(draft);
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
      describedBy={minutes === null ? undefined : lengthId}
    >
      <p className={styles.taskTitle}>{task.title}</p>
      {minutes !== null && (
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
    </FormDialog>
  );
}
