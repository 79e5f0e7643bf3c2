/** Where signing in leads: the protected page the guard sent the guest away from, else the wallet. */
export function signInDestination(locationState: unknown): string {
  const from = (locationState as { from?: { pathname?: string; search?: string; hash?: string } } | null)
    ?.from;
  if (!from?.pathname?.startsWith('/app/') || from.pathname === '/app/logout') return '/app/wallet';
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}
