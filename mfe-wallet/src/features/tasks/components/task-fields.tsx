import type { Category } from '@time-wallet/api';
import { Field } from '@time-wallet/shared-ui';
import type { TaskDraft } from '../lib/task';
import styles from './task-fields.module.css';

interface TaskFieldsProps {
  draft: TaskDraft;
  onChange: (changes: Partial<TaskDraft>) => void;
  categories: readonly Category[];
  /** Shown under End Time: the times are checked together. */
  timesError: string | null;
  withNotes?: boolean;
}

/** The fields a task is written with, shared by the New Task form and the Edit Task modal. */
export function TaskFields({ draft, onChange, categories, timesError, withNotes = false }: TaskFieldsProps) {
  return (
    <div className={styles.fields}>
      <Field
        label="Title"
        className={styles.wide}
        value={draft.title}
        autoComplete="off"
        onChange={(event) => onChange({ title: event.target.value })}
      />
      <Field
        as="select"
        label="Category"
        className={styles.wide}
        value={draft.categoryId}
        onChange={(event) => onChange({ categoryId: event.target.value })}
      >
        <option value="">No category</option>
        {categories.map((category) => (
          <option key={category._id} value={category._id}>
            {category.name}
          </option>
        ))}
      </Field>
      <Field
        label="Start Time"
        type="time"
        required
        value={draft.startHHMM}
        onChange={(event) => onChange({ startHHMM: event.target.value })}
      />
      <Field
        label="End Time"
        type="time"
        required
        value={draft.endHHMM}
        error={timesError}
        onChange={(event) => onChange({ endHHMM: event.target.value })}
      />
      {withNotes && (
        <Field
          as="textarea"
          label="Notes"
          className={styles.wide}
          value={draft.notes}
          onChange={(event) => onChange({ notes: event.target.value })}
        />
      )}
    </div>
  );
}
