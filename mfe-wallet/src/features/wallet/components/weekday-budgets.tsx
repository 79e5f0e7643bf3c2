import { useId } from 'react';
import { Field, Fieldset } from '@time-wallet/shared-ui';
import { MAX_BUDGET_HOURS, WEEKDAYS } from '../lib/budget';
import styles from './budget-form.module.css';

/** Seven budgets, Sunday to Saturday, each 0 to 24 hours; `error` is the server's word on them together. */
export function WeekdayBudgets({
  values,
  errors,
  error,
  onChange,
}: {
  values: readonly string[];
  errors: readonly (string | null)[];
  error: string | null;
  onChange: (index: number, value: string) => void;
}) {
  const errorId = useId();
  return (
    <Fieldset
      legend="Budget per weekday (hours)"
      bodyClassName={styles.weekdays}
      aria-describedby={error ? errorId : undefined}
    >
      {WEEKDAYS.map((weekday, index) => (
        <Field
          key={weekday}
          label={weekday}
          type="number"
          inputMode="decimal"
          min={0}
          max={MAX_BUDGET_HOURS}
          step={0.5}
          value={values[index]}
          error={errors[index]}
          onChange={(event) => onChange(index, event.target.value)}
        />
      ))}
      {error && (
        <p id={errorId} className={styles.error} role="alert">
          {error}
        </p>
      )}
    </Fieldset>
  );
}
