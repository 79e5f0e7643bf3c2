import { useSyncExternalStore } from 'react';

const NARROW_SCREEN = '(max-width: 640px)';

function subscribe(onChange: () => void) {
  const query = window.matchMedia(NARROW_SCREEN);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** Phones get a one-day grid: seven columns do not fit 375 px readably. */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(NARROW_SCREEN).matches);
}
