import type { User } from './contract';

export const TOKEN_KEY = 'token';
export const USER_KEY = 'USER';
export const ANALYTICS_MARKER_KEY = 'lastAnalyticsUpdate';
export const SESSION_KEY = 'session';
export const THEME_KEY = 'theme';
export const WALLET_STORE_KEY = 'wallet-store';

/** Everything that belongs to the signed-in person; the theme preference belongs to the device and stays. */
const PERSONAL_KEYS = [TOKEN_KEY, USER_KEY, ANALYTICS_MARKER_KEY, SESSION_KEY, WALLET_STORE_KEY];

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function readItem(key: string): string | null {
  return storage()?.getItem(key) ?? null;
}

export function writeItem(key: string, value: string): void {
  storage()?.setItem(key, value);
}

export function removeItem(key: string): void {
  storage()?.removeItem(key);
}

export function readStoredToken(): string | null {
  return readItem(TOKEN_KEY);
}

/** The locally stored user counts only with an id, an email and a username. */
export function isUsableUser(value: unknown): value is User {
  if (typeof value !== 'object' || value === null) return false;
  const { id, email, username } = value as Record<string, unknown>;
  return [id, email, username].every((field) => typeof field === 'string' && field !== '');
}

export function readStoredUser(): User | null {
  const raw = readItem(USER_KEY);
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return isUsableUser(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export function clearPersonalData(): void {
  for (const key of PERSONAL_KEYS) removeItem(key);
}
