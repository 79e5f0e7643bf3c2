import { startEarly } from './app/early-start';
import { renderStartupFailure } from './app/startup-failure';

// The runtime config, the session check and the current page's remote are fetched while the shell's code downloads.
const early = startEarly();
early.config.catch(() => undefined);
// The async boundary: shared modules are negotiated before any of them is evaluated. That negotiation (the federation
// runtime matching versions) starts in a task of its own, so it does not lengthen the entry's evaluation task (the
// app's own document preloads the chunks it loads; a prerendered one paints first and lets them follow main.js).
// Code that fails to load or start (a network cut, a redeploy that removed old chunks) says so instead of leaving the
// first frame up.
setTimeout(() => {
  import('./app/bootstrap')
    .then(({ start }) => start(early))
    .catch((error: unknown) => renderStartupFailure('code', error));
}, 0);
