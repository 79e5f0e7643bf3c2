import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from '@time-wallet/api/router';
import toast from 'react-hot-toast';
import { Banner, Button } from '@time-wallet/shared-ui';
import { validateRegistration } from '../../../lib/account-rules';
import { TextFields, type TextFieldSpec } from '../../../lib/form-fields';
import { NEW_PASSWORD_HINT } from '../../../lib/new-password-hint';
import { pageText } from '@time-wallet/api/page-text';
import { useRegisterMutation } from '../api/auth-api';
import { useLightTheme } from '../hooks/use-light-theme';
import {
  registrationFailureFrom,
  type RegistrationField,
  type RegistrationFieldErrors,
} from '../lib/registration-errors';
import { AuthCard } from './auth-card';
import styles from './auth-card.module.css';

// 'Create Account' (SPEC), from the registry: the shell's first HTML of this page shows the same heading.
const HEADING = pageText('register').heading;

const EMPTY_FORM = { username: '', name: '', email: '', password: '' };

const REGISTRATION_FIELDS: readonly TextFieldSpec<RegistrationField>[] = [
  { field: 'username', label: 'Username', autoComplete: 'username', hint: '8 to 15 letters and digits' },
  { field: 'name', label: 'Full name', autoComplete: 'name' },
  { field: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
  {
    field: 'password',
    label: 'Password',
    type: 'password',
    autoComplete: 'new-password',
    hint: NEW_PASSWORD_HINT,
  },
];

export function RegisterPage() {
  useLightTheme();
  const [form, setForm] = useState(EMPTY_FORM);
  const [fieldErrors, setFieldErrors] = useState<RegistrationFieldErrors>({});
  const [generalError, setGeneralError] = useState<string | null>(null);
  const [register, { isLoading }] = useRegisterMutation();
  const navigate = useNavigate();

  const edit = (field: RegistrationField) => (value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    setFieldErrors((current) => ({ ...current, [field]: undefined }));
    setGeneralError(null);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (isLoading) return;
    let problems;
    try {
      problems = validateRegistration(form);
    } catch {
      setGeneralError('An unexpected error occurred.');
      return;
    }
    if (problems.length > 0) {
      setFieldErrors(Object.fromEntries(problems.map(({ field, message }) => [field, message])));
      setGeneralError(problems[0]!.message);
      return;
    }
    const result = await register({ ...form, name: form.name.trim(), profilePicture: '' });
    if ('error' in result) {
      const failure = registrationFailureFrom(result.error);
      setFieldErrors(failure.fieldErrors);
      setGeneralError(failure.general);
      return;
    }
    toast.success('Registration successful!');
    navigate('/auth/login', { replace: true });
  }

  return (
    <AuthCard title={HEADING}>
      <form className={styles.form} onSubmit={submit} noValidate>
        <div aria-live="assertive">{generalError && <Banner tone="error">{generalError}</Banner>}</div>
        <TextFields specs={REGISTRATION_FIELDS} values={form} errors={fieldErrors} edit={edit} />
        <Button type="submit" busy={isLoading} busyLabel="Creating account...">
          Create Account
        </Button>
      </form>
      <p className={styles.alt}>
        Already have an account?{' '}
        <Link to="/auth/login" className={styles.link}>
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}
