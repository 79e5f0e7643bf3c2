import { StrictMode, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { Toaster } from 'react-hot-toast';
import { createBrowserRouter, Link, Outlet, RouterProvider } from 'react-router-dom';
import '@time-wallet/shared-ui/tokens.css';
import { setRuntimeConfig } from './runtime-config';
import { createAppStore, followOtherTabs } from './store';

export interface StandalonePage {
  path: string;
  title: string;
  Page: ComponentType;
}

function DevFrame({ pages }: { pages: StandalonePage[] }) {
  return (
    <div style={{ padding: '1rem', display: 'grid', gap: '1rem' }}>
      <nav aria-label="Standalone pages" style={{ display: 'flex', gap: '1rem', flexWrap: 'wrap' }}>
        {pages.map(({ path, title }) => (
          <Link key={path} to={path}>
            {title}
          </Link>
        ))}
      </nav>
      <Outlet />
      <Toaster />
    </div>
  );
}

/**
 * A remote team's local host: the product's own store factory and api slice, the remote's pages on their real
 * routes, and the API from API_URL (default the local API). Used only by `npm run dev -w <remote>`.
 */
export function renderStandalone(pages: StandalonePage[], apiBaseUrl = 'http://localhost:4000/api'): void {
  setRuntimeConfig({ apiBaseUrl, remotes: {} });
  const store = createAppStore();
  followOtherTabs(store);
  const router = createBrowserRouter([
    {
      element: <DevFrame pages={pages} />,
      children: pages.map(({ path, Page }) => ({ path, element: <Page /> })),
    },
  ]);
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing');
  createRoot(root).render(
    <StrictMode>
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>
    </StrictMode>,
  );
}
