import { ThemeToggle } from '@time-wallet/api';
import { Link, NavLink, useLocation } from '@time-wallet/api/router';
import { WALLET_TABS } from '../../lib/pages';
import styles from './side-nav.module.css';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  isActive ? `${styles.link} ${styles.active}` : styles.link;

export function SideNav() {
  const { pathname } = useLocation();
  const walletActive = WALLET_TABS.some(({ path }) => pathname.startsWith(path));

  return (
    <nav className={styles.nav} aria-label="Main">
      <Link to="/app/wallet" className={styles.logo} aria-label="Time Wallet home">
        <svg viewBox="0 0 32 32" width="32" height="32" aria-hidden="true">
          <rect width="32" height="32" rx="8" fill="var(--color-primary)" />
          <circle cx="16" cy="16" r="9" fill="none" stroke="#fff" strokeWidth="2.5" />
          <path d="M16 10v6l4 3" fill="none" stroke="#fff" strokeWidth="2.5" strokeLinecap="round" />
        </svg>
        <span className={styles.brand}>Time Wallet</span>
      </Link>

      <ul className={styles.links}>
        <li>
          <Link
            to="/app/wallet"
            className={walletActive ? `${styles.link} ${styles.active}` : styles.link}
            aria-current={walletActive ? 'page' : undefined}
          >
            Wallet
          </Link>
        </li>
        <li>
          <NavLink to="/app/calendar" className={linkClass}>
            Calendar
          </NavLink>
        </li>
        <li>
          <NavLink to="/app/analytics" className={linkClass}>
            Analytics
          </NavLink>
        </li>
      </ul>

      <div className={styles.footer}>
        <ThemeToggle />
        <NavLink to="/app/account" className={linkClass}>
          Account
        </NavLink>
        <NavLink to="/app/logout" className={styles.link}>
          Logout
        </NavLink>
        {/* Last: the least used, it takes a row of its own at 375 px rather than push Logout off the theme's row. */}
        <NavLink to="/app/about" className={linkClass}>
          About
        </NavLink>
      </div>
    </nav>
  );
}

/** The tabs under the Wallet entry: the registry's wallet-tab pages, by title. */
export function WalletTabs() {
  return (
    <nav className={styles.tabs} aria-label="Tabs">
      <h2 className={styles.tabsTitle}>Tabs</h2>
      <ul>
        {WALLET_TABS.map(({ path, title }) => (
          <li key={path}>
            <NavLink to={path} className={linkClass}>
              {title}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
