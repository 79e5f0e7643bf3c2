import { useState, type FormEvent } from 'react';
import { Field } from '@time-wallet/shared-ui';
import { endsNextDay } from '@time-wallet/shared-ui/lib';
import type { EntryDraft } from '../lib/tracked-time';
import { EndsNextDayHint } from './ends-next-day-hint';
import { FormDialog } from './form-dialog';
import styles from './task-dialog.module.css';

export type EntryField = 'date' | 'start' | 'end';

export interface EntryDialogProps {
  mode: 'add' | 'edit';
  taskTitle: string;
  initialDraft: EntryDraft;
  /** The entry's timer runs: it has no end yet, and only the timer ends it. */
  running?: boolean;
  busy: boolean;
  /** Why the last save or delete failed, as the server said it (an overlap names the other task). */
  error?: string | null;
  /** The server's messages for the fields it named (an end in the future). */
  fieldErrors?: Partial<Record<EntryField, string>>;
  onSave: (draft: EntryDraft) => void;
  onDelete?: () => void;
  onClose: () => void;
}

const REQUIRED: readonly [keyof EntryDraft, string][] = [
  ['date', 'Pick a day'],
  ['startHHMM', 'Pick a start time'],
  ['endHHMM', 'Pick an end time'],
];
const SAME_START_AND_END = 'The end must be after the start';

/**
 * Tracked time from the keyboard (WCAG 2.2 SC 2.5.7, the bars are dragged with a pointer): a day, a start and an end
 * time; an end earlier than the start ends the next day, and the field says so as it is typed. Edit mode adds
 * Delete, undone from its toast.
 */
export function EntryDialog({
  mode,
  taskTitle,
  initialDraft,
  running = false,
  busy,
  error,
  fieldErrors = {},
  onSave,
  onDelete,
  onClose,
}: EntryDialogProps) {
  const [draft, setDraft] = useState(initialDraft);
  const [errors, setErrors] = useState<Partial<Record<keyof EntryDraft, string>>>({});
  const [edited, setEdited] = useState(new Set<keyof EntryDraft>());

  const change = (field: keyof EntryDraft, value: string) => {
    setDraft((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
    setEdited((current) => new Set(current).add(field));
  };

  // The server's message stays on its field until that field is changed.
  const errorOf = (field: keyof EntryDraft, serverField: EntryField) =>
    errors[field] ?? (edited.has(field) ? undefined : fieldErrors[serverField]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next: typeof errors = {};
    for (const [field, message] of REQUIRED) {
      if (!draft[field] && !(field === 'endHHMM' && running)) next[field] = message;
    }
    if (draft.endHHMM && draft.endHHMM === draft.startHHMM) next.endHHMM = SAME_START_AND_END;
    setErrors(next);
    setEdited(new Set());
    if (Object.keys(next).length === 0) onSave(draft);
  };

  return (
    <FormDialog
      title={mode === 'add' ? 'Add Tracked Time' : 'Edit Tracked Time'}
      width="24rem"
      error={error}
      busy={busy}
      submitLabel="Save"
      onSubmit={submit}
      onClose={onClose}
      sideAction={onDelete ? { label: 'Delete', variant: 'danger', onClick: onDelete } : undefined}
    >
      <p className={styles.taskTitle}>{taskTitle}</p>
      <Field
        label="Day"
        type="date"
        required
        name="date"
        value={draft.date}
        error={errorOf('date', 'date')}
        onChange={(event) => change('date', event.target.value)}
      />
      <Field
        label="Start time"
        type="time"
        required
        name="startHHMM"
        value={draft.startHHMM}
        error={errorOf('startHHMM', 'start')}
        onChange={(event) => change('startHHMM', event.target.value)}
      />
      {running ? (
        <Field
          label="End time"
          type="text"
          name="endHHMM"
          value="Running"
          readOnly
          hint="The timer is running: stop it to end this time."
          error={fieldErrors.end}
        />
      ) : (
        <Field
          label="End time"
          type="time"
          required
          name="endHHMM"
          value={draft.endHHMM}
          error={errorOf('endHHMM', 'end')}
          hint={<EndsNextDayHint nextDay={endsNextDay(draft.startHHMM, draft.endHHMM)} day={draft.date} />}
          onChange={(event) => change('endHHMM', event.target.value)}
        />
      )}
    </FormDialog>
  );
}
