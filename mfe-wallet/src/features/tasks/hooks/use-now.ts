import { useEffect, useState } from 'react';

const SECOND_MS = 1_000;

/** The current time, moving on every second while `ticking`, and standing still (no re-render) otherwise. */
export function useNow(ticking: boolean): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    // Until the first tick the time may be a little old: a timer never counts backwards (trackedSecondsAt).
    if (!ticking) return;
    const timer = window.setInterval(() => setNow(Date.now()), SECOND_MS);
    return () => window.clearInterval(timer);
  }, [ticking]);
  return now;
}
