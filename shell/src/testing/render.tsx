import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router-dom';
import { render } from '@testing-library/react';
import { createAppStore, type AppStore } from '@time-wallet/api';

type Entry = string | { pathname: string; search?: string; state?: unknown };

/** Where the router ended up, as text a test can read: path, query and the remembered origin, if any. */
export function LocationProbe() {
  const location = useLocation();
  const from = (location.state as { from?: { pathname: string; search?: string } } | null)?.from;
  return (
    <p>
      At {location.pathname}
      {location.search}
      {from && ` from ${from.pathname}${from.search ?? ''}`}
    </p>
  );
}

/** Renders routes in a memory router inside the product's store; any unrouted path shows the LocationProbe. */
export function renderRoutes(
  routes: RouteObject[],
  { initialEntries = ['/'], store = createAppStore() }: { initialEntries?: Entry[]; store?: AppStore } = {},
) {
  const router = createMemoryRouter([...routes, { path: '*', element: <LocationProbe /> }], {
    initialEntries,
  });
  const view = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { ...view, store, router };
}

/** One element at one path, the rest of the app absent. */
export function renderAt(element: ReactElement, path: string, options: { store?: AppStore } = {}) {
  return renderRoutes([{ path, element }], { initialEntries: [path], ...options });
}
