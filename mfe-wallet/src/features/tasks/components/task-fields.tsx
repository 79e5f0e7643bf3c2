import { useState, type ReactNode, type Ref } from 'react';
import { type Category, type FieldErrors, TITLE_MAX_LENGTH, useFieldErrors } from '@time-wallet/api';
import { Field } from '@time-wallet/shared-ui';
import {
  endsNextDay,
  MINUTES_PER_DAY,
  NO_CATEGORY,
  TASK_FIELDS,
  taskDraftErrors,
  type TaskDraft,
  type TaskField,
} from '../lib/task';
import styles from './task-fields.module.css';

const ESTIMATE_HINT = 'With no times, the task goes to Unscheduled.';

interface TaskFieldsProps {
  draft: TaskDraft;
  onChange: (changes: Partial<TaskDraft>) => void;
  categories: readonly Category[];
  /** The form's own checks and the server's answer, per field (the times are checked together, under End Time). */
  errors: FieldErrors<TaskField>;
  titleRef?: Ref<HTMLInputElement>;
  /** Further fields, after the estimate (the Edit Task modal's tracked time). */
  children?: ReactNode;
}

/**
 * A task form's state: the draft, its messages per field (a changed field drops its own; a changed time drops the
 * times' messages), and `checkDraft`, which shows what must be fixed before anything is sent.
 */
export function useTaskForm(initial: TaskDraft) {
  const [draft, setDraft] = useState(initial);
  const { errors, setErrors, clearError, showServerErrors } = useFieldErrors(TASK_FIELDS);
  const change = (changes: Partial<TaskDraft>) => {
    setDraft((current) => ({ ...current, ...changes }));
    for (const field of Object.keys(changes) as TaskField[]) clearError(field);
    if ('startHHMM' in changes) clearError('endHHMM');
    // Times or an estimate: giving either answers 'give one or the other'.
    if ('startHHMM' in changes || 'endHHMM' in changes) clearError('estimateMinutes');
  };
  const checkDraft = (): boolean => {
    const invalid = taskDraftErrors(draft);
    setErrors(invalid);
    return Object.keys(invalid).length === 0;
  };
  return { draft, setDraft, errors, change, checkDraft, showServerErrors };
}

/** Whole minutes typed, from `min` to a day (1440). */
export function MinutesField(props: {
  label: string;
  min: number;
  hint?: string;
  value: string;
  error?: string | null;
  onChange: (event: { target: { value: string } }) => void;
}) {
  return <Field type="number" inputMode="numeric" max={MINUTES_PER_DAY} step={1} {...props} />;
}

/** The fields a task is written with, shared by the New Task form and the Edit Task modal. */
export function TaskFields({ draft, onChange, categories, errors, titleRef, children }: TaskFieldsProps) {
  // Each field shows its part of the draft and its error, and writes its part back.
  const bound = (field: TaskField) => ({
    value: draft[field],
    error: errors[field],
    onChange: (event: { target: { value: string } }) => onChange({ [field]: event.target.value }),
  });
  return (
    <div className={styles.fields}>
      <Field
        ref={titleRef}
        label="Title"
        className={styles.wide}
        maxLength={TITLE_MAX_LENGTH}
        autoComplete="off"
        {...bound('title')}
      />
      <Field as="select" label="Category" className={styles.wide} {...bound('categoryId')}>
        <option value="">{NO_CATEGORY}</option>
        {categories.map((category) => (
          <option key={category._id} value={category._id}>
            {category.name}
          </option>
        ))}
      </Field>
      <Field label="Start Time" type="time" {...bound('startHHMM')} />
      <Field
        label="End Time"
        type="time"
        hint={endsNextDay(draft) ? 'Ends the next day' : undefined}
        {...bound('endHHMM')}
      />
      <MinutesField label="Estimate (minutes)" min={1} hint={ESTIMATE_HINT} {...bound('estimateMinutes')} />
      {children}
      <Field as="textarea" label="Notes" className={styles.wide} {...bound('notes')} />
    </div>
  );
}
