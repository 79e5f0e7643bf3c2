import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter, useRoutes } from 'react-router-dom';
import {
  adoptEarlyResponse,
  createAppStore,
  followOtherTabs,
  parseRuntimeConfig,
  setRuntimeConfig,
} from '@time-wallet/api';
import '@time-wallet/shared-ui/tokens.css';
import type { EarlyStart } from './early-start';
import { routes } from './routes';

function renderStartupFailure(root: HTMLElement, error: unknown) {
  console.error('Time Wallet could not start', error);
  root.innerHTML =
    '<main style="max-width:32rem;margin:15vh auto;padding:1rem;font-family:system-ui"><h1>Time Wallet could not start</h1>' +
    '<p>Its configuration could not be loaded. Check your connection and reload the page.</p></main>';
}

// The component router, not createBrowserRouter: the shell uses no loaders, actions or blockers, and the data router
// would add about 15 KB of gzip to every first visit.
function AppRoutes() {
  return useRoutes(routes);
}

/**
 * Renders the shell once the runtime config (fetched by early-start, which also registered the remotes and started the
 * session check) is valid.
 */
export async function start(early: EarlyStart) {
  const rootElement = document.getElementById('root');
  if (!rootElement) throw new Error('#root is missing from index.html');
  try {
    setRuntimeConfig(parseRuntimeConfig(await early.config));
  } catch (error) {
    renderStartupFailure(rootElement, error);
    return;
  }
  adoptEarlyResponse(await early.sessionCheck.catch(() => null));
  const store = createAppStore();
  followOtherTabs(store);
  createRoot(rootElement).render(
    <StrictMode>
      <Provider store={store}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </Provider>
    </StrictMode>,
  );
}
