import { renderStandalone } from '@time-wallet/api/standalone';
import LoginPage from '../app/pages/login-page';
import RegisterPage from '../app/pages/register-page';
import ForgotPasswordPage from '../app/pages/forgot-password-page';
import ResetPasswordPage from '../app/pages/reset-password-page';
import LogoutPage from '../app/pages/logout-page';
import AccountPage from '../app/pages/account-page';

renderStandalone([
  { path: '/auth/login', title: 'Login', Page: LoginPage },
  { path: '/auth/register', title: 'Register', Page: RegisterPage },
  { path: '/auth/forgot-password', title: 'Forgot password', Page: ForgotPasswordPage },
  { path: '/auth/reset-password', title: 'Reset password', Page: ResetPasswordPage },
  { path: '/app/logout', title: 'Logout', Page: LogoutPage },
  { path: '/app/account', title: 'Account security', Page: AccountPage },
]);
