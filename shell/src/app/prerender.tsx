import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import '@time-wallet/shared-ui/tokens.css';
import { LandingContent } from '../features/landing/landing-page';
import { PageSkeleton } from '../features/remotes/page-skeleton';
import { PAGES } from '../lib/pages';

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

/**
 * Build time only (run in Node by the devkit's prerender plugin, never shipped): the first HTML of the pages a first
 * visit opens without a session, from the same components the app draws.
 *
 * - The landing page is whole and static: its links are plain anchors into the app, so it needs no script.
 * - Login and registration belong to mfe-auth, which deploys on its own: the shell's build must not freeze that
 *   remote's markup into its HTML (a new mfe-auth would first show the old form until the shell is rebuilt). So their
 *   documents hold only what the shell itself draws there before the remote arrives, the page's loading frame with
 *   its registry heading (which the remote's page reads too, so the words are one fact), and the app (whose first
 *   render is that same frame) takes over as usual.
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
    file: `${page.path.replace(/^\/+/, '')}.html`,
    html: markupAt(page.path, <PageSkeleton page={page} />),
    app: true,
  }));
  return [landing, ...guestPages];
}
