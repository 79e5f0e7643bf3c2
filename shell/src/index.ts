import { startEarly } from './app/early-start';

// The runtime config, the session check and the current page's remote are fetched while the shell's code downloads.
const early = startEarly();
early.config.catch(() => undefined);
// The async boundary: shared modules are negotiated before any of them is evaluated. That negotiation (the federation
// runtime matching versions) starts in a task of its own, so it does not lengthen the entry's evaluation task; the
// chunks it loads are already preloaded from the HTML.
setTimeout(() => {
  void import('./app/bootstrap').then(({ start }) => start(early));
}, 0);
