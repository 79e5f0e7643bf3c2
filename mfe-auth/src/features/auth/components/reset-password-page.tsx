import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from '@time-wallet/api/router';
import { fieldErrorsOf, isNetworkError, serverMessageOf } from '@time-wallet/api';
import { Banner, Button } from '@time-wallet/shared-ui';
import { validatePassword } from '../../../lib/account-rules';
import { TextFields, type TextFieldSpec } from '../../../lib/form-fields';
import { useResetPasswordMutation } from '../api/auth-api';
import { AuthCard } from './auth-card';
import styles from './auth-card.module.css';

type NewPasswordField = 'password' | 'confirmation';

const NEW_PASSWORD_FIELDS: readonly TextFieldSpec<NewPasswordField>[] = [
  { field: 'password', label: 'New password', type: 'password', autoComplete: 'new-password' },
  { field: 'confirmation', label: 'Confirm new password', type: 'password', autoComplete: 'new-password' },
];

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [form, setForm] = useState({ password: '', confirmation: '' });
  const { password, confirmation } = form;
  const [errors, setErrors] = useState<{ password?: string; confirmation?: string; general?: string }>({});
  const [done, setDone] = useState(false);
  const [resetPassword, { isLoading }] = useResetPasswordMutation();
  const edit = (field: NewPasswordField) => (value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    setErrors({});
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const passwordProblem = validatePassword(password);
    if (passwordProblem) {
      setErrors({ password: passwordProblem });
      return;
    }
    if (confirmation !== password) {
      setErrors({ confirmation: 'The passwords do not match' });
      return;
    }
    const result = await resetPassword({ token, password });
    if ('error' in result) {
      // The server's reason for the new password goes on that field; anything else (the link) above the form.
      const { fieldErrors } = fieldErrorsOf(result.error, ['password']);
      if (fieldErrors.password) {
        setErrors({ password: fieldErrors.password });
        return;
      }
      setErrors({
        general: isNetworkError(result.error)
          ? 'Network error. Please try again.'
          : serverMessageOf(
              result.error,
              'This reset link is invalid or has expired. Please request a new one.',
            ),
      });
      return;
    }
    setDone(true);
  }

  if (!token) {
    return (
      <AuthCard title="Reset password" backTo="/auth/login">
        <Banner tone="error">This reset link is incomplete. Please request a new one.</Banner>
        <p className={styles.alt}>
          <Link to="/auth/forgot-password" className={styles.link}>
            Request a new link
          </Link>
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Reset password" subtitle="Choose a new password for your account" backTo="/auth/login">
      {done ? (
        <>
          <p role="status">Your password has been changed. You can sign in with it now.</p>
          <p className={styles.alt}>
            <Link to="/auth/login" className={styles.link}>
              Sign in
            </Link>
          </p>
        </>
      ) : (
        <form className={styles.form} onSubmit={submit} noValidate>
          <div aria-live="assertive">{errors.general && <Banner tone="error">{errors.general}</Banner>}</div>
          <TextFields specs={NEW_PASSWORD_FIELDS} values={form} errors={errors} edit={edit} />
          <Button type="submit" busy={isLoading} busyLabel="Saving...">
            Set new password
          </Button>
          {errors.general && (
            <Link to="/auth/forgot-password" className={styles.link}>
              Request a new link
            </Link>
          )}
        </form>
      )}
    </AuthCard>
  );
}
