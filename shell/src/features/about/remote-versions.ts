import { useEffect, useState } from 'react';
import { getRuntimeConfig } from '@time-wallet/api';
import type { RegisteredRemote } from '../../lib/pages';

/** What the About page knows of one remote's version. */
export type VersionCheck =
  | { state: 'checking' }
  | { state: 'version'; version: string }
  /** The manifest did not answer, answered an error, or is not JSON. */
  | { state: 'unreachable' }
  /** The manifest answered without a version (a build older than versioned releases, or not ours). */
  | { state: 'unversioned' }
  /** The runtime config names no manifest for it, so the shell cannot load it. */
  | { state: 'unconfigured' };

type Finished = Exclude<VersionCheck, { state: 'checking' | 'unconfigured' }>;

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

// A manifest that never answers reads as unreachable instead of leaving the row checking for good.
const CHECK_TIMEOUT_MS = 10_000;

/**
 * A remote's version as its live manifest announces it: Module Federation writes the remote's package version into
 * `metaData.buildInfo.buildVersion` when it builds, so this is the release actually being served, not the one this
 * tab happened to load. Asked afresh (`no-cache`), as the shell asks for the runtime config.
 */
export async function fetchManifestVersion(url: string, signal?: AbortSignal): Promise<Finished> {
  let manifest: unknown;
  try {
    const response = await fetch(url, { cache: 'no-cache', signal });
    if (!response.ok) return { state: 'unreachable' };
    manifest = await response.json();
  } catch {
    return { state: 'unreachable' };
  }
  const version = (manifest as { metaData?: { buildInfo?: { buildVersion?: unknown } } } | null)?.metaData
    ?.buildInfo?.buildVersion;
  return typeof version === 'string' && SEMVER.test(version)
    ? { state: 'version', version }
    : { state: 'unversioned' };
}

/**
 * The live version of each remote, from the manifest URLs the shell registered at start-up (the runtime config);
 * `checkAgain` asks every manifest once more. Rows answer one by one, each as soon as its manifest does.
 */
export function useRemoteVersions(remotes: readonly RegisteredRemote[]) {
  const [round, setRound] = useState(0);
  // Results are kept with the round that asked for them, so a new round starts every row at 'checking'.
  const [results, setResults] = useState<{ round: number; byRemote: Record<string, Finished> }>({
    round: 0,
    byRemote: {},
  });

  useEffect(() => {
    const manifests = getRuntimeConfig().remotes;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), CHECK_TIMEOUT_MS);
    let current = true;
    for (const { federationName } of remotes) {
      const url = manifests[federationName];
      if (!url) continue;
      void fetchManifestVersion(url, controller.signal).then((check) => {
        if (!current) return;
        setResults((previous) => ({
          round,
          byRemote: { ...(previous.round === round ? previous.byRemote : {}), [federationName]: check },
        }));
      });
    }
    return () => {
      current = false;
      clearTimeout(timer);
      controller.abort();
    };
  }, [remotes, round]);

  const manifests = getRuntimeConfig().remotes;
  const finished = results.round === round ? results.byRemote : {};
  const checks: Record<string, VersionCheck> = Object.fromEntries(
    remotes.map(({ federationName }) => [
      federationName,
      manifests[federationName]
        ? (finished[federationName] ?? { state: 'checking' })
        : { state: 'unconfigured' },
    ]),
  );
  return {
    checks,
    checking: Object.values(checks).some((check) => check.state === 'checking'),
    checkAgain: () => setRound((previous) => previous + 1),
  };
}
