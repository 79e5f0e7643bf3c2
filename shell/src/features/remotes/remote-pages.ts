/** Every page the shell routes to, by remote and expose; the contract test checks each one is still exposed. */
export const REMOTE_PAGES = {
  login: { remote: 'mfe_auth', expose: 'LoginPage' },
  register: { remote: 'mfe_auth', expose: 'RegisterPage' },
  forgotPassword: { remote: 'mfe_auth', expose: 'ForgotPasswordPage' },
  resetPassword: { remote: 'mfe_auth', expose: 'ResetPasswordPage' },
  logout: { remote: 'mfe_auth', expose: 'LogoutPage' },
  account: { remote: 'mfe_auth', expose: 'AccountPage' },
  wallet: { remote: 'mfe_wallet', expose: 'WalletPage' },
  today: { remote: 'mfe_wallet', expose: 'TodayPage' },
  yesterday: { remote: 'mfe_wallet', expose: 'YesterdayPage' },
  calendar: { remote: 'mfe_calendar', expose: 'CalendarPage' },
  analytics: { remote: 'mfe_analytics', expose: 'AnalyticsPage' },
  tags: { remote: 'mfe_tags', expose: 'TagsPage' },
} as const;

export type RemotePageName = keyof typeof REMOTE_PAGES;
export type RemotePageRef = (typeof REMOTE_PAGES)[RemotePageName];

/**
 * The remote page each URL shows, so the shell can start fetching it while its own code still loads. Kept beside the
 * routes by a unit test (routes.test.tsx).
 */
export const PAGE_PATHS: Readonly<Record<string, RemotePageName>> = {
  '/auth/login': 'login',
  '/auth/register': 'register',
  '/auth/forgot-password': 'forgotPassword',
  '/auth/reset-password': 'resetPassword',
  '/app/logout': 'logout',
  '/app/wallet': 'wallet',
  '/app/today': 'today',
  '/app/yesterday': 'yesterday',
  '/app/calendar': 'calendar',
  '/app/analytics': 'analytics',
  '/app/edit-tags': 'tags',
  '/app/account': 'account',
};

export function remotePageForPath(pathname: string): RemotePageRef | null {
  const name = PAGE_PATHS[pathname.replace(/\/+$/, '') || '/'];
  return name ? REMOTE_PAGES[name] : null;
}
