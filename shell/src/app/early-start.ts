import { preloadRemotePage, registerRemotePages } from '../features/remotes/federation';
import { remotePageForPath } from '../features/remotes/remote-pages';

function remotesOf(config: unknown): Record<string, string> | null {
  const remotes = (config as { remotes?: unknown } | null)?.remotes;
  if (typeof remotes !== 'object' || remotes === null) return null;
  const entries = Object.entries(remotes);
  return entries.every(([, url]) => typeof url === 'string') ? Object.fromEntries(entries) : null;
}

/** Opens the connection to the API while the page's code loads; its requests carry credentials, so no crossorigin. */
function preconnect(url: unknown): void {
  if (typeof url !== 'string') return;
  try {
    const origin = new URL(url, window.location.href).origin;
    if (origin === window.location.origin) return;
    const link = document.createElement('link');
    link.rel = 'preconnect';
    link.href = origin;
    document.head.append(link);
  } catch {
    // An unusable URL is reported by the bootstrap's validation.
  }
}

// The api package's TOKEN_KEY; the package itself is shared and cannot load before the async boundary.
function hasStoredToken(): boolean {
  try {
    return Boolean(localStorage.getItem('token'));
  } catch {
    return false;
  }
}

/**
 * Runs before the shell's own code has loaded (it is part of the entry, so it may not touch React or the store): reads
 * the runtime config, registers the remotes, connects to the API and starts fetching the current route's remote page,
 * so that none of it waits for React. Resolves to the config's JSON for the bootstrap to validate; a guest's protected page is not
 * fetched, since the guard will send them to sign in.
 */
export function startEarly(): Promise<unknown> {
  return fetch('/config.json', { cache: 'no-cache' }).then(async (response) => {
    if (!response.ok) throw new Error(`GET /config.json answered ${response.status}`);
    const config: unknown = await response.json();
    preconnect((config as { apiBaseUrl?: unknown } | null)?.apiBaseUrl);
    const remotes = remotesOf(config);
    if (remotes) {
      registerRemotePages(remotes);
      const page = remotePageForPath(window.location.pathname);
      if (page && (!window.location.pathname.startsWith('/app/') || hasStoredToken()))
        preloadRemotePage(page);
    }
    return config;
  });
}
