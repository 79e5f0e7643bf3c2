import { useId, useState, type FormEvent } from 'react';
import { type ApiError, TITLE_MAX_LENGTH, useFieldErrors } from '@time-wallet/api';
import { Banner, Button, Field, Modal } from '@time-wallet/shared-ui';
import { TITLE_REQUIRED_MESSAGE } from '@time-wallet/shared-ui/lib';
import { isDraftEndAfterStart, type EventDraft } from '../lib/event-dates';
import styles from './event-modal.module.css';

export type EventModalMode = 'create' | 'edit';

export interface EventModalProps {
  mode: EventModalMode;
  initialDraft: EventDraft;
  busy: boolean;
  /** Why the last save or delete failed, shown inside the dialog (the page's banner sits behind its backdrop). */
  error?: string | null;
  /** Resolves to the failed call's error (its field messages are shown on the fields), or nothing on success. */
  onSave: (draft: EventDraft) => Promise<ApiError | void>;
  onDelete: () => void;
  onClose: () => void;
}

const END_BEFORE_START = 'End must be after start';
const EVENT_FIELDS = ['title', 'start', 'end'] as const;

/** The 'New Event' / 'Edit Event' dialog; the page decides what saving and deleting mean (key it per event). */
export function EventModal({ mode, initialDraft, busy, error, onSave, onDelete, onClose }: EventModalProps) {
  const formId = useId();
  const [draft, setDraft] = useState(initialDraft);
  const { errors, setErrors, clearError, showServerErrors } = useFieldErrors(EVENT_FIELDS);

  const change = (field: (typeof EVENT_FIELDS)[number], value: string) => {
    setDraft((current) => ({ ...current, [field]: value }));
    clearError(field);
    if (field === 'start') clearError('end');
  }; // Each field shows its part of the draft and its error, and writes its part back.
  const bound = (field: (typeof EVENT_FIELDS)[number]) => ({
    name: field,
    value: draft[field],
    error: errors[field],
    onChange: (event: { target: { value: string } }) => change(field, event.target.value),
  });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const invalid = {
      title: draft.title.trim() ? undefined : TITLE_REQUIRED_MESSAGE,
      end: isDraftEndAfterStart(draft) ? undefined : END_BEFORE_START,
    };
    setErrors(invalid);
    if (invalid.title || invalid.end) return;
    const failure = await onSave(draft);
    if (failure) showServerErrors(failure);
  };

  const isEditing = mode === 'edit';
  return (
    <Modal
      open
      title={isEditing ? 'Edit Event' : 'New Event'}
      onClose={onClose}
      width="26rem"
      footer={
        <div className={styles.actions}>
          {isEditing && (
            <Button variant="danger" className={styles.delete} onClick={onDelete} disabled={busy}>
              Delete
            </Button>
          )}
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={formId} busy={busy}>
            {isEditing ? 'Update Event' : 'Create Event'}
          </Button>
        </div>
      }
    >
      <form id={formId} className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        {error && <Banner tone="error">{error}</Banner>}
        <Field label="Title" required maxLength={TITLE_MAX_LENGTH} {...bound('title')} />
        <Field label="Start" type="datetime-local" required {...bound('start')} />
        <Field label="End" type="datetime-local" required {...bound('end')} />
      </form>
    </Modal>
  );
}
