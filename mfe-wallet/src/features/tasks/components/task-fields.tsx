import { lazy, Suspense, useState, type ReactNode, type Ref } from 'react';
import { type Category, type FieldErrors, TITLE_MAX_LENGTH, useFieldErrors } from '@time-wallet/api';
import { Field, RepeatField } from '@time-wallet/shared-ui';
import { endsNextDay } from '@time-wallet/shared-ui/lib';
import {
  MINUTES_PER_DAY,
  minutesTyped,
  NO_CATEGORY,
  repeatStartOf,
  ruleForStart,
  TASK_FIELDS,
  taskDraftErrors,
  type TaskDraft,
  type TaskField,
} from '../lib/task';
import styles from './task-fields.module.css';

const ESTIMATE_HINT = 'With no times, the task goes to Unscheduled.';

// The offer from past estimates loads, with its call, only once an estimate is typed for a task with a category.
const EstimateHint = lazy(() => import('./estimate-hint/estimate-hint'));

interface TaskFieldsProps {
  draft: TaskDraft;
  /** The task's day (YYYY-MM-DD): a series starts on it, and the Repeat field words its options from it. */
  day: string;
  onChange: (changes: Partial<TaskDraft>) => void;
  categories: readonly Category[];
  /** The form's own checks and the server's answer, per field (the times are checked together, under End Time). */
  errors: FieldErrors<TaskField>;
  titleRef?: Ref<HTMLInputElement>;
  /** Further fields, after the estimate (the Edit Task modal's tracked time). */
  children?: ReactNode;
}

/**
 * A task form's state for a task of `day`: the draft, its messages per field (a changed field drops its own; a
 * changed time drops the times' messages), and `checkDraft`, which shows what must be fixed before anything is sent.
 * The repeat rule follows the series' start (the day shown, the start time) as it changes.
 */
export function useTaskForm(initial: TaskDraft, day: string) {
  const [draft, setDraft] = useState(initial);
  const { errors, setErrors, clearError, showServerErrors } = useFieldErrors(TASK_FIELDS);
  // The start the rule was last fitted to; a new one refits it during this render (React's way to adjust state to
  // a change of props or state, without an effect and its extra frame).
  const repeatStart = repeatStartOf(day, draft);
  const [ruleStart, setRuleStart] = useState(repeatStart);
  if (ruleStart.start.getTime() !== repeatStart.start.getTime() || ruleStart.allDay !== repeatStart.allDay) {
    setRuleStart(repeatStart);
    const rrule = ruleForStart(draft.rrule, ruleStart, repeatStart);
    if (rrule !== draft.rrule) setDraft({ ...draft, rrule });
  }
  const change = (changes: Partial<TaskDraft>) => {
    setDraft((current) => ({ ...current, ...changes }));
    for (const field of Object.keys(changes) as TaskField[]) clearError(field);
    if ('startHHMM' in changes) clearError('endHHMM');
    // Times or an estimate: giving either answers 'give one or the other'.
    if ('startHHMM' in changes || 'endHHMM' in changes) clearError('estimateMinutes');
  };
  const checkDraft = (): boolean => {
    const invalid = taskDraftErrors(draft, day);
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
export function TaskFields({
  draft,
  day,
  onChange,
  categories,
  errors,
  titleRef,
  children,
}: TaskFieldsProps) {
  const { start, allDay } = repeatStartOf(day, draft);
  const typedEstimate = minutesTyped(draft.estimateMinutes, 1);
  const category = categories.find((candidate) => candidate._id === draft.categoryId);
  // An estimate taken from the offer is not offered on again (84 would become 118).
  const [takenEstimate, setTakenEstimate] = useState<number | null>(null);
  const offersOn =
    category && typedEstimate !== null && !Number.isNaN(typedEstimate) && typedEstimate !== takenEstimate
      ? typedEstimate
      : null;
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
        hint={endsNextDay(draft.startHHMM, draft.endHHMM) ? 'Ends the next day' : undefined}
        {...bound('endHHMM')}
      />
      <MinutesField label="Estimate (minutes)" min={1} hint={ESTIMATE_HINT} {...bound('estimateMinutes')} />
      <div className={`${styles.wide} ${styles.offerSlot}`} aria-live="polite">
        {category && offersOn !== null && (
          <Suspense fallback={null}>
            <EstimateHint
              categoryId={category._id}
              categoryName={category.name}
              typedMinutes={offersOn}
              onTake={(minutes) => {
                setTakenEstimate(minutes);
                onChange({ estimateMinutes: String(minutes) });
              }}
            />
          </Suspense>
        )}
      </div>
      {children}
      <div className={styles.wide}>
        <RepeatField
          value={draft.rrule}
          start={start}
          allDay={allDay}
          error={errors.rrule}
          onChange={(rrule) => onChange({ rrule })}
        />
      </div>
      <Field as="textarea" label="Notes" className={styles.wide} {...bound('notes')} />
    </div>
  );
}
