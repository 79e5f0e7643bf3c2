import { SESSION_IDLE_MINUTES } from './generated/product-defaults';

export interface RuntimeConfig {
  apiBaseUrl: string;
  /** Manifest URL per remote, keyed by federation name (mfe_wallet, ...). */
  remotes: Record<string, string>;
  /** Sign-out after this long without activity; the product uses 30 minutes, tests shorten it. */
  inactivityTimeoutMs?: number;
}

/** Used when the runtime config names none: the API's own idle default (server/session-defaults.json). */
export const INACTIVITY_TIMEOUT_MS = SESSION_IDLE_MINUTES * 60_000;

let current: RuntimeConfig = { apiBaseUrl: '/api', remotes: {} };

export function setRuntimeConfig(config: RuntimeConfig): void {
  current = config;
}

export function getRuntimeConfig(): RuntimeConfig {
  return current;
}

function isRecordOfStrings(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((entry) => typeof entry === 'string')
  );
}

/** Checks the JSON the shell fetched at start-up; a broken deployment config should fail loudly and early. */
export function parseRuntimeConfig(value: unknown): RuntimeConfig {
  if (typeof value !== 'object' || value === null) throw new Error('Runtime config is not an object');
  const { apiBaseUrl, remotes, inactivityTimeoutMs } = value as Record<string, unknown>;
  if (typeof apiBaseUrl !== 'string' || apiBaseUrl === '') throw new Error('Runtime config lacks apiBaseUrl');
  if (!isRecordOfStrings(remotes)) throw new Error('Runtime config lacks the remotes map');
  if (
    inactivityTimeoutMs !== undefined &&
    (typeof inactivityTimeoutMs !== 'number' || inactivityTimeoutMs <= 0)
  ) {
    throw new Error('Runtime config has an invalid inactivityTimeoutMs');
  }
  return { apiBaseUrl: apiBaseUrl.replace(/\/+$/, ''), remotes, inactivityTimeoutMs };
}
