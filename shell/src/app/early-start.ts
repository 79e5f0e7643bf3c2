// The pure helpers (not the shared package root): bundled into the entry, so usable before the async boundary.
import { browserTimeZone } from '@time-wallet/shared-ui/lib';
import { preloadRemotePage, registerRemotePages } from '../features/remotes/federation';
import { remotePageForPath } from '../lib/pages';

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
function storedToken(): string | null {
  try {
    return localStorage.getItem('token');
  } catch {
    return null;
  }
}

/**
 * The start-up session check, sent as the api slice would send it (same URL, token, time zone and credentials), so
 * the slice can take its answer instead of asking again once the store exists (see adoptEarlyResponse).
 */
function startSessionCheck(apiBaseUrl: unknown, token: string | null): SessionCheck | null {
  if (!token || typeof apiBaseUrl !== 'string') return null;
  const url = `${apiBaseUrl.replace(/\/+$/, '')}/auth/validate`;
  const authorization = `Bearer ${token}`;
  const response = fetch(url, {
    credentials: 'include',
    headers: { Authorization: authorization, 'X-Time-Zone': browserTimeZone() },
  });
  // Unhandled until the slice takes it; a failure then reads as the network error it is.
  response.catch(() => undefined);
  return { url, authorization, response };
}

/** The api package's EarlyResponse (its type cannot be imported here without loading the package). */
interface SessionCheck {
  url: string;
  authorization: string;
  response: Promise<Response>;
}

export interface EarlyStart {
  /** The runtime config's JSON, for the bootstrap to validate. */
  config: Promise<unknown>;
  /** The session check already under way, or null when there is no stored token (or no usable config). */
  sessionCheck: Promise<SessionCheck | null>;
}

/**
 * Runs before the shell's own code has loaded (it is part of the entry, so it may not touch React or the store): reads
 * the runtime config, registers the remotes, connects to the API, starts the session check and starts fetching the
 * current route's remote page, so that none of it waits for React. A guest's protected page is not fetched, since the
 * guard will send them to sign in.
 */
export function startEarly(): EarlyStart {
  const config = fetch('/config.json', { cache: 'no-cache' }).then(async (response) => {
    if (!response.ok) throw new Error(`GET /config.json answered ${response.status}`);
    return (await response.json()) as unknown;
  });
  const token = storedToken();
  const sessionCheck = config.then(
    (json) => {
      const apiBaseUrl = (json as { apiBaseUrl?: unknown } | null)?.apiBaseUrl;
      preconnect(apiBaseUrl);
      const check = startSessionCheck(apiBaseUrl, token);
      try {
        const remotes = remotesOf(json);
        if (remotes) {
          registerRemotePages(remotes);
          const page = remotePageForPath(window.location.pathname);
          if (page && (!window.location.pathname.startsWith('/app/') || token)) preloadRemotePage(page);
        }
      } catch (error) {
        // Only a head start is lost: each page's slot loads (and explains) its remote itself.
        console.error('Could not register the remotes early', error);
      }
      return check;
    },
    () => null,
  );
  return { config, sessionCheck };
}
