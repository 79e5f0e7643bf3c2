import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';
import { Spinner } from '@time-wallet/shared-ui';
import { AppLayout } from '../features/layout/app-layout';
import { RemotePage } from '../features/remotes/remote-page';
import { isSignedInPage, PAGES, type RegisteredPage } from '../lib/pages';
import { GuestOnly, RequireAuth, RequireConfirmedSession } from '../features/session/guards';
import { ShellFrame } from './shell-frame';
import { signedInFrameAt } from './signed-in-frame';

/**
 * The shell's own pages that no first visit needs in its code: the landing page is static HTML when opened (the app
 * draws it only after a sign-out), and About is a click away. Loaded when opened, they stay out of the start-up
 * chunks every /app visit downloads (about 3 KB gzip).
 */
export const LandingPage = lazy(() =>
  import('../features/landing/landing-page').then((module) => ({ default: module.LandingPage })),
);
export const AboutPage = lazy(() =>
  import('../features/about/about-page').then((module) => ({ default: module.AboutPage })),
);

/** One of those pages in its route, with what shows while its code loads. */
export function ShellPage({ page: Page, loading = null }: { page: ComponentType; loading?: ReactNode }) {
  return (
    <Suspense fallback={loading}>
      <Page />
    </Suspense>
  );
}

/** The registry's pages that match, each on its own path, behind the guard its access names. */
function pageRoutes(matches: (page: RegisteredPage) => boolean): RouteObject[] {
  return PAGES.filter(matches).map((page) => {
    const element = <RemotePage name={page.name} />;
    return {
      path: page.path,
      element:
        page.access === 'confirmed' ? <RequireConfirmedSession>{element}</RequireConfirmedSession> : element,
    };
  });
}

/** The shell's own pages and guards; every remote page comes from the registry (devkit/registry.json). */
export const routes: RouteObject[] = [
  {
    element: <ShellFrame />,
    children: [
      { path: '/', element: <ShellPage page={LandingPage} /> },
      { path: '/landing', element: <ShellPage page={LandingPage} /> },
      ...pageRoutes((page) => page.access === 'public'),
      { element: <GuestOnly />, children: pageRoutes((page) => page.access === 'guest') },
      {
        element: <RequireAuth frameWhileChecking={signedInFrameAt} />,
        children: [
          { path: '/app', element: <Navigate to="/app/wallet" replace /> },
          ...pageRoutes((page) => isSignedInPage(page) && !page.layout),
          {
            element: <AppLayout />,
            children: [
              ...pageRoutes((page) => isSignedInPage(page) && page.layout),
              {
                path: '/app/about',
                element: <ShellPage page={AboutPage} loading={<Spinner label="Loading About" />} />,
              },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
