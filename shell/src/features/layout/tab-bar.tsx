import { useCallback, useRef, useState } from 'react';
import { ThemeToggle } from '@time-wallet/api';
import { Link, NavLink, useLocation } from '@time-wallet/api/router';
import { Modal } from '@time-wallet/shared-ui';
import { ABOUT, ACCOUNT, currentOf, LOGOUT, TAB_BAR } from './destinations';
import styles from './tab-bar.module.css';

/** Each icon one stroked path on a 24-unit grid, drawn in the text's colour. */
const ICONS: Record<string, string> = {
  wallet: 'M3 7h15a3 3 0 0 1 3 3v7a3 3 0 0 1-3 3H6a3 3 0 0 1-3-3zl12-3v3m1 7h1',
  today: 'M10 6h10M10 12h10M10 18h10M4 6l1 1 2-2M4 12l1 1 2-2M4 18l1 1 2-2',
  calendar: 'M4 6h16v14H4zm0 4h16M8 3v4m8-4v4',
  analytics: 'M3 20h18M6 20v-8m6 8V5m6 15v-5',
  more: 'M5 12h.01M12 12h.01M19 12h.01',
};

function Icon({ name }: { name: string }) {
  return (
    <svg className={styles.icon} viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
      <path d={ICONS[name]} />
    </svg>
  );
}

const MENU = [ACCOUNT, ABOUT, LOGOUT];

/**
 * A phone's navigation (the side navigation gives way to it at the same width, by CSS only, so the first paint is
 * already right): the main destinations in a bar at the bottom, in reach of a thumb, and the rest (theme, Account,
 * About, Logout) behind More, a modal dialog that keeps focus inside, closes on Escape and gives focus back.
 */
export function TabBar() {
  const { pathname } = useLocation();
  const current = currentOf(TAB_BAR, pathname);
  const inMenu = MENU.some(({ path }) => path === pathname);
  const [open, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  const firstLink = useRef<HTMLAnchorElement>(null);

  return (
    <nav className={styles.bar} aria-label="Tab bar">
      <ul className={styles.tabs}>
        {TAB_BAR.map(({ name, path, label }) => (
          <li key={name}>
            <Link to={path} className={styles.tab} aria-current={name === current ? 'page' : undefined}>
              <Icon name={name} />
              {label}
            </Link>
          </li>
        ))}
        <li>
          <button
            type="button"
            className={styles.tab}
            data-current={inMenu || undefined}
            aria-haspopup="dialog"
            aria-expanded={open}
            onClick={() => setOpen(true)}
          >
            <Icon name="more" />
            More
          </button>
        </li>
      </ul>
      <Modal open={open} title="More" onClose={close} width="20rem" initialFocusRef={firstLink}>
        {/* Its own form: the side navigation's switch, hidden on a phone, also names its radios "theme", and
            radios of one name share one group only within one form. */}
        <form className={styles.theme} onSubmit={(event) => event.preventDefault()}>
          <ThemeToggle />
        </form>
        <ul className={styles.menu}>
          {MENU.map(({ name, path, label }, index) => (
            <li key={name}>
              <NavLink
                ref={index === 0 ? firstLink : undefined}
                to={path}
                className={styles.menuLink}
                onClick={close}
              >
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </Modal>
    </nav>
  );
}
