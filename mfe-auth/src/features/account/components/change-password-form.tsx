import { useId, useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { selectCurrentUser, useAppSelector } from '@time-wallet/api';
import { Button, Card, Field } from '@time-wallet/shared-ui';
import { validatePassword } from '../../../lib/account-rules';
import { NEW_PASSWORD_HINT } from '../../../lib/new-password-hint';
import { useChangePasswordMutation } from '../api/password-api';
import { passwordChangeFailureFrom } from '../lib/password-change-failure';
import styles from './change-password-form.module.css';

const EMPTY_FORM = { currentPassword: '', newPassword: '', confirmation: '' };
type PasswordForm = typeof EMPTY_FORM;
type FormField = keyof PasswordForm;
type FormErrors = Partial<Record<FormField, string>>;

const FIELD_ORDER: readonly FormField[] = ['currentPassword', 'newPassword', 'confirmation'];
const SUCCESS_FALLBACK = 'Your password has been changed. Other sessions were signed out.';

/** The same rules as registration for the new one; the current one only has to be there. */
function clientErrorsOf(form: PasswordForm): FormErrors {
  const errors: FormErrors = {};
  if (!form.currentPassword) errors.currentPassword = 'Please enter your current password';
  const newPasswordProblem = validatePassword(form.newPassword);
  if (newPasswordProblem) errors.newPassword = newPasswordProblem;
  if (form.confirmation !== form.newPassword) errors.confirmation = 'The passwords do not match';
  return errors;
}

export function ChangePasswordForm() {
  const titleId = useId();
  const user = useAppSelector(selectCurrentUser);
  const [form, setForm] = useState(EMPTY_FORM);
  const [errors, setErrors] = useState<FormErrors>({});
  const [attempted, setAttempted] = useState(false);
  const [changePassword, { isLoading }] = useChangePasswordMutation();
  const formRef = useRef<HTMLFormElement>(null);

  const focusFirstProblem = (problems: FormErrors) => {
    const first = FIELD_ORDER.find((field) => problems[field]);
    const input = first ? formRef.current?.elements.namedItem(first) : null;
    if (input instanceof HTMLInputElement) input.focus();
  };

  const edit = (field: FormField, value: string) => {
    const next = { ...form, [field]: value };
    setForm(next);
    setErrors((current) => {
      // Before a save was tried only the hints show; after it, the edited field follows the rules as it is typed,
      // and so does the confirmation, which depends on the new password.
      if (!attempted) return { ...current, [field]: undefined };
      const rules = clientErrorsOf(next);
      return {
        ...current,
        [field]: rules[field],
        ...(field === 'currentPassword' ? {} : { confirmation: rules.confirmation }),
      };
    });
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (isLoading) return;
    setAttempted(true);
    const problems = clientErrorsOf(form);
    setErrors(problems);
    if (Object.keys(problems).length > 0) {
      focusFirstProblem(problems);
      return;
    }
    const result = await changePassword({
      currentPassword: form.currentPassword,
      newPassword: form.newPassword,
    });
    if ('error' in result) {
      const failure = passwordChangeFailureFrom(result.error);
      setErrors(failure.fieldErrors);
      // A message shown on its field is not repeated in a toast; focus takes the reader there instead.
      if (Object.keys(failure.fieldErrors).length > 0) focusFirstProblem(failure.fieldErrors);
      else toast.error(failure.general);
      return;
    }
    toast.success(result.data?.message || SUCCESS_FALLBACK);
    setForm(EMPTY_FORM);
    setErrors({});
    setAttempted(false);
  }

  const fieldProps = (field: FormField) => ({
    name: field,
    type: 'password',
    value: form[field],
    error: errors[field],
    onChange: (event: { target: { value: string } }) => edit(field, event.target.value),
  });

  return (
    <Card
      as="section"
      headingLevel={2}
      title={<span id={titleId}>Change password</span>}
      aria-labelledby={titleId}
    >
      <form ref={formRef} className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        {/* Lets password managers know whose password changes; never shown. */}
        <input
          type="text"
          name="username"
          autoComplete="username"
          value={user?.username ?? ''}
          readOnly
          hidden
        />
        <Field label="Current password" autoComplete="current-password" {...fieldProps('currentPassword')} />
        <Field
          label="New password"
          autoComplete="new-password"
          hint={NEW_PASSWORD_HINT}
          {...fieldProps('newPassword')}
        />
        <Field label="Confirm new password" autoComplete="new-password" {...fieldProps('confirmation')} />
        <div className={styles.actions}>
          <Button type="submit" busy={isLoading} busyLabel="Changing password...">
            Change password
          </Button>
        </div>
      </form>
    </Card>
  );
}
