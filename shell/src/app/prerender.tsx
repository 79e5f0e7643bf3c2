import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Provider } from 'react-redux';
import { StaticRouter } from 'react-router-dom';
import { createAppStore } from '@time-wallet/api';
import '@time-wallet/shared-ui/tokens.css';
import { LandingContent } from '../features/landing/landing-page';
import { PageSkeleton } from '../features/remotes/page-skeleton';
import { hasSignedInFrame, SignedInPageFrame } from './signed-in-frame';
import { PAGES, type RegisteredPage } from '../lib/pages';

/** One document the build writes next to index.html (see devkit/webpack/prerender.cjs). */
export interface PrerenderedPage {
  /** The URL paths the static server answers with this document. */
  paths: string[];
  /** Its file in the build, relative to the output folder. */
  file: string;
  /** What goes inside #root. */
  html: string;
  /** False: the document keeps no application script (only theme-init.js, which the template loads itself). */
  app: boolean;
}

function markupAt(path: string, element: ReactElement): string {
  return renderToStaticMarkup(<StaticRouter location={path}>{element}</StaticRouter>);
}

const documentFile = (page: RegisteredPage) => `${page.path.replace(/^\/+/, '')}.html`;

/**
 * A signed-in page's first frame, from a store that knows nothing yet, as at start-up: what RequireAuth draws while the
 * session check runs (it runs first on every visit with a session). Inert: its links and theme switch stay dead until
 * the app has replaced them, so nothing is clicked before it can work.
 */
function signedInFrame(page: RegisteredPage): string {
  return markupAt(
    page.path,
    <Provider store={createAppStore()}>
      <div inert>
        <SignedInPageFrame page={page} firstFrameSlot={page.firstFrame} />
      </div>
    </Provider>,
  );
}

/**
 * Build time only (run in Node by the devkit's prerender plugin, never shipped): the first HTML of the pages a first
 * visit opens, from the same components the app draws.
 *
 * - The landing page is whole and static: its links are plain anchors into the app, so it needs no script.
 * - Login and registration belong to mfe-auth, which deploys on its own: the shell's build must not freeze that
 *   remote's markup into its HTML (a new mfe-auth would first show the old form until the shell is rebuilt). So their
 *   documents hold only what the shell itself draws there before the remote arrives, the page's loading frame with
 *   its registry heading (which the remote's page reads too, so the words are one fact), and the app (whose first
 *   render is that same frame) takes over as usual.
 * - Each signed-in page's document is the same for every visitor (the static server knows no session): the layout
 *   and the page's heading and subtitle, the page's largest text on a first visit. A visit with no stored session
 *   keeps it hidden (theme-init.js marks the document) until the app sends the visitor to sign in.
 */
export function prerender(): PrerenderedPage[] {
  const landing: PrerenderedPage = {
    paths: ['/', '/landing'],
    file: 'landing.html',
    html: markupAt('/', <LandingContent />),
    app: false,
  };
  const guestPages = PAGES.filter((page) => page.access === 'guest').map((page): PrerenderedPage => ({
    paths: [page.path],
    file: documentFile(page),
    html: markupAt(page.path, <PageSkeleton page={page} />),
    app: true,
  }));
  // A page without a header (sign-out runs at once) keeps the app's own start.
  const signedInPages = PAGES.filter(hasSignedInFrame).map((page): PrerenderedPage => ({
    paths: [page.path],
    file: documentFile(page),
    html: signedInFrame(page),
    app: true,
  }));
  return [landing, ...guestPages, ...signedInPages];
}
