import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { fieldErrorsOf, userUpdated, useAppDispatch } from '@time-wallet/api';
import { Button, Field } from '@time-wallet/shared-ui';
import { budgetHoursError, MAX_BUDGET_HOURS, weekdayBudgetsOf } from '../lib/budget';
import { useUpdateBudgetMutation, type BudgetChange } from '../api/wallet-api';
import { WeekdayBudgets } from './weekday-budgets';
import styles from './budget-form.module.css';

const SAVE_FAILED = 'Failed to update budget hours.';

/**
 * Changes the signed-in person's own budget: one for every day, or a different one per weekday (switched off, the one
 * budget applies again). Only hours from 0 to 24 reach the server; its refusal is shown where it applies.
 */
export function BudgetForm({
  budgetHours,
  budgetHoursByWeekday,
  onDone,
}: {
  budgetHours: number;
  budgetHoursByWeekday: readonly number[] | null;
  onDone: () => void;
}) {
  const [value, setValue] = useState(String(budgetHours));
  const [error, setError] = useState<string | null>(null);
  const [perWeekday, setPerWeekday] = useState(budgetHoursByWeekday !== null);
  const [weekdays, setWeekdays] = useState(() => weekdayBudgetsOf(budgetHours, budgetHoursByWeekday));
  const [weekdayErrors, setWeekdayErrors] = useState<(string | null)[]>([]);
  const [weekdaysError, setWeekdaysError] = useState<string | null>(null);
  const [updateBudget, { isLoading }] = useUpdateBudgetMutation();
  const dispatch = useAppDispatch();

  const checkedChange = (): BudgetChange | null => {
    if (perWeekday) {
      const invalid = weekdays.map(budgetHoursError);
      setWeekdayErrors(invalid);
      return invalid.some(Boolean) ? null : { budgetHoursByWeekday: weekdays.map(Number) };
    }
    const invalid = budgetHoursError(value);
    setError(invalid);
    return invalid ? null : { budgetHours: Number(value), budgetHoursByWeekday: null };
  };

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const change = checkedChange();
    if (!change) return;
    const result = await updateBudget(change);
    if (result.error) {
      const { fieldErrors, message } = fieldErrorsOf(result.error, ['budgetHours', 'budgetHoursByWeekday']);
      if (perWeekday) setWeekdaysError(fieldErrors.budgetHoursByWeekday ?? message ?? SAVE_FAILED);
      else setError(fieldErrors.budgetHours ?? message ?? SAVE_FAILED);
      return;
    }
    dispatch(userUpdated(result.data));
    toast.success(perWeekday ? 'Budgets per weekday saved.' : 'Daily budget saved.');
    onDone();
  };

  return (
    <form className={styles.form} onSubmit={save} noValidate aria-label="Daily budget">
      {!perWeekday && (
        <Field
          label="Daily budget (hours)"
          type="number"
          inputMode="decimal"
          min={0}
          max={MAX_BUDGET_HOURS}
          step={0.5}
          value={value}
          error={error}
          onChange={(event) => {
            setValue(event.target.value);
            setError(null);
          }}
        />
      )}
      <label className={styles.toggle}>
        <input
          type="checkbox"
          checked={perWeekday}
          onChange={(event) => {
            setPerWeekday(event.target.checked);
            setWeekdaysError(null);
          }}
        />
        Different budget per weekday
      </label>
      {perWeekday && (
        <WeekdayBudgets
          values={weekdays}
          errors={weekdayErrors}
          error={weekdaysError}
          onChange={(index, typed) => {
            setWeekdays((current) => current.map((old, at) => (at === index ? typed : old)));
            setWeekdayErrors((current) => current.map((old, at) => (at === index ? null : old)));
            setWeekdaysError(null);
          }}
        />
      )}
      <div className={styles.actions}>
        <Button type="submit" busy={isLoading} busyLabel="Saving...">
          Save
        </Button>
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
