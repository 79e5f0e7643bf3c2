import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from '@time-wallet/api/router';
import toast from 'react-hot-toast';
import {
  isNetworkError,
  serverMessageOf,
  signedIn,
  signInDestination,
  useAppDispatch,
} from '@time-wallet/api';
import { Banner, Button } from '@time-wallet/shared-ui';
import { validateLogin } from '../../../lib/account-rules';
import { TextFields, type TextFieldSpec } from '../../../lib/form-fields';
import { pageText } from '@time-wallet/api/page-text';
import { useLoginMutation } from '../api/auth-api';
import { useLightTheme } from '../hooks/use-light-theme';
import { AuthCard } from './auth-card';
import styles from './auth-card.module.css';

// 'Welcome Back' (SPEC), from the registry: the shell's first HTML of this page shows the same heading.
const HEADING = pageText('login').heading;

const LOGIN_FIELDS: readonly TextFieldSpec<'username' | 'password'>[] = [
  { field: 'username', label: 'Username', autoComplete: 'username', hint: 'Your username or e-mail address' },
  { field: 'password', label: 'Password', type: 'password', autoComplete: 'current-password' },
];

export function LoginPage() {
  useLightTheme();
  const [credentials, setCredentials] = useState({ username: '', password: '' });
  const [error, setError] = useState<string | null>(null);
  const [login, { isLoading }] = useLoginMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();

  const edit = (field: 'username' | 'password') => (value: string) => {
    setCredentials((current) => ({ ...current, [field]: value }));
    setError(null);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (isLoading) return;
    const missing = validateLogin(credentials);
    if (missing.length > 0) {
      setError('Please enter your username and password');
      return;
    }
    const result = await login({ username: credentials.username.trim(), password: credentials.password });
    if ('error' in result) {
      setError(
        isNetworkError(result.error)
          ? 'Network error. Please try again.'
          : serverMessageOf(result.error, 'Login failed'),
      );
      return;
    }
    try {
      if (!result.data?.token || !result.data.user) throw new Error('The login answer lacks a token or user');
      dispatch(signedIn({ token: result.data.token, user: result.data.user }));
    } catch {
      setError('Login succeeded but session setup failed');
      return;
    }
    toast.success('Login successful!');
    navigate(signInDestination(location.state), { replace: true });
  }

  return (
    <AuthCard title={HEADING} subtitle="Please enter your account details">
      <form
        className={styles.form}
        onSubmit={submit}
        noValidate
        aria-describedby={error ? 'login-error' : undefined}
      >
        <div aria-live="assertive" id="login-error">
          {error && <Banner tone="error">{error}</Banner>}
        </div>
        <TextFields specs={LOGIN_FIELDS} values={credentials} edit={edit} />
        <div className={styles.row}>
          <Link to="/auth/forgot-password" className={styles.link}>
            Forgot password
          </Link>
        </div>
        <Button type="submit" busy={isLoading} busyLabel="Signing in...">
          Sign in
        </Button>
      </form>
      <p className={styles.alt}>
        Don&apos;t have an account?{' '}
        <Link to="/auth/register" className={styles.link}>
          Sign up
        </Link>
      </p>
    </AuthCard>
  );
}
