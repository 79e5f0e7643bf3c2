import { startTransition, StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter, useRoutes } from 'react-router-dom';
import type { AppStore } from '@time-wallet/api';
import '@time-wallet/shared-ui/tokens.css';
import { routes } from './routes';

// The component router, not createBrowserRouter: the shell uses no loaders, actions or blockers, and the data router
// would add about 15 KB of gzip to every first visit.
function AppRoutes() {
  return useRoutes(routes);
}

/**
 * Draws the app into its root. As a transition, React renders the first tree in slices of a few milliseconds with the
 * browser free in between, instead of one task that blocks input for the whole render.
 */
export function renderApp(root: Root, store: AppStore): void {
  startTransition(() => {
    root.render(
      <StrictMode>
        <Provider store={store}>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </Provider>
      </StrictMode>,
    );
  });
}
