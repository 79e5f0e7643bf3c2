import { ThemeToggle } from '@time-wallet/api';
import { Link, NavLink, useLocation } from '@time-wallet/api/router';
import { WALLET_TABS } from '../../lib/pages';
import { ABOUT, ACCOUNT, currentOf, LOGOUT, SIDE_LINKS } from './destinations';
import styles from './side-nav.module.css';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  isActive ? `${styles.link} ${styles.active}` : styles.link;

/** The side navigation of a wide screen; a phone has the tab bar instead (tab-bar.tsx). */
export function SideNav() {
  const current = currentOf(SIDE_LINKS, useLocation().pathname);

  return (
    <nav className={styles.nav} aria-label="Main">
      <Link to={SIDE_LINKS[0]!.path} className={styles.logo} aria-label="Time Wallet home">
        <svg viewBox="0 0 32 32" width="32" height="32" aria-hidden="true">
          <rect width="32" height="32" rx="8" fill="var(--color-primary)" />
          <circle cx="16" cy="16" r="9" fill="none" stroke="#fff" strokeWidth="2.5" />
          <path d="M16 10v6l4 3" fill="none" stroke="#fff" strokeWidth="2.5" strokeLinecap="round" />
        </svg>
        <span className={styles.brand}>Time Wallet</span>
      </Link>

      <ul className={styles.links}>
        {SIDE_LINKS.map(({ name, path, label }) => (
          <li key={name}>
            <Link
              to={path}
              className={name === current ? `${styles.link} ${styles.active}` : styles.link}
              aria-current={name === current ? 'page' : undefined}
            >
              {label}
            </Link>
          </li>
        ))}
      </ul>

      <div className={styles.footer}>
        <ThemeToggle />
        <NavLink to={ACCOUNT.path} className={linkClass}>
          {ACCOUNT.label}
        </NavLink>
        <NavLink to={LOGOUT.path} className={styles.link}>
          {LOGOUT.label}
        </NavLink>
        {/* Last: the least used. */}
        <NavLink to={ABOUT.path} className={linkClass}>
          {ABOUT.label}
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
