// The one registry of deployable apps: ports, federation names and the pages each remote exposes.
// The shell's routes, the contract test and the start scripts all read it, so they cannot drift apart.
const path = require('node:path');

const repoRoot = path.resolve(__dirname, '../../..');

const remotes = [
  {
    dir: 'mfe-auth',
    federationName: 'mfe_auth',
    portEnv: 'AUTH_PORT',
    defaultPort: 3001,
    exposes: {
      './LoginPage': './src/app/pages/login-page.tsx',
      './RegisterPage': './src/app/pages/register-page.tsx',
      './ForgotPasswordPage': './src/app/pages/forgot-password-page.tsx',
      './ResetPasswordPage': './src/app/pages/reset-password-page.tsx',
      './LogoutPage': './src/app/pages/logout-page.tsx',
      './AccountPage': './src/app/pages/account-page.tsx',
    },
  },
  {
    dir: 'mfe-wallet',
    federationName: 'mfe_wallet',
    portEnv: 'WALLET_PORT',
    defaultPort: 3002,
    exposes: {
      './WalletPage': './src/app/pages/wallet-page.tsx',
      './TodayPage': './src/app/pages/today-page.tsx',
      './YesterdayPage': './src/app/pages/yesterday-page.tsx',
    },
  },
  {
    dir: 'mfe-calendar',
    federationName: 'mfe_calendar',
    portEnv: 'CALENDAR_PORT',
    defaultPort: 3003,
    exposes: { './CalendarPage': './src/app/pages/calendar-page.tsx' },
  },
  {
    dir: 'mfe-analytics',
    federationName: 'mfe_analytics',
    portEnv: 'ANALYTICS_PORT',
    defaultPort: 3004,
    exposes: { './AnalyticsPage': './src/app/pages/analytics-page.tsx' },
  },
  {
    dir: 'mfe-tags',
    federationName: 'mfe_tags',
    portEnv: 'TAGS_PORT',
    defaultPort: 3005,
    exposes: { './TagsPage': './src/app/pages/tags-page.tsx' },
  },
];

const shell = { dir: 'shell', federationName: 'shell', portEnv: 'SHELL_PORT', defaultPort: 3000 };
const api = { dir: 'server', portEnv: 'API_PORT', defaultPort: 4000 };

function portOf(app, env = process.env) {
  return Number(env[app.portEnv] ?? app.defaultPort);
}

module.exports = { repoRoot, remotes, shell, api, portOf };
