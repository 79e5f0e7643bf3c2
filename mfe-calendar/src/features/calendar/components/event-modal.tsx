import { useState, type FormEvent } from 'react';
import { type ApiError, type Category, TITLE_MAX_LENGTH, useFieldErrors } from '@time-wallet/api';
import { Field, RepeatField, SeriesScopeDialog } from '@time-wallet/shared-ui';
import { addDays, ruleForNewStart, ruleProblems, TITLE_REQUIRED_MESSAGE } from '@time-wallet/shared-ui/lib';
import type { SeriesScope } from '../api/events-api';
import {
  dayOfDraftTime,
  isDraftEndAfterStart,
  lastDayOfDraft,
  withAllDay,
  type EventDraft,
} from '../lib/event-dates';
import { FormDialog } from './form-dialog';
import styles from './event-modal.module.css';

export type EventModalMode = 'create' | 'edit';

export interface EventModalProps {
  mode: EventModalMode;
  /** An edited occurrence of a series carries its series' rule: saving and deleting then ask which occurrences. */
  initialDraft: EventDraft;
  /** The user's categories, offered in the optional Category select. */
  categories: readonly Category[];
  busy: boolean;
  /** Why the last save or delete failed, shown inside the dialog (the page's banner sits behind its backdrop). */
  error?: string | null;
  /** Resolves to the failed call's error (its field messages are shown on the fields), or nothing on success. */
  onSave: (draft: EventDraft, scope?: SeriesScope) => Promise<ApiError | void>;
  /** With the occurrences chosen when the event repeats. */
  onDelete: (scope?: SeriesScope) => void;
  onClose: () => void;
}

const END_BEFORE_START = 'End must be after start';
const EVENT_FIELDS = ['title', 'start', 'end', 'categoryId', 'rrule'] as const;
type EventField = (typeof EVENT_FIELDS)[number];

/** The draft's start as a Date, or null while its input is not a whole date-time. */
function startDateOf(start: string): Date | null {
  const date = new Date(start);
  return Number.isNaN(date.getTime()) ? null : date;
}

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
  // The last start that could be read: the Repeat field words its options from it while the input is half typed.
  const [repeatStart, setRepeatStart] = useState(() => startDateOf(initialDraft.start) ?? new Date());
  const [asking, setAsking] = useState<'edit' | 'delete' | null>(null);
  const { errors, setErrors, clearError, showServerErrors } = useFieldErrors(EVENT_FIELDS);
  const isEditing = mode === 'edit';
  const isRecurring = isEditing && initialDraft.rrule !== '';

  /** A new start (and all-day flag) carries the rule along: 'Weekly on Monday' follows the start to Tuesday. */
  const changeTimes = (next: EventDraft) => {
    const nextStart = startDateOf(next.start);
    if (nextStart) {
      const rrule = ruleForNewStart(next.rrule, repeatStart, nextStart, next.allDay);
      if (nextStart.getTime() !== repeatStart.getTime()) setRepeatStart(nextStart);
      next = { ...next, rrule };
    }
    setDraft(next);
  };

  const change = (field: EventField, value: string) => {
    if (field === 'start') changeTimes({ ...draft, start: value });
    else setDraft((current) => ({ ...current, [field]: value }));
    clearError(field);
    if (field === 'start') clearError('end');
  }; // Each field shows its part of the draft and its error, and writes its part back.
  const bound = (field: Exclude<EventField, 'rrule'>) => ({
    name: field,
    value: draft[field],
    error: errors[field],
    onChange: (event: { target: { value: string } }) => change(field, event.target.value),
  });
  // All-day events are whole days: date inputs, the end shown as the last day although it is kept exclusive.
  const boundDay = (field: 'start' | 'end') => ({
    name: field,
    value: field === 'start' ? dayOfDraftTime(draft.start) : lastDayOfDraft(draft),
    error: errors[field],
    onChange: (event: { target: { value: string } }) => {
      const day = event.target.value;
      if (!day) change(field, '');
      else change(field, `${field === 'start' ? day : addDays(day, 1)}T00:00`);
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const start = startDateOf(draft.start);
    const invalid = {
      title: draft.title.trim() ? undefined : TITLE_REQUIRED_MESSAGE,
      end: isDraftEndAfterStart(draft) ? undefined : END_BEFORE_START,
      rrule: start ? ruleProblems(draft.rrule, start)[0]?.message : undefined,
    };
    setErrors(invalid);
    if (invalid.title || invalid.end || invalid.rrule) return;
    if (isRecurring) setAsking('edit');
    else void save();
  };

  const save = async (scope?: SeriesScope) => {
    setAsking(null);
    const failure = await onSave(draft, scope);
    if (failure) showServerErrors(failure);
  };

  return (
    <>
      <FormDialog
        title={isEditing ? 'Edit Event' : 'New Event'}
        width="26rem"
        error={error}
        busy={busy}
        submitLabel={isEditing ? 'Update Event' : 'Create Event'}
        onSubmit={submit}
        onClose={onClose}
        sideAction={
          isEditing
            ? {
                label: 'Delete',
                variant: 'danger',
                onClick: () => (isRecurring ? setAsking('delete') : onDelete()),
              }
            : undefined
        }
      >
        <Field label="Title" required maxLength={TITLE_MAX_LENGTH} {...bound('title')} />
        <label className={styles.toggle}>
          <input
            type="checkbox"
            name="allDay"
            checked={draft.allDay}
            onChange={(event) => changeTimes(withAllDay(draft, event.target.checked))}
          />
          All day
        </label>
        {draft.allDay ? (
          <>
            <Field label="Start" type="date" required {...boundDay('start')} />
            <Field label="End" type="date" required {...boundDay('end')} />
          </>
        ) : (
          <>
            <Field label="Start" type="datetime-local" required {...bound('start')} />
            <Field label="End" type="datetime-local" required {...bound('end')} />
          </>
        )}
        <RepeatField
          name="rrule"
          value={draft.rrule}
          start={repeatStart}
          allDay={draft.allDay}
          error={errors.rrule}
          onChange={(rrule) => {
            setDraft((current) => ({ ...current, rrule }));
            clearError('rrule');
          }}
        />
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
      {asking && (
        <SeriesScopeDialog
          action={asking}
          item="event"
          // 'This event' cannot take a new rule: the server refuses it, as the calendar apps do not offer it.
          allowThis={asking === 'delete' || draft.rrule === initialDraft.rrule}
          busy={busy}
          onChoose={(scope) => {
            if (asking === 'edit') void save(scope);
            else {
              setAsking(null);
              onDelete(scope);
            }
          }}
          onCancel={() => setAsking(null)}
        />
      )}
    </>
  );
}
