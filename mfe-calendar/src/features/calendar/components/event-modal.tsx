import { useId, useState, type FormEvent } from 'react';
import { Banner, Button, Field, Modal } from '@time-wallet/shared-ui';
import { isDraftEndAfterStart, type EventDraft } from '../lib/event-dates';
import styles from './event-modal.module.css';

export type EventModalMode = 'create' | 'edit';

export interface EventModalProps {
  mode: EventModalMode;
  initialDraft: EventDraft;
  busy: boolean;
  /** Why the last save or delete failed, shown inside the dialog (the page's banner sits behind its backdrop). */
  error?: string | null;
  onSave: (draft: EventDraft) => void;
  onDelete: () => void;
  onClose: () => void;
}

const END_BEFORE_START = 'End must be after start';

/** The 'New Event' / 'Edit Event' dialog; the page decides what saving and deleting mean (key it per event). */
export function EventModal({ mode, initialDraft, busy, error, onSave, onDelete, onClose }: EventModalProps) {
  const formId = useId();
  const [draft, setDraft] = useState(initialDraft);
  const [endError, setEndError] = useState<string | null>(null);

  const change = (field: 'title' | 'start' | 'end', value: string) => {
    setDraft((current) => ({ ...current, [field]: value }));
    if (field !== 'title') setEndError(null);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!isDraftEndAfterStart(draft)) {
      setEndError(END_BEFORE_START);
      return;
    }
    onSave(draft);
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
      <form id={formId} className={styles.form} onSubmit={submit}>
        {error && <Banner tone="error">{error}</Banner>}
        <Field
          label="Title"
          name="title"
          required
          maxLength={1000}
          value={draft.title}
          onChange={(event) => change('title', event.target.value)}
        />
        <Field
          label="Start"
          type="datetime-local"
          name="start"
          required
          value={draft.start}
          onChange={(event) => change('start', event.target.value)}
        />
        <Field
          label="End"
          type="datetime-local"
          name="end"
          required
          value={draft.end}
          error={endError}
          onChange={(event) => change('end', event.target.value)}
        />
      </form>
    </Modal>
  );
}
