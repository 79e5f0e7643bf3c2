import type { ReactNode } from 'react';
import { Outlet, useLocation } from '@time-wallet/api/router';
import { WALLET_TABS } from '../../lib/pages';
import { useGetCategoriesQuery } from '@time-wallet/api';
import { SideNav, WalletTabs } from './side-nav';
import { TabBar } from './tab-bar';
import { useCategoriesFailureToast } from './use-categories-failure-toast';
import styles from './app-layout.module.css';

/**
 * The signed-in area's frame: side navigation and the content slot. Also drawn alone, with a page's loading frame in
 * the slot, before anything is known (the prerendered HTML, the session check), so it asks the server for nothing.
 *
 * On a phone (up to the side navigation's 720 px breakpoint) the side navigation gives way to the tab bar, by CSS alone
 * so the first paint is already right: the page starts at the top and ends above the bar (--tab-bar-height, set in
 * tab-bar.module.css) and, in an installed app (viewport-fit=cover), keeps clear of the notch and home indicator.
 * While the bar is shown, --tab-bar-clearance on the root (its height and top border) lifts the toasts above it.
 */
export function AppLayoutFrame({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const tabbed = WALLET_TABS.some(({ path }) => pathname.startsWith(path));

  return (
    <div className={styles.layout}>
      <a className={styles.skipLink} href="#main-content">
        Skip to content
      </a>
      <SideNav />
      <div className={tabbed ? `${styles.body} ${styles.withTabs}` : styles.body}>
        {tabbed && <WalletTabs />}
        <main id="main-content" className={styles.content} tabIndex={-1}>
          {children}
        </main>
      </div>
      <TabBar />
    </div>
  );
}

const onlyFailure = ({ isError }: { isError: boolean }) => ({ isError });

/**
 * The signed-in area: side navigation and content. It loads the category list once for every page, and reads of it
 * only whether it failed: the frame is not drawn again for the list's own answers (two each first visit).
 */
export function AppLayout() {
  const { isError } = useGetCategoriesQuery(undefined, { selectFromResult: onlyFailure });
  useCategoriesFailureToast(isError);
  return (
    <AppLayoutFrame>
      <Outlet />
    </AppLayoutFrame>
  );
}
