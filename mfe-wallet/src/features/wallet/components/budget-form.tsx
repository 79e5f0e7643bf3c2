import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { fieldErrorsOf, userUpdated, useAppDispatch } from '@time-wallet/api';
import { Button, Field } from '@time-wallet/shared-ui';
import { budgetHoursError } from '../lib/budget';
import { useUpdateBudgetHoursMutation } from '../api/wallet-api';
import styles from './budget-form.module.css';

/** Changes the signed-in person's own daily budget; only hours from 0 to 24 reach the server. */
export function BudgetForm({ budgetHours, onDone }: { budgetHours: number; onDone: () => void }) {
  const [value, setValue] = useState(String(budgetHours));
  const [error, setError] = useState<string | null>(null);
  const [updateBudgetHours, { isLoading }] = useUpdateBudgetHoursMutation();
  const dispatch = useAppDispatch();

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const invalid = budgetHoursError(value);
    if (invalid) {
      setError(invalid);
      return;
    }
    const result = await updateBudgetHours(Number(value));
    if (result.error) {
      const { fieldErrors, message } = fieldErrorsOf(result.error, ['budgetHours']);
      setError(fieldErrors.budgetHours ?? message ?? 'Failed to update budget hours.');
      return;
    }
    dispatch(userUpdated(result.data));
    toast.success('Daily budget saved.');
    onDone();
  };

  return (
    <form className={styles.form} onSubmit={save} noValidate aria-label="Daily budget">
      <Field
        label="Daily budget (hours)"
        type="number"
        inputMode="decimal"
        min={0}
        max={24}
        step={0.5}
        value={value}
        error={error}
        onChange={(event) => {
          setValue(event.target.value);
          setError(null);
        }}
      />
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
