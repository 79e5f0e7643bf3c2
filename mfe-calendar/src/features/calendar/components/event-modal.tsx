import { useState, type FormEvent } from 'react';
import { type ApiError, type Category, TITLE_MAX_LENGTH, useFieldErrors } from '@time-wallet/api';
import { Field } from '@time-wallet/shared-ui';
import { TITLE_REQUIRED_MESSAGE } from '@time-wallet/shared-ui/lib';
import { isDraftEndAfterStart, type EventDraft } from '../lib/event-dates';
import { FormDialog } from './form-dialog';

export type EventModalMode = 'create' | 'edit';

export interface EventModalProps {
  mode: EventModalMode;
  initialDraft: EventDraft;
  /** The user's categories, offered in the optional Category select. */
  categories: readonly Category[];
  busy: boolean;
  /** Why the last save or delete failed, shown inside the dialog (the page's banner sits behind its backdrop). */
  error?: string | null;
  /** Resolves to the failed call's error (its field messages are shown on the fields), or nothing on success. */
  onSave: (draft: EventDraft) => Promise<ApiError | void>;
  onDelete: () => void;
  onClose: () => void;
}

const END_BEFORE_START = 'End must be after start';
const EVENT_FIELDS = ['title', 'start', 'end', 'categoryId'] as const;

/** The 'New Event' / 'Edit Event' dialog; the page decides what saving and deleting mean (key it per event). */
export function EventModal({
  mode,
  initialDraft,
  categories,
  busy,
  error,
  onSave,
  onDelete,
  onClose,
}: EventModalProps) {
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
    <FormDialog
      title={isEditing ? 'Edit Event' : 'New Event'}
      width="26rem"
      error={error}
      busy={busy}
      submitLabel={isEditing ? 'Update Event' : 'Create Event'}
      onSubmit={(event) => void submit(event)}
      onClose={onClose}
      sideAction={isEditing ? { label: 'Delete', variant: 'danger', onClick: onDelete } : undefined}
    >
      <Field label="Title" required maxLength={TITLE_MAX_LENGTH} {...bound('title')} />
      <Field label="Start" type="datetime-local" required {...bound('start')} />
      <Field label="End" type="datetime-local" required {...bound('end')} />
      <Field as="select" label="Category" {...bound('categoryId')}>
        <option value="">No category</option>
        {categories.map((category) => (
          <option key={category._id} value={category._id}>
            {category.name}
          </option>
        ))}
        {/* A category deleted since keeps its place, so saving does not drop it silently. */}
        {draft.categoryId && !categories.some((category) => category._id === draft.categoryId) && (
          <option value={draft.categoryId}>Unknown Category</option>
        )}
      </Field>
    </FormDialog>
  );
}
