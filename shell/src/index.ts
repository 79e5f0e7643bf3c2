import { startEarly } from './app/early-start';

// The runtime config, the session check and the current page's remote are fetched while the shell's code downloads.
const early = startEarly();
early.config.catch(() => undefined);
// The async boundary: shared modules are negotiated before any of them is evaluated.
void import('./app/bootstrap').then(({ start }) => start(early));
