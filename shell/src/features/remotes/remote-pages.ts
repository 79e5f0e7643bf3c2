/** Every page the shell routes to, by remote and expose; the contract test checks each one is still exposed. */
export const REMOTE_PAGES = {
  login: { remote: 'mfe_auth', expose: 'LoginPage' },
  register: { remote: 'mfe_auth', expose: 'RegisterPage' },
  forgotPassword: { remote: 'mfe_auth', expose: 'ForgotPasswordPage' },
  resetPassword: { remote: 'mfe_auth', expose: 'ResetPasswordPage' },
  logout: { remote: 'mfe_auth', expose: 'LogoutPage' },
  wallet: { remote: 'mfe_wallet', expose: 'WalletPage' },
  today: { remote: 'mfe_wallet', expose: 'TodayPage' },
  yesterday: { remote: 'mfe_wallet', expose: 'YesterdayPage' },
  calendar: { remote: 'mfe_calendar', expose: 'CalendarPage' },
  analytics: { remote: 'mfe_analytics', expose: 'AnalyticsPage' },
  tags: { remote: 'mfe_tags', expose: 'TagsPage' },
} as const;

export type RemotePageName = keyof typeof REMOTE_PAGES;
export type RemotePageRef = (typeof REMOTE_PAGES)[RemotePageName];
