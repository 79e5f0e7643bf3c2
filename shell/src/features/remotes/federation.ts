import type { ComponentType } from 'react';
import { loadRemote, preloadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { RegisteredPage } from '../../lib/pages';

type RemotePageRef = Pick<RegisteredPage, 'remote' | 'expose'>;

type PageModule = { default: ComponentType };

let manifests: Record<string, string> = {};

/** Registers each remote by its manifest URL from the runtime config: nothing about remotes is in the build. */
export function registerRemotePages(remoteManifests: Record<string, string>): void {
  manifests = remoteManifests;
  registerRemotes(Object.entries(remoteManifests).map(([name, entry]) => ({ name, entry })));
}

/**
 * Fetches a page's remote (manifest, entry and the chunks the page needs to draw, as the manifest lists them) without
 * running it, so the download overlaps the shell's own start. Only the sync chunks: a page's lazy ones (the calendar's
 * FullCalendar, 75 KB) load after its first frame and must not compete with what draws it. A failure is left to the
 * page's slot, which retries and explains.
 */
export function preloadRemotePage({ remote, expose }: RemotePageRef): void {
  preloadRemote([{ nameOrAlias: remote, exposes: [expose], resourceCategory: 'sync' }]).catch(
    () => undefined,
  );
}

const RETRY_DELAYS_MS = [400, 1200];
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function forgetRemote(remote: string): void {
  const entry = manifests[remote];
  // Forcing the registration drops the runtime's cached (failed) entry so the next load fetches it anew.
  if (entry) registerRemotes([{ name: remote, entry }], { force: true });
}

async function loadPageOnce({ remote, expose }: RemotePageRef): Promise<PageModule> {
  const loaded = await loadRemote<PageModule>(`${remote}/${expose}`);
  if (!loaded || typeof loaded.default !== 'function') {
    throw new Error(`${remote} does not expose the page ${expose}`);
  }
  return loaded;
}

/** Loads a page from its remote, retrying network failures a couple of times before giving up. */
export async function loadRemotePage(page: RemotePageRef, { fresh = false } = {}): Promise<PageModule> {
  if (fresh) forgetRemote(page.remote);
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await loadPageOnce(page);
    } catch (error) {
      const delay = RETRY_DELAYS_MS[attempt];
      if (delay === undefined) throw error;
      await wait(delay);
      forgetRemote(page.remote);
    }
  }
}
