import { startEarly } from './app/early-start';

// The runtime config and the current page's remote are fetched while the shell's own code downloads.
const config = startEarly();
config.catch(() => undefined);
// The async boundary: shared modules are negotiated before any of them is evaluated.
void import('./app/bootstrap').then(({ start }) => start(config));
