import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { Toaster } from 'react-hot-toast';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { render } from '@testing-library/react';
import { createAppStore, type AppStore } from '../store';
import { stubMatchMedia } from './match-media';

/** Where the router ended up, as text a test can read. */
function Destination() {
  const location = useLocation();
  return (
    <h1>
      Arrived at {location.pathname}
      {location.search}
    </h1>
  );
}

/** react-hot-toast asks matchMedia for reduced motion; jsdom has none: one that matches nothing, unless a test set one. */
function ensureMatchMedia() {
  if (typeof window.matchMedia === 'function') return;
  stubMatchMedia(() => false);
}

type Entry = string | { pathname: string; search?: string; state?: unknown };

/**
 * A remote's page on its route inside the product's store, with the toaster the shell provides; every other path
 * shows where the page navigated to.
 */
export function renderPage(
  page: ReactElement,
  {
    path,
    initialEntries = [path],
    store = createAppStore(),
  }: { path: string; initialEntries?: Entry[]; store?: AppStore },
) {
  ensureMatchMedia();
  const router = createMemoryRouter(
    [
      { path, element: page },
      { path: '*', element: <Destination /> },
    ],
    { initialEntries },
  );
  const view = render(
    <Provider store={store}>
      <RouterProvider router={router} />
      <Toaster />
    </Provider>,
  );
  return { ...view, store, router };
}
