import { pageNamed, WALLET_TABS, type RegisteredPage } from '../../lib/pages';

/** A place the navigation leads to: its path from the registry and the word the navigation shows for it. */
export interface Destination {
  name: string;
  path: string;
  label: string;
}

const destination = (page: RegisteredPage, label = page.title): Destination => ({
  name: page.name,
  path: page.path,
  label,
});

/** The side navigation's main links (SPEC): Wallet, Calendar and Analytics. */
export const SIDE_LINKS: readonly Destination[] = ['wallet', 'calendar', 'analytics'].map((name) =>
  destination(pageNamed(name)),
);

/** A phone's bottom tab bar: the main links with Today, the page a day on the phone starts on, beside Wallet. */
export const TAB_BAR: readonly Destination[] = ['wallet', 'today', 'calendar', 'analytics'].map((name) =>
  destination(pageNamed(name)),
);

/** The account page's registry title is 'Account security'; the navigation calls it Account. */
export const ACCOUNT = destination(pageNamed('account'), 'Account');
export const LOGOUT = destination(pageNamed('logout'));
/** The shell's own page (not a remote's, so not in the registry); routes.tsx routes it. */
export const ABOUT: Destination = { name: 'about', path: '/app/about', label: 'About' };

const under = (pathname: string, path: string) => pathname === path || pathname.startsWith(`${path}/`);

/**
 * Which of `links` is the current page: the one whose path the URL is at, else, on a wallet tab no link has for its
 * own (Yesterday, Edit Tags; Today too in the side navigation), Wallet.
 */
export function currentOf(links: readonly Destination[], pathname: string): string | null {
  const own = links.find(({ path }) => under(pathname, path));
  if (own) return own.name;
  return WALLET_TABS.some(({ path }) => under(pathname, path)) ? 'wallet' : null;
}
