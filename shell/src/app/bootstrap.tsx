import type { EarlyStart } from './early-start';
import { renderStartupFailure } from './startup-failure';

interface SchedulerWithYield {
  yield(): Promise<void>;
}

/**
 * Ends the current task and continues in a new one: the browser may paint or handle input in between.
 * scheduler.yield() (Chromium) resumes ahead of other queued work; elsewhere a zero timeout does.
 */
function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Partial<SchedulerWithYield> }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Renders the shell once the runtime config (fetched by early-start, which also registered the remotes and started the
 * session check) is valid.
 *
 * Every module below is already downloaded with this chunk (the eager imports add no request); importing them in
 * steps with a yield between evaluates them in several short tasks instead of one long one that blocks the main
 * thread (Lighthouse counts each task's time past 50 ms, at 4x CPU, as blocking).
 */
export async function start(early: EarlyStart) {
  const rootElement = document.getElementById('root');
  if (!rootElement) throw new Error('#root is missing from index.html');
  // In dependency order, so each step evaluates only its own modules: Redux Toolkit, the UI kit, the toaster, RTK
  // Query with react-redux, then the api package that builds on them. Naming the export used keeps Redux Toolkit
  // tree-shaken: a bare import() keeps every export (3.5 KB more gzip on the first visit). RTK Query had been part of
  // the api package's step, one task of 40-48 ms at full CPU speed on /app/wallet; apart, they are about 7 ms and 17-29
  // ms (e2e/bench/task-profile.mjs).
  await import(/* webpackMode: "eager" */ '@reduxjs/toolkit').then(({ configureStore }) => configureStore);
  await yieldToMain();
  await import(/* webpackMode: "eager" */ '@time-wallet/shared-ui');
  await yieldToMain();
  await import(/* webpackMode: "eager" */ 'react-hot-toast');
  await yieldToMain();
  await import(/* webpackMode: "eager", webpackExports: ["createApi"] */ '@reduxjs/toolkit/query/react');
  await yieldToMain();
  const api = await import(/* webpackMode: "eager" */ '@time-wallet/api');
  await yieldToMain();
  try {
    api.setRuntimeConfig(api.parseRuntimeConfig(await early.config));
  } catch (error) {
    renderStartupFailure('config', error);
    return;
  }
  api.adoptEarlyResponse(await early.sessionCheck.catch(() => null));
  // The config's answer also runs early-start's own callback (the session check, the remotes) in this task.
  await yieldToMain();
  const store = api.createAppStore();
  api.followOtherTabs(store);
  await yieldToMain();
  const { createRoot } = await import(/* webpackMode: "eager" */ 'react-dom/client');
  await yieldToMain();
  const { renderApp } = await import(/* webpackMode: "eager" */ './app-root');
  await yieldToMain();
  renderApp(createRoot(rootElement), store);
  followServiceWorker();
}

/**
 * The page side of the service worker (features/offline: the offline banner, reminders and refused actions as toasts)
 * loads only once there is something to show: the browser is or goes offline, or the worker posts a message. A first
 * visit online downloads none of it. The worker itself is registered by the HTML (public/register-service-worker.js).
 */
function followServiceWorker(): void {
  const show = (event?: Event) =>
    void import('../features/offline/pwa-client').then((client) => client.handle(event), console.error);
  if (!navigator.onLine) show();
  window.addEventListener('offline', show);
  navigator.serviceWorker?.addEventListener('message', show);
}
