import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { createAppStore, followOtherTabs, parseRuntimeConfig, setRuntimeConfig } from '@time-wallet/api';
import '@time-wallet/shared-ui/tokens.css';
import { registerRemotePages } from '../features/remotes/federation';
import { routes } from './routes';

async function loadRuntimeConfig() {
  const response = await fetch('/config.json', { cache: 'no-cache' });
  if (!response.ok) throw new Error(`GET /config.json answered ${response.status}`);
  return parseRuntimeConfig(await response.json());
}

function renderStartupFailure(root: HTMLElement, error: unknown) {
  console.error('Time Wallet could not start', error);
  root.innerHTML =
    '<main style="max-width:32rem;margin:15vh auto;padding:1rem;font-family:system-ui"><h1>Time Wallet could not start</h1>' +
    '<p>Its configuration could not be loaded. Check your connection and reload the page.</p></main>';
}

async function start() {
  const rootElement = document.getElementById('root');
  if (!rootElement) throw new Error('#root is missing from index.html');
  try {
    const config = await loadRuntimeConfig();
    setRuntimeConfig(config);
    registerRemotePages(config.remotes);
  } catch (error) {
    renderStartupFailure(rootElement, error);
    return;
  }
  const store = createAppStore();
  followOtherTabs(store);
  const router = createBrowserRouter(routes);
  createRoot(rootElement).render(
    <StrictMode>
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>
    </StrictMode>,
  );
}

void start();
