import registry from '@time-wallet/devkit/registry.json';
import { pageText, type PageText } from '@time-wallet/api/page-text';

/** Who may open a page: anyone, only the signed-out, the signed-in, or the signed-in with a session the server confirmed. */
export type PageAccess = 'public' | 'guest' | 'signed-in' | 'confirmed';

/** One page of one remote, as the registry (devkit/registry.json) lists it. */
export interface RegisteredPage extends PageText {
  name: string;
  /** The remote's federation name and the module it exposes the page as. */
  remote: string;
  expose: string;
  path: string;
  /** The document's title; the page's <h1> and the line under it are `heading` (else the title) and `subtitle`. */
  title: string;
  access: PageAccess;
  /** Drawn inside the side navigation's layout (else the page is the whole screen). */
  layout: boolean;
  /** One of the tabs under the Wallet entry of the side navigation. */
  walletTab: boolean;
  /** Its remote builds a first frame of it, which the static server puts into its prerendered HTML. */
  firstFrame: boolean;
}

/**
 * The attribute that marks, in a prerendered page, where the static server may put its remote's first frame; its value
 * is `<remote>/<page name>` (registry.json's firstFrames).
 */
export const FIRST_FRAME_SLOT = registry.firstFrames.slot;

/** A page behind the sign-in guard. */
export const isSignedInPage = (page: RegisteredPage) =>
  page.access === 'signed-in' || page.access === 'confirmed';

/**
 * A page drawn without the side navigation fills the screen, so the shell's frames around it offer a way out: home
 * for the pages before sign-in, the wallet for the others.
 */
export function wayOutOf(page: RegisteredPage): { to: string; label: string } | null {
  if (page.layout) return null;
  return page.access === 'guest' || page.access === 'public'
    ? { to: '/', label: 'Back to home' }
    : { to: '/app/wallet', label: 'Back to Wallet' };
}

/** Every page the shell routes to, derived from the registry, in its order. */
export const PAGES: readonly RegisteredPage[] = registry.remotes.flatMap((remote) =>
  remote.pages.map((page) => ({
    name: page.name,
    remote: remote.federationName,
    expose: page.expose,
    path: page.path,
    title: page.title,
    ...pageText(page.name),
    access: page.access as PageAccess,
    layout: 'layout' in page && page.layout === true,
    walletTab: 'walletTab' in page && page.walletTab === true,
    firstFrame: 'firstFrame' in page && page.firstFrame === true,
  })),
);

/** One remote as the registry lists it: the package its team releases, its federation name and its pages' titles. */
export interface RegisteredRemote {
  dir: string;
  federationName: string;
  pageTitles: readonly string[];
}

/** Every remote the shell can load, in the registry's order. */
export const REMOTES: readonly RegisteredRemote[] = registry.remotes.map((remote) => ({
  dir: remote.dir,
  federationName: remote.federationName,
  pageTitles: remote.pages.map((page) => page.title),
}));

const BY_NAME = new Map(PAGES.map((page) => [page.name, page]));
const BY_PATH = new Map(PAGES.map((page) => [page.path, page]));

export function pageNamed(name: string): RegisteredPage {
  const page = BY_NAME.get(name);
  if (!page) throw new Error(`No page named ${name} in the registry`);
  return page;
}

/** The remote page a URL shows, so the shell can start fetching it while its own code still loads. */
export function remotePageForPath(pathname: string): RegisteredPage | null {
  return BY_PATH.get(pathname.replace(/\/+$/, '') || '/') ?? null;
}

/** The pages listed under the Wallet entry: the side navigation marks Wallet for each of them and shows their tabs. */
export const WALLET_TABS: readonly RegisteredPage[] = PAGES.filter((page) => page.walletTab);
