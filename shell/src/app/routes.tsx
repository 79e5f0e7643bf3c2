import { Navigate, type RouteObject } from 'react-router-dom';
import { AboutPage } from '../features/about/about-page';
import { LandingPage } from '../features/landing/landing-page';
import { AppLayout } from '../features/layout/app-layout';
import { RemotePage } from '../features/remotes/remote-page';
import { isSignedInPage, PAGES, type RegisteredPage } from '../lib/pages';
import { GuestOnly, RequireAuth, RequireConfirmedSession } from '../features/session/guards';
import { ShellFrame } from './shell-frame';
import { signedInFrameAt } from './signed-in-frame';

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
      { path: '/', element: <LandingPage /> },
      { path: '/landing', element: <LandingPage /> },
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
              { path: '/app/about', element: <AboutPage /> },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
