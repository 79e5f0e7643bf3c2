import { useState, type FormEvent } from 'react';
import { Link } from '@time-wallet/api/router';
import { fieldErrorsOf, isNetworkError } from '@time-wallet/api';
import { Button, Field } from '@time-wallet/shared-ui';
import { useRequestPasswordResetMutation } from '../api/auth-api';
import { AuthCard } from './auth-card';
import styles from './auth-card.module.css';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [requestReset, { isLoading }] = useRequestPasswordResetMutation();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!EMAIL_PATTERN.test(email.trim())) {
      setError('Invalid email format');
      return;
    }
    const result = await requestReset({ email: email.trim() });
    if ('error' in result) {
      const { fieldErrors } = fieldErrorsOf(result.error, ['email']);
      setError(
        isNetworkError(result.error)
          ? 'Network error. Please try again.'
          : (fieldErrors.email ?? 'Something went wrong. Please try again.'),
      );
      return;
    }
    setSent(true);
  }

  return (
    <AuthCard
      title="Forgot password"
      subtitle="We will e-mail you a link to choose a new password"
      backTo="/auth/login"
    >
      {sent ? (
        <p role="status">
          If an account exists for {email.trim()}, a link to reset its password is on its way. The link works
          once and expires in 30 minutes.
        </p>
      ) : (
        <form className={styles.form} onSubmit={submit} noValidate>
          <Field
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            error={error}
            onChange={(event) => {
              setEmail(event.target.value);
              setError(null);
            }}
          />
          <Button type="submit" busy={isLoading} busyLabel="Sending link...">
            Send reset link
          </Button>
        </form>
      )}
      <p className={styles.alt}>
        <Link to="/auth/login" className={styles.link}>
          Back to sign in
        </Link>
      </p>
    </AuthCard>
  );
}
