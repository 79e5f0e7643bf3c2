import { useState, type Ref } from 'react';
import { type Category, type FieldErrors, TITLE_MAX_LENGTH, useFieldErrors } from '@time-wallet/api';
import { Field } from '@time-wallet/shared-ui';
import {
  endsNextDay,
  NO_CATEGORY,
  TASK_FIELDS,
  taskDraftErrors,
  type TaskDraft,
  type TaskField,
} from '../lib/task';
import styles from './task-fields.module.css';

interface TaskFieldsProps {
  draft: TaskDraft;
  onChange: (changes: Partial<TaskDraft>) => void;
  categories: readonly Category[];
  /** The form's own checks and the server's answer, per field (the times are checked together, under End Time). */
  errors: FieldErrors<TaskField>;
  titleRef?: Ref<HTMLInputElement>;
}

/**
 * A task form's state: the draft, its messages per field (a changed field drops its own; a changed start drops the
 * times' message under End Time), and `checkDraft`, which shows what must be fixed before anything is sent.
 */
export function useTaskForm(initial: TaskDraft) {
  const [draft, setDraft] = useState(initial);
  const { errors, setErrors, clearError, showServerErrors } = useFieldErrors(TASK_FIELDS);
  const change = (changes: Partial<TaskDraft>) => {
    setDraft((current) => ({ ...current, ...changes }));
    for (const field of Object.keys(changes) as TaskField[]) clearError(field);
    if ('startHHMM' in changes) clearError('endHHMM');
  };
  const checkDraft = (): boolean => {
    const invalid = taskDraftErrors(draft);
    setErrors(invalid);
    return Object.keys(invalid).length === 0;
  };
  return { draft, setDraft, errors, change, checkDraft, showServerErrors };
}

/** The fields a task is written with, shared by the New Task form and the Edit Task modal. */
export function TaskFields({ draft, onChange, categories, errors, titleRef }: TaskFieldsProps) {
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
      <Field label="Start Time" type="time" required {...bound('startHHMM')} />
      <Field
        label="End Time"
        type="time"
        required
        hint={endsNextDay(draft) ? 'Ends the next day' : undefined}
        {...bound('endHHMM')}
      />
      <Field as="textarea" label="Notes" className={styles.wide} {...bound('notes')} />
    </div>
  );
}
