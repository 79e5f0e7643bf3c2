import { useState, type FormEvent, type Ref } from 'react';
import { type ApiError, fieldErrorsOf, type FieldErrors } from '@time-wallet/api';
import { Button, Field } from '@time-wallet/shared-ui';
import { endsNextDay } from '@time-wallet/shared-ui/lib';
import { ENTRY_FIELDS, entryDraftErrors, type EntryDraft, type EntryField } from '../../lib/entries';
import styles from './time-entries.module.css';

const SAVE_FAILED = 'The time entry could not be saved. Try again.';

/**
 * Start and end clock times of an entry, checked before anything is sent; the server's refusal (an overlap with
 * another entry, an end in the future) is shown where it applies, or under the fields when it names none.
 * `onSubmit` answers the call's error, or nothing once saved.
 */
export function EntryForm({
  label,
  initial,
  submitLabel,
  startRef,
  onSubmit,
  onCancel,
}: {
  label: string;
  initial: EntryDraft;
  submitLabel: string;
  startRef?: Ref<HTMLInputElement>;
  onSubmit: (draft: EntryDraft) => Promise<ApiError | null>;
  onCancel?: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors<EntryField>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const change = (field: EntryField, value: string) => {
    setDraft((current) => ({ ...current, [field]: value }));
    // The times are checked together, under End.
    setErrors({});
    setMessage(null);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const invalid = entryDraftErrors(draft);
    setErrors(invalid);
    setMessage(null);
    if (Object.keys(invalid).length > 0) return;
    setBusy(true);
    const error = await onSubmit(draft);
    setBusy(false);
    if (!error) {
      setDraft(initial);
      return;
    }
    const { fieldErrors, message: said } = fieldErrorsOf(error, ENTRY_FIELDS);
    setErrors(fieldErrors);
    setMessage(Object.keys(fieldErrors).length > 0 ? null : (said ?? SAVE_FAILED));
  };

  return (
    <form className={styles.form} aria-label={label} onSubmit={(event) => void submit(event)} noValidate>
      <Field
        ref={startRef}
        label="Start"
        type="time"
        className={styles.time}
        value={draft.start}
        error={errors.start}
        onChange={(event) => change('start', event.target.value)}
      />
      <Field
        label="End"
        type="time"
        className={styles.time}
        value={draft.end}
        error={errors.end}
        hint={endsNextDay(draft.start, draft.end) ? 'Ends the next day' : undefined}
        onChange={(event) => change('end', event.target.value)}
      />
      <div className={styles.formActions}>
        <Button type="submit" variant="secondary" busy={busy}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button variant="ghost" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        )}
      </div>
      {message && (
        <p className={styles.error} role="alert">
          {message}
        </p>
      )}
    </form>
  );
}
